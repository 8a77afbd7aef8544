/** Ratings (ratings/): each player's OpenSkill rating per variant, the rated races applied, each racer's change. Part of the storage seam (../stores.ts). */
import type { VariantId } from '../../shared/index.js';
import type { Pending } from '../ports.js';

/** A player's rating in one variant: OpenSkill's mu and sigma (ratings/model.ts). Times are epoch milliseconds. */
export interface RatingRow {
  readonly playerId: number;
  readonly variant: VariantId;
  readonly mu: number;
  readonly sigma: number;
  /** Rated races it counts. */
  readonly games: number;
  /** When the last of them finished. */
  readonly updatedAt: number;
}

/** A racer's rating before and after one rated race. */
export interface RatingChangeRow {
  readonly raceId: number;
  readonly playerId: number;
  readonly variant: VariantId;
  readonly muBefore: number;
  readonly sigmaBefore: number;
  readonly muAfter: number;
  readonly sigmaAfter: number;
  /** When the race finished. */
  readonly at: number;
}

/** A ranked racer of a rated race, with their rating before it (undefined: never rated in the variant). */
export interface RankedRacer {
  readonly playerId: number;
  readonly rank: number;
  readonly before: RatingRow | undefined;
}

/** A racer's rating before and after a race, as the model moved it. */
export interface RatingStep {
  readonly before: { readonly mu: number; readonly sigma: number };
  readonly after: { readonly mu: number; readonly sigma: number };
}

export interface RatingStore {
  /** A player's ratings, one per variant they were rated in. */
  ofPlayer(playerId: number): Pending<RatingRow[]>;
  /** Finished rated races whose ratings are not applied yet, the earliest finished first. */
  unapplied(): Pending<{ id: number; finishedAt: number }[]>;
  /**
   * Applies a finished rated race's ratings, once: in one transaction, marks the race applied and
   * stores each ranked racer's rating and change as `rate` answers them (in the order given; `before`
   * is the rating a newcomer starts from). False, and nothing changed, when the race was applied
   * already or is not a finished rated race.
   */
  apply(raceId: number, appliedAt: number, rate: (racers: readonly RankedRacer[]) => readonly RatingStep[]): Pending<boolean>;
  /** The changes a race made, in seat order. */
  changesOfRace(raceId: number): Pending<RatingChangeRow[]>;
  /** A player's changes with their race's code, oldest first. */
  changesOfPlayer(playerId: number): Pending<(RatingChangeRow & { code: string })[]>;
  /** A variant's ratings of sigma at most `maxSigma` last moved at `activeSince` or later, best mu first, with the players' names. */
  board(variant: VariantId, activeSince: number, maxSigma: number, limit: number): Pending<(RatingRow & { name: string })[]>;
  /** The ranked racers of every applied race of a variant, race by race in finishing order (to recompute the variant). */
  appliedRaces(variant: VariantId): Pending<{ raceId: number; finishedAt: number; playerId: number; rank: number }[]>;
  /**
   * The variants of the applied rated races a player was ranked in, whether their changes stand
   * or were taken out by a recomputation without them (a ban): what to recompute when they are banned or let back.
   */
  variantsRacedBy(playerId: number): Pending<VariantId[]>;
  /** Replaces every rating and change of a variant by those given, in one transaction. */
  replace(variant: VariantId, ratings: readonly RatingRow[], changes: readonly RatingChangeRow[]): Pending<void>;
}
