// The database's tables, described once for both dialects: SQLite (schema.ts, the default) and
// PostgreSQL (pg/schema.ts, when DATABASE_URL is set) each pass their column builders in a Kit.
// Migrations are generated from those two files by `npm run db:generate` into migrations/ and
// `npm run db:generate:pg` into migrations/pg/, and applied at startup. Times are epoch
// milliseconds, 64-bit in both (`long`), read as JavaScript numbers (exact below 2^53), and so
// are rank keys (standings.ts).
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { VARIANT_IDS } from '../../shared/index.js';
import type { GameAnalysis } from '../../contract/http.js';
import { CLOSED_REASONS, GAME_KINDS, GAME_STATES, OPERATOR_ACTIONS, RACE_STATES, REMATCH_ANSWERS, REPORT_REASONS, STORED_ANALYSIS_STATES } from '../../contract/vocabulary.js';
import { gameRowColumns } from './game-columns.js';

/**
 * SQLite's builders, which type the tables for both dialects: the stores' queries are written
 * once against these types (sql.ts), and PostgreSQL's kit builds the same columns with its own.
 */
export const sqliteKit = {
  kind: 'sqlite' as 'sqlite' | 'postgres',
  table: sqliteTable,
  index,
  uniqueIndex,
  primaryKey,
  text,
  int: (name: string) => integer(name),
  /** An epoch time in milliseconds, or another number that may pass 2^31 (SQLite's integers are all 64-bit). */
  long: (name: string) => integer(name),
  id: (name: string) => integer(name).primaryKey({ autoIncrement: true }),
  flag: (name: string) => integer(name, { mode: 'boolean' }),
  float: (name: string) => real(name),
  json: (name: string) => text(name, { mode: 'json' }),
};
export type Kit = typeof sqliteKit;

/** Every table, index and key, built with `kit`'s builders. */
export function defineTables(kit: Kit) {
  // These shadow SQLite's imports above on purpose: a table is built with its dialect's builders only.
  const { table, index, uniqueIndex, primaryKey, text, int, long, id, flag, float, json } = kit;

  const players = table('players', {
    id: id('id'),
    name: text('name').notNull(),
    createdAt: long('created_at').notNull(),
    /** When an operator banned the identity (moderation.ts); null while it may play. */
    bannedAt: long('banned_at'),
  }, (columns) => [
    // Pruning looks for old identities (pruning.ts).
    index('players_created').on(columns.createdAt),
  ]);

  /**
   * A device an identity is used on, with its own secret token (server/identities.ts). A device
   * signed out keeps its row (the list says when) but its token no longer names anyone.
   */
  const devices = table('devices', {
    id: id('id'),
    playerId: int('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
    /** SHA-256 of the secret token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    /** What the device said it was (browser and system from its user agent), for the player's list. */
    name: text('name').notNull(),
    createdAt: long('created_at').notNull(),
    /** Updated at most every few minutes (identities.ts), not on every request. */
    lastSeenAt: long('last_seen_at').notNull(),
    signedOutAt: long('signed_out_at'),
  }, (columns) => [index('devices_player').on(columns.playerId)]);

  /** A one-time device link: the SHA-256 of its code, whose identity it hands to another device until it expires. */
  const deviceLinks = table('device_links', {
    codeHash: text('code_hash').primaryKey(),
    playerId: int('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
    expiresAt: long('expires_at').notNull(),
    /** Set when claimed: a link works once. */
    usedAt: long('used_at'),
  }, (columns) => [index('device_links_player').on(columns.playerId)]);

  /** A passkey (WebAuthn credential) that signs in as its identity. */
  const passkeys = table('passkeys', {
    id: id('id'),
    playerId: int('player_id').notNull().references(() => players.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator gave it. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter at the last sign-in. */
    counter: long('counter').notNull(),
    /** Transports the authenticator named (comma-separated), as hints for the next sign-in. */
    transports: text('transports').notNull(),
    /** A name for the player's list (the device it was made on). */
    name: text('name').notNull(),
    createdAt: long('created_at').notNull(),
    lastUsedAt: long('last_used_at'),
  }, (columns) => [index('passkeys_player').on(columns.playerId)]);

  /** A WebAuthn challenge handed out and not yet answered: used once, refused after `expiresAt`. */
  const passkeyChallenges = table('passkey_challenges', {
    challenge: text('challenge').primaryKey(),
    /** `register` (the player adding a passkey) or `sign-in` (anyone). */
    purpose: text('purpose', { enum: ['register', 'sign-in'] }).notNull(),
    /** Who is adding a passkey; null for a sign-in. */
    playerId: int('player_id').references(() => players.id, { onDelete: 'cascade' }),
    expiresAt: long('expires_at').notNull(),
  }, (columns) => [
    // Deleting an identity (pruning) cascades here: found by index, not by a scan.
    index('passkey_challenges_player').on(columns.playerId),
  ]);

  const races = table('races', {
    id: id('id'),
    code: text('code').notNull().unique(),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    seats: int('seats').notNull(),
    timeLimitSeconds: int('time_limit_seconds'),
    /** Secret until the race is finished. */
    seed: text('seed').notNull(),
    state: text('state', { enum: RACE_STATES }).notNull(),
    creatorId: int('creator_id').notNull().references(() => players.id),
    createdAt: long('created_at').notNull(),
    startsAt: long('starts_at'),
    finishedAt: long('finished_at'),
    /** A lobby not started by then is closed (lifecycle.ts); stored so a restart keeps it. */
    lobbyClosesAt: long('lobby_closes_at'),
    /** A race without a time limit still ends by then (the hard cap), set at the deal. */
    capAt: long('cap_at'),
    /** Why a race is `closed` (cancelled by its creator, never started in time, everyone left). */
    closedReason: text('closed_reason', { enum: CLOSED_REASONS }),
    /** The race this one is a rematch of. */
    rematchOf: int('rematch_of'),
    /** Shown in the public lobby ("open to anyone"); unlisted races are reached by their link only. */
    listed: flag('listed').notNull().default(false),
    /** Whether its result moves its racers' ratings (server/ratings/): its creator's choice, or a quick race. */
    rated: flag('rated').notNull().default(false),
  }, (columns) => [
    // Whether a player created a race (pruning), which deleting a player makes the database check too.
    index('races_creator').on(columns.creatorId),
    // Races in one state (the lobbies, the countdowns, the live races' seats): what the timer owner reads at a takeover and every rescan.
    index('races_state').on(columns.state),
  ]);

  const raceEntries = table('race_entries', {
    raceId: int('race_id').notNull().references(() => races.id),
    playerId: int('player_id').notNull().references(() => players.id),
    /** 1-based seat, in join order. */
    seat: int('seat').notNull(),
    joinedAt: long('joined_at').notNull(),
    /** Final standing, set when the race finishes. */
    rank: int('rank'),
    /** Since when the racer has had no open socket (null while connected): the grace period runs from here. */
    goneSince: long('gone_since'),
    /** Their answer to this race's rematch, once asked. */
    rematch: text('rematch', { enum: REMATCH_ANSWERS }),
  }, (columns) => [
    primaryKey({ columns: [columns.raceId, columns.playerId] }),
    uniqueIndex('race_entries_seat').on(columns.raceId, columns.seat),
    // A player's seats (pruning, history): the primary key leads with the race.
    index('race_entries_player').on(columns.playerId),
  ]);

  /**
   * The quick-race pool: one row per waiting player (the key makes a second join, from another tab
   * or instance, the same entry). `race_id` is set when the pool seated them in a race.
   */
  const poolEntries = table('pool_entries', {
    playerId: int('player_id').primaryKey().references(() => players.id),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    /** Their rating in that variant when they joined (null: none yet, pairs with anyone). */
    rating: int('rating'),
    joinedAt: long('joined_at').notNull(),
    raceId: int('race_id').references(() => races.id),
  }, (columns) => [
    // The waiting players of one variant, oldest first: what each pairing pass reads.
    index('pool_entries_variant').on(columns.variant, columns.joinedAt),
  ]);

  /** A series: 100 deals in order, deal k dealt from a seed derived from its own (series.ts), for anyone who opens its link. */
  const series = table('series', {
    id: id('id'),
    code: text('code').notNull().unique(),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    /** Secret, always: the deals' seeds come from it. */
    seed: text('seed').notNull(),
    creatorId: int('creator_id').notNull().references(() => players.id),
    createdAt: long('created_at').notNull(),
  }, (columns) => [
    // As races_creator.
    index('series_creator').on(columns.creatorId),
  ]);

  /**
   * One player's game. Its move log is game_deals + game_actions. Its counts (cards home, redeals,
   * moves) are written when it is dealt and when it ends; while it plays they are read from its log
   * (game-columns.ts), so that a move writes its log row alone.
   */
  const games = table('games', {
    id: id('id'),
    kind: text('kind', { enum: GAME_KINDS }).notNull(),
    playerId: int('player_id').notNull().references(() => players.id),
    raceId: int('race_id').references(() => races.id),
    /** The UTC day (YYYY-MM-DD) of a daily game; null otherwise. */
    day: text('day'),
    /** The series of a series game, and which of its deals (1-100) it is; null otherwise. */
    seriesId: int('series_id').references(() => series.id),
    seriesDeal: int('series_deal'),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    /** Server-side only: redeals are dealt from it. */
    seed: text('seed').notNull(),
    status: text('status', { enum: GAME_STATES }).notNull(),
    foundations: int('foundations').notNull(),
    redealsUsed: int('redeals_used').notNull().default(0),
    moves: int('moves').notNull().default(0),
    startedAt: long('started_at').notNull(),
    /** When the game stops by itself (a race's time limit, a daily attempt's end of day), or null. */
    deadline: long('deadline'),
    finishedAt: long('finished_at'),
    /** Set when the game ends: its result as one number, smaller is better (standings.ts `rankKey` of cards home and elapsed time). */
    rankKey: long('rank_key'),
    /** A ghost race's: the finished game it races against (server/ghosts.ts); null for other kinds. */
    ghostOf: int('ghost_of').references((): AnySQLiteColumn => games.id),
    /**
     * A ghost race's redeal stream: the attempt (a daily or series game id) whose stream the raced
     * game redealt from, so the same cards deal the same layouts; null: the seed's own (a race's).
     */
    redealFrom: int('redeal_from'),
    /** A banned player's daily result, kept here while its rank_key is null (off the board and its tallies) and put back when the ban is lifted. */
    unlistedRankKey: long('unlisted_rank_key'),
  }, (columns) => {
    // The tie-break of the two orders below. SQLite's indexes carry the rowid, which is the id;
    // PostgreSQL has no rowid, so there the id is an indexed column.
    const byId = kit.kind === 'postgres' ? [columns.id] : [];
    return [
      uniqueIndex('games_race_player').on(columns.raceId, columns.playerId),
      // One daily game per player and day (day is null, hence never equal, for other kinds: nulls are distinct in both databases).
      uniqueIndex('games_player_day').on(columns.playerId, columns.day),
      // One game per player and deal of a series, in deal order: a player's progress, and everyone's results in a series.
      uniqueIndex('games_series_player_deal').on(columns.seriesId, columns.playerId, columns.seriesDeal),
      index('games_playing').on(columns.status).where(sql`${columns.status} = 'playing'`),
      // A day's leaderboard in rank order. Unfinished attempts (rank_key null) sort first in SQLite
      // and last in PostgreSQL, each database's own order for `order by rank_key`: an index in
      // another null order could not serve the board (measured by bench scale).
      index('games_daily_board').on(columns.day, columns.rankKey, ...byId).where(sql`${columns.day} is not null`),
      // A player's history, newest first.
      index('games_player').on(columns.playerId, ...byId),
    ];
  });

  /**
   * How many attempts of a day finished with each number of cards home, kept by triggers on
   * `games` (migrations/0002, migrations/pg/0001): a rank is the finishers with more cards plus a short index count
   * among those with as many, never a count over the whole day.
   */
  const dailyTallies = table('daily_tallies', {
    day: text('day').notNull(),
    foundations: int('foundations').notNull(),
    finished: int('finished').notNull(),
  }, (columns) => [primaryKey({ columns: [columns.day, columns.foundations] })]);

  /** Server secrets made on first start (the daily seeds' HMAC key), by name. */
  const secrets = table('secrets', {
    name: text('name').primaryKey(),
    value: text('value').notNull(),
    createdAt: long('created_at').notNull(),
  });

  /** Every layout dealt to a game: k = 0 is the first, k the k-th redeal. */
  const gameDeals = table('game_deals', {
    gameId: int('game_id').notNull().references(() => games.id),
    k: int('k').notNull(),
    /** JSON array of fan strings (makeLayout): text in SQLite, jsonb in PostgreSQL, as every `json` column. */
    layout: json('layout').$type<string[]>().notNull(),
  }, (columns) => [primaryKey({ columns: [columns.gameId, columns.k] })]);

  /**
   * The move log: action `index` (0-based) of a game, in record notation, and when it was applied.
   * Its primary key makes two instances unable to store two actions at one index of a game
   * (pg/moves.ts). In SQLite a WITHOUT ROWID table since migration 0004 (drizzle cannot say so
   * here): one B-tree, one page per move.
   */
  const gameActions = table('game_actions', {
    gameId: int('game_id').notNull().references(() => games.id),
    index: int('action_index').notNull(),
    action: text('action').notNull(),
    at: long('at').notNull(),
    /** Cards on the foundations after this action; null in rows stored before migration 0009. */
    foundations: int('foundations'),
  }, (columns) => [primaryKey({ columns: [columns.gameId, columns.index] })]);

  /** A game's row as players see it now: a playing game's counts come from its log (game-columns.ts). */
  const currentGameRow = gameRowColumns(games, gameActions, gameDeals);

  /**
   * A game's analysis (server/analyses.ts), written by the background solver once the game's seed
   * is public; a game without a row is still pending.
   */
  const gameAnalyses = table('game_analyses', {
    gameId: int('game_id').primaryKey().references(() => games.id),
    status: text('status', { enum: STORED_ANALYSIS_STATES }).notNull(),
    /** The solver's findings (contract GameAnalysis) when done. */
    analysis: json('analysis').$type<GameAnalysis>(),
    /** Why it is unavailable. */
    reason: text('reason'),
    createdAt: long('created_at').notNull(),
  });

  /** A player's rating in one variant (server/ratings/): OpenSkill's mean and uncertainty, after `games` rated races. */
  const ratings = table('ratings', {
    playerId: int('player_id').notNull().references(() => players.id),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    mu: float('mu').notNull(),
    sigma: float('sigma').notNull(),
    games: int('games').notNull(),
    /** When the last rated race moved it: the leaderboard shows the players active lately. */
    updatedAt: long('updated_at').notNull(),
  }, (columns) => [
    primaryKey({ columns: [columns.playerId, columns.variant] }),
    // The leaderboard of a variant, best first.
    index('ratings_board').on(columns.variant, columns.mu),
  ]);

  /** A rated race whose ratings are applied: written in the ratings' transaction, so a race moves them once. */
  const ratedRaces = table('rated_races', {
    raceId: int('race_id').primaryKey().references(() => races.id),
    appliedAt: long('applied_at').notNull(),
  });

  /** Each racer's rating before and after a rated race: the rating chart and the standings' "+14". */
  const ratingChanges = table('rating_changes', {
    raceId: int('race_id').notNull().references(() => races.id),
    playerId: int('player_id').notNull().references(() => players.id),
    variant: text('variant', { enum: VARIANT_IDS }).notNull(),
    muBefore: float('mu_before').notNull(),
    sigmaBefore: float('sigma_before').notNull(),
    muAfter: float('mu_after').notNull(),
    sigmaAfter: float('sigma_after').notNull(),
    /** When the race finished. */
    at: long('at').notNull(),
  }, (columns) => [
    primaryKey({ columns: [columns.raceId, columns.playerId] }),
    // A player's history in order (the chart).
    index('rating_changes_player').on(columns.playerId, columns.at),
  ]);
  /** A player's report of another's name or conduct (moderation.ts): one per reporter and target. */
  const reports = table('reports', {
    id: id('id'),
    /** Not a foreign key: pruning may delete a reporter who never played; the report stays. */
    reporterId: int('reporter_id').notNull(),
    targetId: int('target_id').notNull().references(() => players.id),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    createdAt: long('created_at').notNull(),
    /** When an operator acted on the target or dismissed its reports; null while open. */
    resolvedAt: long('resolved_at'),
  }, (columns) => [
    uniqueIndex('reports_reporter_target').on(columns.reporterId, columns.targetId),
    // Open reports by target (the operator page), and a reporter's recent reports (the rate limit).
    index('reports_target').on(columns.targetId, columns.resolvedAt),
    index('reports_reporter_created').on(columns.reporterId, columns.createdAt),
  ]);

  /** Every operator action: who (the name the operator gave), what, on whom, when. */
  const operatorActions = table('operator_actions', {
    id: id('id'),
    operator: text('operator').notNull(),
    action: text('action', { enum: OPERATOR_ACTIONS }).notNull(),
    targetId: int('target_id').notNull(),
    /** The action's particulars (the old and new name), as JSON. */
    detail: json('detail').$type<Record<string, string>>().notNull(),
    at: long('at').notNull(),
  });

  /**
   * A game's fair-play figures (fair-play.ts), stored with its analysis: how many of its moves kept
   * the deal's best reachable count, and its move times.
   */
  const gameFairPlay = table('game_fair_play', {
    gameId: int('game_id').primaryKey().references(() => games.id),
    playerId: int('player_id').notNull(),
    /** Moves the analysis could judge (exact before and after, within one deal), and of those the ones that kept the best count. */
    judged: int('judged').notNull(),
    kept: int('kept').notNull(),
    /** Median and median absolute deviation of the times between moves, ms; null under two moves. */
    medianMs: int('median_ms'),
    spreadMs: int('spread_ms'),
    createdAt: long('created_at').notNull(),
  }, (columns) => [index('game_fair_play_player').on(columns.playerId)]);

  return { players, devices, deviceLinks, passkeys, passkeyChallenges, races, raceEntries, poolEntries, series, games, dailyTallies, secrets, gameDeals, gameActions, currentGameRow, gameAnalyses, ratings, ratedRaces, ratingChanges, reports, operatorActions, gameFairPlay };
}
