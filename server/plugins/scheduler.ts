import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { STORAGE_RETRY_MS } from '../db/index.js';
import { Lease } from '../scale/lease.js';
import { DeadlineScheduler } from '../scale/scheduler.js';

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: DeadlineScheduler;
  }
}

export interface TimerLease {
  /** Names the lease in Redis, and the bus topic of its notices: instances sharing one database share one. */
  name: string;
  /** How long the lease lasts without renewal: how soon another instance takes over after a crash. */
  ttlMs: number;
  /** How often the owner arms again the stored deadlines it lacks: the longest a lost notice delays one. */
  rescanMs: number;
}

export const DEFAULT_TIMER_LEASE: TimerLease = { name: 'timers', ttlMs: 10_000, rescanMs: 5000 };

/** On the lease's topic: its owner has just let it go (anything else is a notice to the owner: a deadline stored elsewhere). */
const RELEASED = 'released';

interface Notice {
  kind: string;
  key: string;
  at: number;
}

/**
 * Where the stored deadlines run (ports.ts). Without Redis, here, from the start. With Redis,
 * on the holder of the `PREFIX:lease:NAME` lease (REDIS_PREFIX: deployments sharing a Redis have
 * one each): on taking it, the scheduler arms every stored deadline, and every `rescanMs` after
 * that those it lacks (a notice lost); a deadline stored on another instance reaches it as a
 * notice on the bus; on losing the lease every timer here is cancelled; at shutdown it is
 * released and the others told, so one of them takes over at once.
 */
export default fp<{ redisUrl?: string; lease: TimerLease }>(
  async (app, { redisUrl, lease: { name, ttlMs, rescanMs } }) => {
    const bus = redisUrl === undefined ? null : app.bus;
    const scheduler = new DeadlineScheduler(app.clock, {
      log: app.log,
      failure: (error) => app.storage.failure(error),
      retryMs: STORAGE_RETRY_MS,
      notify(kind, key, at) {
        // Lost, the notice is made up for by the owner's next rescan.
        bus?.publish(name, JSON.stringify({ kind, key, at } satisfies Notice)).catch((error: unknown) => app.log.warn({ err: error, kind, key }, 'cannot tell the timer owner'));
      },
    });
    app.decorate('scheduler', scheduler);
    if (bus === null) {
      // Alone: every deadline runs here, armed from the store once every service has said what it keeps.
      app.addHook('onReady', async () => scheduler.takeOver());
      app.addHook('preClose', async () => scheduler.close());
      return;
    }

    // Its own connection, failing fast: a renewal that cannot reach Redis must say so before the lease runs out.
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, commandTimeout: Math.max(50, ttlMs / 3) });
    redis.on('error', () => {});
    /** Takeovers and rescans, one after the other. */
    let taking: Promise<void> = Promise.resolve();
    let cancelRound = (): void => {};
    // On the owned clock: losing the lease cancels the next round with every other timer.
    const nextRound = (): void => {
      cancelRound();
      cancelRound = scheduler.clock.setTimer(rescanMs, () => {
        taking = taking.then(async () => {
          await scheduler.rescan();
          nextRound();
        });
      });
    };
    const lease = new Lease(redis, {
      key: bus.key(`lease:${name}`),
      ttlMs,
      onChange(owner) {
        if (!owner) {
          scheduler.giveUp();
          app.log.warn('timer lease lost: timers cancelled here');
          return;
        }
        app.log.info('timer lease acquired: arming every timer from the store');
        taking = taking.then(async () => {
          await scheduler.takeOver();
          nextRound();
        });
      },
    });

    bus.onMessage(({ topic, payload }) => {
      if (topic !== name) return;
      if (payload === RELEASED) return lease.tryNow();
      if (!scheduler.runsTimers) return;
      const { kind, key, at } = JSON.parse(payload) as Notice;
      scheduler.arm(kind, key, at);
    });
    await bus.subscribe(name);
    await redis.connect();

    app.addHook('onReady', async () => lease.start());
    // First of the shutdown: the timers stop here and another instance takes them at once.
    app.addHook('preClose', async () => {
      const held = lease.isOwner;
      await lease.stop();
      scheduler.close();
      if (held) await bus.publish(name, RELEASED).catch(() => undefined);
      await taking;
      redis.disconnect();
    });
  },
  { name: 'scheduler', dependencies: ['bus', 'db'] },
);
