/** Ghost races (ghosts.ts): what they read of the games they race again. Part of the storage seam (../stores.ts). */
import type { VariantId } from '../../shared/index.js';
import type { Pending } from '../ports.js';

/** A finished game a ghost race may be run against. */
export interface GhostCandidate {
  readonly id: number;
  /** Its result as one number, smaller is better (standings.ts). */
  readonly rankKey: number;
}

/** What ghost races read (ghosts.ts). */
export interface GhostStore {
  /** When each action of a game was stored, in action order. */
  actionTimes(gameId: number): Pending<number[]>;
  /** The ghost race `playerId` is playing, if any. */
  playing(playerId: number): Pending<{ id: number; ghostOf: number } | undefined>;
  /**
   * The newest `limit` ended games of `variant` by others than `playerId` whose seed is public
   * on `today` (a finished race's seat, a daily attempt of an earlier day), newest first.
   */
  candidates(variant: VariantId, playerId: number, today: string, limit: number): Pending<GhostCandidate[]>;
}
