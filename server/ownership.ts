/**
 * Who runs the timers: countdowns and deals, game deadlines (time limits, hard caps, the end of
 * a daily's day), grace periods, lobby limits, the analyses' day close and pruning rounds. One
 * instance alone is always their owner; with several (REDIS_URL) the holder of a Redis lease is
 * (plugins/timers.ts). Every timer acts on a stored deadline or state, and firing is a
 * conditional update of that state, so the owner can change at any moment: a new owner derives
 * every timer again from the store, a stale one cannot make a change twice.
 */
import type { Clock } from './clock.js';

/** What a timer acts on: the owner reads it again from the store and arms (or cancels) its timers. */
export type TimerSubject = { readonly raceId: number } | { readonly gameId: number };

export interface TimerOwner {
  /** The clock of owned timers: they are armed only while this instance is the owner, and all cancelled when it stops being it. */
  readonly clock: Clock;
  /** Whether this instance runs the timers now. */
  readonly isOwner: boolean;
  /** Whether other instances share the store: a copy in memory may be behind, so a timer reads its game afresh before acting. */
  readonly shared: boolean;
  /** Stored state that needs a timer changed here: when another instance is the owner, it is told to read it again. */
  changed(subject: TimerSubject): void;
}

/** A single instance: it owns every timer, and nobody else needs telling. */
export const soleOwner = (clock: Clock): TimerOwner => ({ clock, isOwner: true, shared: false, changed() {} });

/**
 * Forgets a timer once its work is done (stored), unless it was armed again meanwhile. A timer
 * stays in its table while it acts, so a rescan round then finds it and does not start it again.
 */
export function releaseTimer<K>(timers: Map<K, () => void>, id: K, timer: () => void): void {
  if (timers.get(id) === timer) timers.delete(id);
}
