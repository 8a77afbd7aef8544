import type { Clock } from './clock.js';

/** A quiet window after a send: changes made in it wait for its end, latest value only. */
interface Window<V> {
  readonly pending: Map<number, V>;
  cancel: () => void;
}

/**
 * Sends changes per topic (a race) at most once every `intervalMs`, keeping only the latest
 * value per item (a racer). The first change after a quiet spell goes at once and opens a window;
 * changes within the window are merged and sent when it ends, which opens the next one. Each
 * send writes to every watcher's socket, so a busy race costs one round of writes per window
 * instead of one per move. `intervalMs` 0 sends every change at once.
 */
export class Coalescer<V> {
  private readonly windows = new Map<string, Window<V>>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly send: (topic: string, values: V[]) => void,
  ) {}

  /** A change that can wait: sent now if the topic is quiet, else at the end of its window. */
  change(topic: string, id: number, value: V): void {
    const window = this.windows.get(topic);
    if (window) {
      window.pending.set(id, value);
      return;
    }
    this.send(topic, [value]);
    this.open(topic);
  }

  /** A change that cannot wait: sent now, after the latest of every change still waiting in its topic. */
  urgent(topic: string, id: number, value: V): void {
    const pending = this.windows.get(topic)?.pending;
    pending?.delete(id);
    const values = pending ? [...pending.values(), value] : [value];
    pending?.clear();
    this.send(topic, values);
  }

  /** Sends what is waiting in `topic` now (before a message that must not overtake it). */
  flush(topic: string): void {
    const pending = this.windows.get(topic)?.pending;
    if (!pending || pending.size === 0) return;
    const values = [...pending.values()];
    pending.clear();
    this.send(topic, values);
  }

  /** Shutdown: sends what is waiting and stops every timer; later changes go at once. */
  close(): void {
    this.closed = true;
    for (const [topic, window] of this.windows) {
      window.cancel();
      this.flush(topic);
    }
    this.windows.clear();
  }

  private open(topic: string): void {
    if (this.intervalMs <= 0 || this.closed) return;
    const window: Window<V> = { pending: new Map(), cancel: () => {} };
    window.cancel = this.clock.setTimer(this.intervalMs, () => {
      this.windows.delete(topic);
      if (window.pending.size === 0) return;
      this.send(topic, [...window.pending.values()]);
      this.open(topic);
    });
    this.windows.set(topic, window);
  }
}
