import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { soleOwner, type TimerOwner, type TimerSubject } from '../ownership.js';
import type { Pending } from '../ports.js';
import { Lease } from '../scale/lease.js';
import { OwnedClock } from '../scale/owned-clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    timers: Timers;
  }
}

export interface Timers extends TimerOwner {
  /** Run, in the order given, each time this instance becomes the owner (a single instance: once, when ready): the services arm their timers from the store. */
  onTakeover(resume: () => Pending<void>): void;
  /** On the owner: another instance changed `subject`, its timers are derived again. */
  onNotice(listener: (subject: TimerSubject) => Pending<void>): void;
  /**
   * Run, in the order given, every `rescanMs` while this instance owns the timers of several
   * (never for a single instance): each service arms, from what is stored, the timers it lacks
   * (a notice lost on the way), starting nothing new.
   */
  onRescan(round: () => Pending<void>): void;
}

export interface TimerLease {
  /** Names the lease in Redis, and the bus topic of its notices: instances sharing one database share one. */
  name: string;
  /** How long the lease lasts without renewal: how soon another instance takes over after a crash. */
  ttlMs: number;
  /** How often the owner derives its timers again from the store: the longest a lost notice delays a timer. */
  rescanMs: number;
}

export const DEFAULT_TIMER_LEASE: TimerLease = { name: 'timers', ttlMs: 10_000, rescanMs: 5000 };

/** On the lease's topic: its owner has just let it go (anything else is a notice to the owner, a TimerSubject). */
const RELEASED = 'released';

/**
 * Who runs the timers (ownership.ts). Without Redis this instance, always. With Redis, the
 * holder of the `PREFIX:lease:timers` lease (REDIS_PREFIX: deployments sharing a Redis have one
 * each): on taking it, every service arms its timers from the store, and every `rescanMs` after
 * that arms those it lacks (a notice lost); on losing it, they are all cancelled; at shutdown it
 * is released and the others told, so one of them takes over at once.
 */
export default fp<{ redisUrl?: string; lease: TimerLease }>(
  async (app, { redisUrl, lease: { name, ttlMs, rescanMs } }) => {
    const takeovers: (() => Pending<void>)[] = [];
    const listeners: ((subject: TimerSubject) => Pending<void>)[] = [];
    const rounds: (() => Pending<void>)[] = [];
    const bus = app.bus;
    if (bus === null || redisUrl === undefined) {
      app.decorate('timers', {
        ...soleOwner(app.clock),
        onTakeover: (resume) => void takeovers.push(resume),
        onNotice: () => {},
        // Nobody else stores changes that need a timer: every one was armed as it was stored.
        onRescan: () => {},
      } satisfies Timers);
      app.addHook('onReady', async () => {
        for (const resume of takeovers) await resume();
      });
      return;
    }

    const clock = new OwnedClock(app.clock);
    // Its own connection, failing fast: a renewal that cannot reach Redis must say so before the lease runs out.
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, commandTimeout: Math.max(50, ttlMs / 3) });
    redis.on('error', () => {});
    /** Takeovers and rescan rounds, one after the other. */
    let taking: Promise<void> = Promise.resolve();
    /** Runs each service's step in order: one failing must not leave the others' timers unarmed. */
    const runEach = async (steps: readonly (() => Pending<void>)[], failure: string): Promise<void> => {
      for (const step of steps) {
        try {
          await step();
        } catch (error) {
          app.log.error({ err: error }, failure);
        }
      }
    };
    let cancelRound = (): void => {};
    // On the owned clock: losing the lease cancels the next round with every other timer.
    const nextRound = (): void => {
      cancelRound();
      cancelRound = clock.setTimer(rescanMs, () => {
        taking = taking.then(async () => {
          await runEach(rounds, 'cannot rescan the stored timers');
          nextRound();
        });
      });
    };
    const lease = new Lease(redis, {
      key: bus.key(`lease:${name}`),
      ttlMs,
      onChange(owner) {
        clock.owner = owner;
        if (!owner) {
          clock.cancelAll();
          app.log.warn('timer lease lost: timers cancelled here');
          return;
        }
        app.log.info('timer lease acquired: arming every timer from the store');
        nextRound();
        taking = taking.then(() => runEach(takeovers, 'cannot arm timers on taking over'));
      },
    });
    const timers: Timers = {
      clock,
      shared: true,
      get isOwner() {
        return lease.isOwner;
      },
      changed(subject) {
        if (lease.isOwner) return;
        // Lost, the notice is made up for by the owner's next rescan round.
        bus.publish(name, JSON.stringify(subject)).catch((error: unknown) => app.log.warn({ err: error, subject }, 'cannot tell the timer owner'));
      },
      onTakeover: (resume) => void takeovers.push(resume),
      onNotice: (listener) => void listeners.push(listener),
      onRescan: (round) => void rounds.push(round),
    };
    app.decorate('timers', timers);

    bus.onMessage(({ topic, payload }) => {
      if (topic !== name) return;
      if (payload === RELEASED) return lease.tryNow();
      if (!lease.isOwner) return;
      const subject = JSON.parse(payload) as TimerSubject;
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener(subject))
          .catch((error: unknown) => app.log.error({ err: error, subject }, 'cannot arm the timers of a change made elsewhere'));
      }
    });
    await bus.subscribe(name);
    await redis.connect();

    app.addHook('onReady', async () => lease.start());
    // First of the shutdown: the timers stop here and another instance takes them at once.
    app.addHook('preClose', async () => {
      const held = lease.isOwner;
      await lease.stop();
      if (held) await bus.publish(name, RELEASED).catch(() => undefined);
      await taking;
      redis.disconnect();
    });
  },
  { name: 'timers', dependencies: ['bus'] },
);
