/**
 * Game deadlines (a race's time limit or hard cap, the end of a daily attempt's day): one timer
 * per playing game, on the timer owner's clock. The deadline is stored with the game, so a timer
 * is only a way to act on time: armed again from the store after a restart or a takeover, and
 * one already past fires at once. A time-out the storage cannot take is tried again until it is.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Pending } from '../ports.js';

export interface DeadlineWork {
  /** Ends the game if it is still playing (read afresh); may answer later. */
  expire(gameId: number, deadline: number): Pending<void>;
  /** The storage's reason when `error` is a failure a retry may cure. */
  storageFailure(error: unknown): string | undefined;
}

export class GameDeadlines {
  private readonly timers = new Map<number, () => void>();

  constructor(
    /** The timer owner's clock: arms nothing on an instance that does not run the timers. */
    private readonly clock: Clock,
    private readonly work: DeadlineWork,
    private readonly log: FastifyBaseLogger,
    /** How long to wait before trying a time-out again that the storage refused. */
    private readonly retryMs: number,
  ) {}

  /** Arms (or re-arms) the timer of `gameId` for `deadline`. */
  arm(gameId: number, deadline: number, delayMs = deadline - this.clock.now()): void {
    this.cancel(gameId);
    const failed = (error: unknown) => {
      const code = this.work.storageFailure(error);
      this.log.error({ err: error, code, gameId }, code ? 'cannot store a time-out: retrying' : 'ending a timed-out game failed');
      if (code !== undefined) this.arm(gameId, deadline, this.retryMs);
    };
    this.timers.set(
      gameId,
      this.clock.setTimer(delayMs, () => {
        this.timers.delete(gameId);
        try {
          const ended = this.work.expire(gameId, deadline);
          if (ended instanceof Promise) ended.catch(failed);
        } catch (error) {
          failed(error);
        }
      }),
    );
  }

  has(gameId: number): boolean {
    return this.timers.has(gameId);
  }

  cancel(gameId: number): void {
    this.timers.get(gameId)?.();
    this.timers.delete(gameId);
  }

  close(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }
}
