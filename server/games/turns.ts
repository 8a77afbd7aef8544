/**
 * One turn per game. With an asynchronous store a load, a move's write, a resignation or a
 * time-out holds its game until it settles, and the next change of that game waits behind it:
 * every change is validated against the position the stored log holds, and a game's changes are
 * applied, stored and acknowledged in the order they came. Other games are not held up. On a
 * synchronous store nothing is ever held and work runs at once.
 */
import type { Pending } from '../ports.js';

const ignore = (): void => {};

export class TurnQueue {
  /** Games with work in flight, settled when all of it (and what waited for it) has. */
  private readonly busy = new Map<number, Promise<void>>();

  /** Runs `work` on a game now, or after the work of that game still in flight. */
  inTurn<T>(gameId: number, work: () => Pending<T>): Pending<T> {
    const waiting = this.busy.get(gameId);
    // A turn that did not finish at once (a load, a write) holds the game until it settles.
    const outcome = waiting ? waiting.then(work) : work();
    return outcome instanceof Promise ? this.hold(gameId, outcome) : outcome;
  }

  /** Work on a game now in flight: later work on that game waits for it, and for whatever it was already waiting for. */
  hold<T>(gameId: number, work: Promise<T>): Promise<T> {
    const before = this.busy.get(gameId);
    const own = work.then(ignore, ignore);
    const settled = before ? Promise.all([before, own]).then(ignore) : own;
    this.busy.set(gameId, settled);
    void settled.then(() => {
      if (this.busy.get(gameId) === settled) this.busy.delete(gameId);
    });
    return work;
  }

  /** Whether a game has work in flight. */
  holds(gameId: number): boolean {
    return this.busy.has(gameId);
  }

  /** Every turn in flight now, settled (rejections ignored). */
  inFlight(): Promise<void>[] {
    return [...this.busy.values()];
  }
}
