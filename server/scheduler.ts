/**
 * The seam between the services and time. Every deadline the server acts on is stored (a race's
 * countdown, a lobby's limit, a racer's grace period, a game's time limit, the end of a day), so
 * a timer is only a way to act on it in time. A service names each kind of deadline it keeps,
 * says where they are stored and what to do when one is due; the scheduler arms them, and
 * decides where they run: alone, here; beside other instances, on the one that holds the timer
 * lease, which arms them all from the store when it takes over (scale/scheduler.ts,
 * plugins/scheduler.ts). A handler acts by a conditional write of the stored state, so a
 * deadline fired twice (two owners overlapping for a moment) changes things once.
 */
import type { Pending } from './ports.js';

/** One deadline: a subject of its kind (a race id, `raceId:playerId`, a game id, a day) and when it is due. */
export interface StoredDeadline {
  readonly key: string;
  readonly at: number;
}

export interface DeadlineHandler {
  /**
   * The deadline `key` is due (planned for `at`): read the subject afresh and act if it still
   * applies. While this runs the deadline stays armed (a rescan leaves it alone); a failure the
   * storage may cure is tried again a moment later.
   */
  due(key: string, at: number): Pending<void>;
  /** Every deadline of this kind stored now, read on taking the timers over and at each rescan. */
  stored(): Pending<readonly StoredDeadline[]>;
}

export interface Scheduler {
  /** The handler of one kind of deadline. */
  handle(kind: string, handler: DeadlineHandler): void;
  /** Runs on taking the timers over (alone: at start), before the stored deadlines are armed. */
  onTakeover(work: () => Pending<void>): void;
  /** A deadline this instance just stored: armed wherever the timers run. */
  stored(kind: string, key: string, at: number): void;
  /** A deadline read here (a game loaded): armed if this instance runs the timers. */
  arm(kind: string, key: string, at: number): void;
  cancel(kind: string, key: string): void;
  /** Whether this instance runs the timers now (acts on a presence change, say). */
  readonly runsTimers: boolean;
}
