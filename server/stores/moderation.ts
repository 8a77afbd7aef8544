/** Moderation and fair play (moderation.ts, fair-play.ts): reports, operator actions, each game's fair-play figures. Part of the storage seam (../stores.ts). */
import type { ModeratedPlayer, OpenReports, OperatorActionView, PlayerFairPlay, ReportReason } from '../../contract/index.js';
import type { Pending } from '../ports.js';

/** A player's report of another (moderation.ts). */
export interface ReportRow {
  readonly id: number;
  readonly reporterId: number;
  readonly targetId: number;
  readonly reason: ReportReason;
  readonly createdAt: number;
}

/** What an operator action changes of its target, stored with its log row in one transaction. */
export type PlayerChange =
  | { readonly kind: 'rename'; readonly name: string }
  | { readonly kind: 'ban'; readonly at: number }
  | { readonly kind: 'unban' }
  | { readonly kind: 'dismiss-reports' };

export interface ModerationStore {
  player(id: number): Pending<ModeratedPlayer | undefined>;
  /** Stores a report; a second by the same reporter on the same target fails as a duplicate. */
  report(row: Omit<ReportRow, 'id'>): Pending<ReportRow>;
  /** Reports filed by `reporterId` at `since` or later (the rate limit). */
  reportsSince(reporterId: number, since: number): Pending<number>;
  /** Open reports by target, most reported first. */
  openReports(limit: number): Pending<OpenReports[]>;
  banned(): Pending<ModeratedPlayer[]>;
  /** The latest logged actions, newest first. */
  actions(limit: number): Pending<OperatorActionView[]>;
  /**
   * Applies `change` to the player and logs the action, in one transaction; every change but a
   * lifted ban also closes the target's open reports. A ban takes the player's daily results off
   * the boards (their rank keys kept aside), a lifted ban puts them back.
   */
  apply(action: Omit<OperatorActionView, 'id'>, change: PlayerChange): Pending<OperatorActionView>;
  /** Takes an ended daily game off the board if its player is banned (a game that ended after the ban). */
  unlistIfBanned(gameId: number): Pending<void>;
}

/** A game's stored fair-play figures (fair-play.ts). */
export interface FairPlayRow {
  readonly gameId: number;
  readonly playerId: number;
  readonly judged: number;
  readonly kept: number;
  readonly medianMs: number | null;
  readonly spreadMs: number | null;
  readonly createdAt: number;
}

/** Which players the operator page lists as fair-play outliers: all four must hold (fair-play.ts). */
export interface OutlierRule {
  readonly minGames: number;
  readonly minAccuracy: number;
  readonly maxMedianMs: number;
  readonly maxRelativeSpread: number;
}

/** A player's figures over their analysed rated race games, for the outlier list. */
export interface OutlierRow extends PlayerFairPlay {
  readonly player: ModeratedPlayer;
  readonly relativeSpread: number | null;
}

export interface FairPlayStore {
  /** When each of a game's actions was stored, in order. */
  moveTimes(gameId: number): Pending<number[]>;
  /** Stores a game's figures; figures stored already (by another instance) stay. */
  store(row: FairPlayRow): Pending<void>;
  byGame(gameId: number): Pending<FairPlayRow | undefined>;
  ofPlayer(playerId: number): Pending<PlayerFairPlay>;
  /** Players whose analysed rated race games meet `rule`, most accurate first, at most `limit`. */
  outliers(rule: OutlierRule, limit: number): Pending<OutlierRow[]>;
}
