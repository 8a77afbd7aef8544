import type { Clock } from '../clock.js';

const unarmed = (): void => {};

/**
 * A clock whose timers run only while this instance owns them: set while not the owner, a
 * timer is not armed at all (the owner arms its own from the store); losing ownership cancels
 * every armed one.
 */
export class OwnedClock implements Clock {
  owner = false;
  private readonly armed = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  setTimer(ms: number, fn: () => void): () => void {
    if (!this.owner) return unarmed;
    const cancel = (): void => {
      this.armed.delete(cancel);
      stop();
    };
    const stop = this.clock.setTimer(ms, () => {
      this.armed.delete(cancel);
      fn();
    });
    this.armed.add(cancel);
    return cancel;
  }

  /** Ownership is lost: nothing armed so far may fire here. */
  cancelAll(): void {
    for (const cancel of [...this.armed]) cancel();
  }

  /** Timers armed and not yet fired or cancelled. */
  get pending(): number {
    return this.armed.size;
  }
}
