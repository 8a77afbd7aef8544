import type { Clock } from './clock.js';

/** Each window is cut into this many slots; a topic is sent in its own slot, once a window. */
const SLOTS = 10;

/**
 * Sends changes per topic (a race) at most once every `intervalMs`, all of the topic's changed
 * items (racers) together, each at its latest value. Topics are spread over the window's slots
 * by name, and one timer, ticking slot by slot while anything waits, sends each slot's topics:
 * so every watcher gets at most one send per window per topic, and the writes of thousands of
 * races fall evenly over the window instead of all at once (a burst that would hold up every
 * ack behind it), with one timer however many races there are. `intervalMs` 0 sends every
 * change at once.
 */
export class Coalescer<V> {
  /** Per topic, what changed since its last send: the latest value per item. */
  private readonly pending = new Map<string, Map<number, V>>();
  /** The topics waiting, by slot. */
  private readonly slots: Set<string>[] = Array.from({ length: SLOTS }, () => new Set());
  private readonly slotMs: number;
  /** The last slot sent (in slots since the epoch). */
  private lastSlot = 0;
  private cancelTick: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly send: (topic: string, values: V[]) => void,
  ) {
    this.slotMs = intervalMs / SLOTS;
  }

  /** A change that can wait: sent in its topic's next slot, with the topic's other changes. */
  change(topic: string, id: number, value: V): void {
    if (this.intervalMs <= 0 || this.closed) return this.send(topic, [value]);
    const waiting = this.pending.get(topic);
    if (waiting) return void waiting.set(id, value);
    this.pending.set(topic, new Map([[id, value]]));
    this.slots[slotOf(topic)]!.add(topic);
    this.arm();
  }

  /** A change that cannot wait: sent now, after the latest of every change still waiting in its topic (in the same send). */
  urgent(topic: string, id: number, value: V): void {
    const waiting = this.take(topic);
    waiting?.delete(id);
    this.send(topic, waiting ? [...waiting.values(), value] : [value]);
  }

  /** Sends what is waiting in `topic` now (before a message that must not overtake it). */
  flush(topic: string): void {
    const waiting = this.take(topic);
    if (waiting) this.send(topic, [...waiting.values()]);
  }

  /** Shutdown: sends what is waiting and stops the timer; later changes go at once. */
  close(): void {
    this.closed = true;
    this.cancelTick?.();
    this.cancelTick = undefined;
    for (const topic of [...this.pending.keys()]) this.flush(topic);
  }

  private take(topic: string): Map<number, V> | undefined {
    const waiting = this.pending.get(topic);
    if (!waiting) return undefined;
    this.pending.delete(topic);
    this.slots[slotOf(topic)]!.delete(topic);
    return waiting;
  }

  /** The timer runs only while something waits: an idle server keeps none. */
  private arm(): void {
    if (this.cancelTick) return;
    const now = this.clock.now();
    if (this.pending.size === 1) this.lastSlot = Math.floor(now / this.slotMs);
    this.cancelTick = this.clock.setTimer((this.lastSlot + 1) * this.slotMs - now, () => this.tick());
  }

  /** Sends the slots whose time has come (several if the timer fired late), then waits for the next. */
  private tick(): void {
    this.cancelTick = undefined;
    const now = Math.floor(this.clock.now() / this.slotMs);
    for (let slot = this.lastSlot + 1; slot <= now && slot <= this.lastSlot + SLOTS; slot++) {
      for (const topic of [...this.slots[slot % SLOTS]!]) this.flush(topic);
    }
    this.lastSlot = now;
    if (this.pending.size > 0) this.arm();
  }
}

/** A topic's slot, from its name (race codes are random, so races spread evenly). */
function slotOf(topic: string): number {
  let hash = 0;
  for (let i = 0; i < topic.length; i++) hash = (hash * 31 + topic.charCodeAt(i)) | 0;
  return (hash >>> 0) % SLOTS;
}
