/**
 * Moderation and fair play over HTTP: a player's report, the operator's routes (behind
 * `Authorization: Bearer ADMIN_TOKEN`) and the fair-play figures the analyses give a game and a
 * player. See server/moderation.ts and server/fair-play.ts for the rules.
 */
import { z } from 'zod';
import { OPERATOR_ACTIONS, REPORT_REASONS } from './vocabulary.js';

/** `POST /api/players/:id/report`: what the report is about. */
export const reportBody = z.strictObject({ reason: z.enum(REPORT_REASONS) });
export type ReportBody = z.input<typeof reportBody>;
export const reportAnswer = z.object({
  report: z.object({ id: z.number().int(), targetId: z.number().int(), reason: z.enum(REPORT_REASONS), createdAt: z.number() }),
});

/** Who acts, as the operator names themselves: kept in the log of operator actions. */
export const operatorName = z.string().trim().min(1, 'operator: give your name (1-40 characters)').max(40, 'operator: give your name (1-40 characters)');
/** The body of an operator action that takes nothing else (hide a name, ban, lift a ban, dismiss reports). */
export const operatorBody = z.strictObject({ operator: operatorName });
export type OperatorBody = z.input<typeof operatorBody>;

/** A player as the operator sees them: with their ban. */
export const moderatedPlayer = z.object({ id: z.number().int(), name: z.string(), bannedAt: z.number().nullable() });
/** One logged operator action. */
export const operatorActionView = z.object({
  id: z.number().int(),
  operator: z.string(),
  action: z.enum(OPERATOR_ACTIONS),
  targetId: z.number().int(),
  /** The action's particulars: `from` and `to` of a rename. */
  detail: z.record(z.string(), z.string()),
  at: z.number(),
});
export const moderationAnswer = z.object({ player: moderatedPlayer, action: operatorActionView });

/** The open reports of one player, counted by reason. */
export const openReports = z.object({
  target: moderatedPlayer,
  name: z.number().int(),
  player: z.number().int(),
  firstAt: z.number(),
  lastAt: z.number(),
});

/** A game's fair-play figures, from its analysis. */
export const fairPlayFigures = z.object({
  /** Moves the analysis could judge (its counts exact before and after, within one deal), and those that kept the deal's best reachable count. */
  judged: z.number().int(),
  kept: z.number().int(),
  /** kept / judged, 0-1; null when no move could be judged. */
  accuracy: z.number().nullable(),
  /** Median time between moves and its median absolute deviation, ms; null under two moves. */
  medianMs: z.number().int().nullable(),
  spreadMs: z.number().int().nullable(),
});
export type FairPlayFigures = z.infer<typeof fairPlayFigures>;

/** A player's fair play over their analysed games (their stats). */
export const playerFairPlay = z.object({
  games: z.number().int(),
  /** Mean accuracy over the games with a judged move; null without one. */
  accuracy: z.number().nullable(),
  /** Mean of the games' median move times, ms; null without one. */
  medianMs: z.number().nullable(),
});
export type PlayerFairPlay = z.infer<typeof playerFairPlay>;

/** A player whose games sit in the tail the fair-play rule describes (server/fair-play.ts). */
export const fairPlayOutlier = playerFairPlay.extend({
  player: moderatedPlayer,
  /** Mean of the games' spread / median: how regular their move times are. */
  relativeSpread: z.number().nullable(),
});

/** `GET /api/operator`: what the operator page shows. */
export const operatorOverviewAnswer = z.object({
  /** Open reports by target, most reported first. */
  reports: z.array(openReports),
  /** Players in the fair-play tail, most accurate first; nothing is done to them automatically. */
  outliers: z.array(fairPlayOutlier),
  /** The fair-play rule the outliers meet. */
  rule: z.object({ minGames: z.number().int(), minAccuracy: z.number(), maxMedianMs: z.number(), maxRelativeSpread: z.number() }),
  banned: z.array(moderatedPlayer),
  /** The latest operator actions, newest first. */
  actions: z.array(operatorActionView),
});

export type ReportAnswer = z.infer<typeof reportAnswer>;
export type ModeratedPlayer = z.infer<typeof moderatedPlayer>;
export type OperatorActionView = z.infer<typeof operatorActionView>;
export type ModerationAnswer = z.infer<typeof moderationAnswer>;
export type OpenReports = z.infer<typeof openReports>;
export type FairPlayOutlier = z.infer<typeof fairPlayOutlier>;
export type OperatorOverviewAnswer = z.infer<typeof operatorOverviewAnswer>;
