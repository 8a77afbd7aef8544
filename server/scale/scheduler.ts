/**
 * The one scheduler of stored deadlines (ports.ts). It keeps a timer per deadline, on a clock
 * whose timers run only while this instance owns them (owned-clock.ts); a deadline stays in its
 * table while its handler works, so a rescan never starts it twice; a handler failing for the
 * storage is armed again after `retryMs`. Taking over runs the takeover work, then arms every
 * stored deadline of every kind; a rescan arms those it lacks (a notice lost on the way), and
 * nothing else: what is armed or working is left alone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { recovering, type DeadlineHandler, type Pending, type Scheduler } from '../ports.js';
import { OwnedClock } from './owned-clock.js';

export interface SchedulerOptions {
  readonly log: FastifyBaseLogger;
  /** The storage's reason when `error` is a failure a retry may cure. */
  readonly failure: (error: unknown) => string | undefined;
  readonly retryMs: number;
  /** Tells the instance that runs the timers of a deadline stored here (none when alone). */
  readonly notify: (kind: string, key: string, at: number) => void;
}

const idOf = (kind: string, key: string): string => `${kind} ${key}`;

export class DeadlineScheduler implements Scheduler {
  readonly clock: OwnedClock;
  private readonly handlers = new Map<string, DeadlineHandler>();
  private readonly takeovers: (() => Pending<void>)[] = [];
  private readonly armed = new Map<string, () => void>();
  private closed = false;

  constructor(
    clock: Clock,
    private readonly options: SchedulerOptions,
  ) {
    this.clock = new OwnedClock(clock);
  }

  get runsTimers(): boolean {
    return this.clock.owner && !this.closed;
  }

  handle(kind: string, handler: DeadlineHandler): void {
    this.handlers.set(kind, handler);
  }

  onTakeover(work: () => Pending<void>): void {
    this.takeovers.push(work);
  }

  stored(kind: string, key: string, at: number): void {
    if (this.runsTimers) this.arm(kind, key, at);
    else if (!this.closed) this.options.notify(kind, key, at);
  }

  arm(kind: string, key: string, at: number, delayMs = at - this.clock.now()): void {
    const handler = this.handlers.get(kind);
    if (!handler || !this.runsTimers) return;
    const id = idOf(kind, key);
    this.armed.get(id)?.();
    const timer = this.clock.setTimer(delayMs, () => {
      const release = () => {
        // Unless armed again meanwhile (a retry, a later deadline).
        if (this.armed.get(id) === timer) this.armed.delete(id);
      };
      const done = recovering(
        () => handler.due(key, at),
        (error) => {
          const code = this.options.failure(error);
          this.options.log.error({ err: error, code, kind, key }, code ? 'cannot store what a deadline did: retrying' : 'a deadline failed');
          if (code !== undefined) this.arm(kind, key, at, this.options.retryMs);
        },
      );
      if (done instanceof Promise) void done.then(release, release);
      else release();
    });
    this.armed.set(id, timer);
  }

  cancel(kind: string, key: string): void {
    const id = idOf(kind, key);
    this.armed.get(id)?.();
    this.armed.delete(id);
  }

  /** Whether a deadline is armed (or its handler working) here. */
  has(kind: string, key: string): boolean {
    return this.armed.has(idOf(kind, key));
  }

  /** This instance now runs the timers: the takeover work, then every stored deadline armed. */
  async takeOver(): Promise<void> {
    this.clock.owner = true;
    for (const work of this.takeovers) await this.attempt(work, 'cannot take the timers over');
    await this.rescan();
  }

  /** Arms every stored deadline that has no timer here; starts nothing twice. */
  async rescan(): Promise<void> {
    for (const [kind, handler] of this.handlers) {
      await this.attempt(async () => {
        for (const { key, at } of await handler.stored()) {
          if (!this.has(kind, key)) this.arm(kind, key, at);
        }
      }, `cannot read the stored deadlines (${kind})`);
    }
  }

  /** Another instance runs the timers now: nothing armed here may fire. */
  giveUp(): void {
    this.clock.owner = false;
    this.clock.cancelAll();
    this.armed.clear();
  }

  close(): void {
    this.closed = true;
    this.giveUp();
  }

  /** One kind failing must not leave the others' deadlines unarmed. */
  private async attempt(work: () => Pending<void>, failure: string): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.options.log.error({ err: error }, failure);
    }
  }
}
