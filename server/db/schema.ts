// The database schema (SQLite through drizzle). Migrations are generated from this file by
// `npm run db:generate` into migrations/ and applied at startup. Times are epoch milliseconds.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { VARIANT_IDS } from '../../shared/index.js';
import type { GameAnalysis } from '../../contract/http.js';
import { CLOSED_REASONS, GAME_KINDS, GAME_STATES, OPERATOR_ACTIONS, RACE_STATES, REMATCH_ANSWERS, REPORT_REASONS, STORED_ANALYSIS_STATES } from '../../contract/vocabulary.js';
import { gameRowColumns } from './game-columns.js';

export const players = sqliteTable('players', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
  /** When an operator banned the identity (moderation.ts); null while it may play. */
  bannedAt: integer('banned_at'),
}, (table) => [
  // Pruning looks for old identities (pruning.ts).
  index('players_created').on(table.createdAt),
]);

/**
 * A device an identity is used on, with its own secret token (server/identities.ts). A device
 * signed out keeps its row (the list says when) but its token no longer names anyone.
 */
export const devices = sqliteTable('devices', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  playerId: integer('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
  /** SHA-256 of the secret token, hex; the token itself is never stored. */
  tokenHash: text('token_hash').notNull().unique(),
  /** What the device said it was (browser and system from its user agent), for the player's list. */
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
  /** Updated at most every few minutes (identities.ts), not on every request. */
  lastSeenAt: integer('last_seen_at').notNull(),
  signedOutAt: integer('signed_out_at'),
}, (table) => [index('devices_player').on(table.playerId)]);

/** A one-time device link: the SHA-256 of its code, whose identity it hands to another device until it expires. */
export const deviceLinks = sqliteTable('device_links', {
  codeHash: text('code_hash').primaryKey(),
  playerId: integer('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
  /** Set when claimed: a link works once. */
  usedAt: integer('used_at'),
}, (table) => [index('device_links_player').on(table.playerId)]);

/** A passkey (WebAuthn credential) that signs in as its identity. */
export const passkeys = sqliteTable('passkeys', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  playerId: integer('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
  /** The credential id, base64url, as the authenticator gave it. */
  credentialId: text('credential_id').notNull().unique(),
  /** The COSE public key, base64url. */
  publicKey: text('public_key').notNull(),
  /** The authenticator's signature counter at the last sign-in. */
  counter: integer('counter').notNull(),
  /** Transports the authenticator named (comma-separated), as hints for the next sign-in. */
  transports: text('transports').notNull(),
  /** A name for the player's list (the device it was made on). */
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
  lastUsedAt: integer('last_used_at'),
}, (table) => [index('passkeys_player').on(table.playerId)]);

/** A WebAuthn challenge handed out and not yet answered: used once, refused after `expiresAt`. */
export const passkeyChallenges = sqliteTable('passkey_challenges', {
  challenge: text('challenge').primaryKey(),
  /** `register` (the player adding a passkey) or `sign-in` (anyone). */
  purpose: text('purpose', { enum: ['register', 'sign-in'] }).notNull(),
  /** Who is adding a passkey; null for a sign-in. */
  playerId: integer('player_id').references(() => players.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
}, (table) => [
  // Deleting an identity (pruning) cascades here: found by index, not by a scan.
  index('passkey_challenges_player').on(table.playerId),
]);

export const races = sqliteTable('races', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  code: text('code').notNull().unique(),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  seats: integer('seats').notNull(),
  timeLimitSeconds: integer('time_limit_seconds'),
  /** Secret until the race is finished. */
  seed: text('seed').notNull(),
  state: text('state', { enum: RACE_STATES }).notNull(),
  creatorId: integer('creator_id').notNull().references(() => players.id),
  createdAt: integer('created_at').notNull(),
  startsAt: integer('starts_at'),
  finishedAt: integer('finished_at'),
  /** A lobby not started by then is closed (lifecycle.ts); stored so a restart keeps it. */
  lobbyClosesAt: integer('lobby_closes_at'),
  /** A race without a time limit still ends by then (the hard cap), set at the deal. */
  capAt: integer('cap_at'),
  /** Why a race is `closed` (cancelled by its creator, never started in time, everyone left). */
  closedReason: text('closed_reason', { enum: CLOSED_REASONS }),
  /** The race this one is a rematch of. */
  rematchOf: integer('rematch_of'),
  /** Shown in the public lobby ("open to anyone"); unlisted races are reached by their link only. */
  listed: integer('listed', { mode: 'boolean' }).notNull().default(false),
  /** Whether its result moves its racers' ratings (server/ratings/): its creator's choice, or a quick race. */
  rated: integer('rated', { mode: 'boolean' }).notNull().default(false),
}, (table) => [
  // Whether a player created a race (pruning), which deleting a player makes the database check too.
  index('races_creator').on(table.creatorId),
  // Races in one state (the lobbies, the countdowns, the live races' seats): what the timer owner reads at a takeover and every rescan.
  index('races_state').on(table.state),
]);

export const raceEntries = sqliteTable('race_entries', {
  raceId: integer('race_id').notNull().references(() => races.id),
  playerId: integer('player_id').notNull().references(() => players.id),
  /** 1-based seat, in join order. */
  seat: integer('seat').notNull(),
  joinedAt: integer('joined_at').notNull(),
  /** Final standing, set when the race finishes. */
  rank: integer('rank'),
  /** Since when the racer has had no open socket (null while connected): the grace period runs from here. */
  goneSince: integer('gone_since'),
  /** Their answer to this race's rematch, once asked. */
  rematch: text('rematch', { enum: REMATCH_ANSWERS }),
}, (table) => [
  primaryKey({ columns: [table.raceId, table.playerId] }),
  uniqueIndex('race_entries_seat').on(table.raceId, table.seat),
  // A player's seats (pruning, history): the primary key leads with the race.
  index('race_entries_player').on(table.playerId),
]);

/**
 * The quick-race pool: one row per waiting player (the key makes a second join, from another tab
 * or instance, the same entry). `race_id` is set when the pool seated them in a race.
 */
export const poolEntries = sqliteTable('pool_entries', {
  playerId: integer('player_id').primaryKey().references(() => players.id),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  /** Their rating in that variant when they joined (null: none yet, pairs with anyone). */
  rating: integer('rating'),
  joinedAt: integer('joined_at').notNull(),
  raceId: integer('race_id').references(() => races.id),
}, (table) => [
  // The waiting players of one variant, oldest first: what each pairing pass reads.
  index('pool_entries_variant').on(table.variant, table.joinedAt),
]);

/** A series: 100 deals in order, deal k dealt from a seed derived from its own (series.ts), for anyone who opens its link. */
export const series = sqliteTable('series', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  code: text('code').notNull().unique(),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  /** Secret, always: the deals' seeds come from it. */
  seed: text('seed').notNull(),
  creatorId: integer('creator_id').notNull().references(() => players.id),
  createdAt: integer('created_at').notNull(),
}, (table) => [
  // As races_creator.
  index('series_creator').on(table.creatorId),
]);

/**
 * One player's game. Its move log is game_deals + game_actions. Its counts (cards home, redeals,
 * moves) are written when it is dealt and when it ends; while it plays they are read from its log
 * (game-columns.ts), so that a move writes its log row alone.
 */
export const games = sqliteTable('games', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  kind: text('kind', { enum: GAME_KINDS }).notNull(),
  playerId: integer('player_id').notNull().references(() => players.id),
  raceId: integer('race_id').references(() => races.id),
  /** The UTC day (YYYY-MM-DD) of a daily game; null otherwise. */
  day: text('day'),
  /** The series of a series game, and which of its deals (1-100) it is; null otherwise. */
  seriesId: integer('series_id').references(() => series.id),
  seriesDeal: integer('series_deal'),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  /** Server-side only: redeals are dealt from it. */
  seed: text('seed').notNull(),
  status: text('status', { enum: GAME_STATES }).notNull(),
  foundations: integer('foundations').notNull(),
  redealsUsed: integer('redeals_used').notNull().default(0),
  moves: integer('moves').notNull().default(0),
  startedAt: integer('started_at').notNull(),
  /** When the game stops by itself (a race's time limit, a daily attempt's end of day), or null. */
  deadline: integer('deadline'),
  finishedAt: integer('finished_at'),
  /** Set when the game ends: its result as one number, smaller is better (standings.ts `rankKey` of cards home and elapsed time). */
  rankKey: integer('rank_key'),
  /** A ghost race's: the finished game it races against (server/ghosts.ts); null for other kinds. */
  ghostOf: integer('ghost_of').references((): AnySQLiteColumn => games.id),
  /**
   * A ghost race's redeal stream: the attempt (a daily or series game id) whose stream the raced
   * game redealt from, so the same cards deal the same layouts; null: the seed's own (a race's).
   */
  redealFrom: integer('redeal_from'),
  /** A banned player's daily result, kept here while its rank_key is null (off the board and its tallies) and put back when the ban is lifted. */
  unlistedRankKey: integer('unlisted_rank_key'),
}, (table) => [
  uniqueIndex('games_race_player').on(table.raceId, table.playerId),
  // One daily game per player and day (day is null, hence never equal, for other kinds).
  uniqueIndex('games_player_day').on(table.playerId, table.day),
  // One game per player and deal of a series, in deal order: a player's progress, and everyone's results in a series.
  uniqueIndex('games_series_player_deal').on(table.seriesId, table.playerId, table.seriesDeal),
  index('games_playing').on(table.status).where(sql`${table.status} = 'playing'`),
  // A day's leaderboard in rank order (unfinished attempts, rank_key null, sort first); rowid breaks ties.
  index('games_daily_board').on(table.day, table.rankKey).where(sql`${table.day} is not null`),
  // A player's history, newest first (the index carries the rowid).
  index('games_player').on(table.playerId),
]);

/**
 * How many attempts of a day finished with each number of cards home, kept by triggers on
 * `games` (migrations/0002): a rank is the finishers with more cards plus a short index count
 * among those with as many, never a count over the whole day.
 */
export const dailyTallies = sqliteTable('daily_tallies', {
  day: text('day').notNull(),
  foundations: integer('foundations').notNull(),
  finished: integer('finished').notNull(),
}, (table) => [primaryKey({ columns: [table.day, table.foundations] })]);

/** Server secrets made on first start (the daily seeds' HMAC key), by name. */
export const secrets = sqliteTable('secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Every layout dealt to a game: k = 0 is the first, k the k-th redeal. */
export const gameDeals = sqliteTable('game_deals', {
  gameId: integer('game_id').notNull().references(() => games.id),
  k: integer('k').notNull(),
  /** JSON array of fan strings (makeLayout). */
  layout: text('layout', { mode: 'json' }).$type<string[]>().notNull(),
}, (table) => [primaryKey({ columns: [table.gameId, table.k] })]);

/**
 * The move log: action `index` (0-based) of a game, in record notation, and when it was applied.
 * A WITHOUT ROWID table since migration 0004 (drizzle cannot say so here): one B-tree, one page per move.
 */
export const gameActions = sqliteTable('game_actions', {
  gameId: integer('game_id').notNull().references(() => games.id),
  index: integer('action_index').notNull(),
  action: text('action').notNull(),
  at: integer('at').notNull(),
  /** Cards on the foundations after this action; null in rows stored before migration 0009. */
  foundations: integer('foundations'),
}, (table) => [primaryKey({ columns: [table.gameId, table.index] })]);

/** A game's row as players see it now: a playing game's counts come from its log (game-columns.ts). */
export const currentGameRow = gameRowColumns(games, gameActions, gameDeals);

/**
 * A game's analysis (server/analyses.ts), written by the background solver once the game's seed
 * is public; a game without a row is still pending.
 */
export const gameAnalyses = sqliteTable('game_analyses', {
  gameId: integer('game_id').primaryKey().references(() => games.id),
  status: text('status', { enum: STORED_ANALYSIS_STATES }).notNull(),
  /** The solver's findings (contract GameAnalysis) when done. */
  analysis: text('analysis', { mode: 'json' }).$type<GameAnalysis>(),
  /** Why it is unavailable. */
  reason: text('reason'),
  createdAt: integer('created_at').notNull(),
});

/** A player's rating in one variant (server/ratings/): OpenSkill's mean and uncertainty, after `games` rated races. */
export const ratings = sqliteTable('ratings', {
  playerId: integer('player_id').notNull().references(() => players.id),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  mu: real('mu').notNull(),
  sigma: real('sigma').notNull(),
  games: integer('games').notNull(),
  /** When the last rated race moved it: the leaderboard shows the players active lately. */
  updatedAt: integer('updated_at').notNull(),
}, (table) => [
  primaryKey({ columns: [table.playerId, table.variant] }),
  // The leaderboard of a variant, best first.
  index('ratings_board').on(table.variant, table.mu),
]);

/** A rated race whose ratings are applied: written in the ratings' transaction, so a race moves them once. */
export const ratedRaces = sqliteTable('rated_races', {
  raceId: integer('race_id').primaryKey().references(() => races.id),
  appliedAt: integer('applied_at').notNull(),
});

/** Each racer's rating before and after a rated race: the rating chart and the standings' "+14". */
export const ratingChanges = sqliteTable('rating_changes', {
  raceId: integer('race_id').notNull().references(() => races.id),
  playerId: integer('player_id').notNull().references(() => players.id),
  variant: text('variant', { enum: VARIANT_IDS }).notNull(),
  muBefore: real('mu_before').notNull(),
  sigmaBefore: real('sigma_before').notNull(),
  muAfter: real('mu_after').notNull(),
  sigmaAfter: real('sigma_after').notNull(),
  /** When the race finished. */
  at: integer('at').notNull(),
}, (table) => [
  primaryKey({ columns: [table.raceId, table.playerId] }),
  // A player's history in order (the chart).
  index('rating_changes_player').on(table.playerId, table.at),
]);
/** A player's report of another's name or conduct (moderation.ts): one per reporter and target. */
export const reports = sqliteTable('reports', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Not a foreign key: pruning may delete a reporter who never played; the report stays. */
  reporterId: integer('reporter_id').notNull(),
  targetId: integer('target_id').notNull().references(() => players.id),
  reason: text('reason', { enum: REPORT_REASONS }).notNull(),
  createdAt: integer('created_at').notNull(),
  /** When an operator acted on the target or dismissed its reports; null while open. */
  resolvedAt: integer('resolved_at'),
}, (table) => [
  uniqueIndex('reports_reporter_target').on(table.reporterId, table.targetId),
  // Open reports by target (the operator page), and a reporter's recent reports (the rate limit).
  index('reports_target').on(table.targetId, table.resolvedAt),
  index('reports_reporter_created').on(table.reporterId, table.createdAt),
]);

/** Every operator action: who (the name the operator gave), what, on whom, when. */
export const operatorActions = sqliteTable('operator_actions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  operator: text('operator').notNull(),
  action: text('action', { enum: OPERATOR_ACTIONS }).notNull(),
  targetId: integer('target_id').notNull(),
  /** The action's particulars (the old and new name), as JSON. */
  detail: text('detail', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  at: integer('at').notNull(),
});

/**
 * A game's fair-play figures (fair-play.ts), stored with its analysis: how many of its moves kept
 * the deal's best reachable count, and its move times.
 */
export const gameFairPlay = sqliteTable('game_fair_play', {
  gameId: integer('game_id').primaryKey().references(() => games.id),
  playerId: integer('player_id').notNull(),
  /** Moves the analysis could judge (exact before and after, within one deal), and of those the ones that kept the best count. */
  judged: integer('judged').notNull(),
  kept: integer('kept').notNull(),
  /** Median and median absolute deviation of the times between moves, ms; null under two moves. */
  medianMs: integer('median_ms'),
  spreadMs: integer('spread_ms'),
  createdAt: integer('created_at').notNull(),
}, (table) => [index('game_fair_play_player').on(table.playerId)]);
