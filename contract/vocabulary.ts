/**
 * The words every layer shares: how a game and a race stand, why a game exists, and the limits
 * of what a client may send. Plain constants (no zod), so the browser can import them at run
 * time for the price of a few bytes.
 */

/** How a game stands: `playing`, or how it ended. */
export const GAME_STATES = ['playing', 'won', 'out-of-moves', 'resigned', 'timed-out', 'abandoned'] as const;
export type GameState = (typeof GAME_STATES)[number];
/** The ways a game ends. */
export type EndState = Exclude<GameState, 'playing'>;

/** What others see of a racer: the game state, or `disconnected` while playing without a socket. */
export const PROGRESS_STATUSES = [...GAME_STATES, 'disconnected'] as const;
export type ProgressStatus = (typeof PROGRESS_STATUSES)[number];

/**
 * Why a game is stored: a race seat, the daily deal, a deal of a series, or a ghost race (a
 * finished public game raced again on its own timeline; practice is played in the browser alone).
 */
export const GAME_KINDS = ['race', 'daily', 'series', 'ghost'] as const;
export type GameKind = (typeof GAME_KINDS)[number];
/** Where a game's analysis stands: queued or solving, stored, or given up on (a failed or too slow solve). */
export const ANALYSIS_STATES = ['pending', 'done', 'unavailable'] as const;
export type AnalysisState = (typeof ANALYSIS_STATES)[number];
/** The states a stored analysis row can hold (a pending one has no row yet). */
export const STORED_ANALYSIS_STATES = ['done', 'unavailable'] as const;

export const RACE_STATES = ['lobby', 'countdown', 'running', 'finished', 'closed'] as const;
export type RaceState = (typeof RACE_STATES)[number];
/** Why a race is closed: its creator cancelled it, it was not started in time, or everyone left the lobby. */
export const CLOSED_REASONS = ['cancelled', 'expired', 'empty'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];
/** A racer's answer to the rematch of a finished race. */
export const REMATCH_ANSWERS = ['accepted', 'declined'] as const;
/**
 * Where a racer is, the same for every viewer: `online` (an open socket), `reconnecting` (none
 * since `since`; unseated or abandoned at `until` unless they come back), `gone` (left for good).
 */
export const PRESENCE_STATES = ['online', 'reconnecting', 'gone'] as const;
/** What just happened to a race's seats, told to everyone watching it. */
export const RACE_EVENT_KINDS = ['left', 'kicked', 'unseated', 'creator-changed', 'cancelled', 'closed', 'abandoned', 'rematch'] as const;
export type RaceEventKind = (typeof RACE_EVENT_KINDS)[number];

/**
 * Where a player stands in the quick-race pool: not in it, `waiting`, `paired` (seated in the
 * race it formed), or put out of it: `expired` (waited the longest a pool keeps anyone) or
 * `removed` (taken out by the server, a moderator say). A client that was waiting and reads
 * `none` after a reconnect tells its player the pool they were in is gone.
 */
export const POOL_STATES = ['none', 'waiting', 'paired', 'expired', 'removed'] as const;
export type PoolState = (typeof POOL_STATES)[number];

/** Deals in a series, played in order: the rule sheets' count for a win percentage. */
export const SERIES_DEALS = 100;

/** A share code (races and series): 6 characters from an alphabet without look-alikes (0/O, 1/I/L). */
export const RACE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const RACE_CODE_LENGTH = 6;
/** What is read as a race code (case-insensitive, any letter or digit: a typo is an unknown race, not a malformed one). */
export const RACE_CODE_PATTERN = /^[A-Za-z0-9]{6}$/;
/** A race code at the end of a path, a link or a pasted text (`/race/ABC234`, `ABC234`). */
export const RACE_CODE_IN_TEXT = /(?:^|\/)([A-Za-z0-9]{6})\/?(?:[?#].*)?$/;

export const MIN_SEATS = 2;
export const MAX_SEATS = 8;
/** A race's optional time limit, in seconds: 1 minute to 24 hours. */
export const TIME_LIMIT_MIN_SECONDS = 60;
export const TIME_LIMIT_MAX_SECONDS = 86_400;
/** Characters in a player's name, after trimming. */
export const NAME_MAX = 24;
/** Characters of one action in record notation (`M QD>F` is the longest legal one). */
export const ACTION_MAX_LENGTH = 16;

/** Page sizes: a day's leaderboard, a player's history, and the most any page may hold. */
export const LEADERBOARD_PAGE = 50;
export const HISTORY_PAGE = 20;
export const PAGE_MAX = 100;

/** The websocket close code sent when the socket's device is signed out: its token is no longer good, so reconnecting is pointless. */
export const SIGNED_OUT_CLOSE = 4401;
/** What a player may report another for (moderation): their name, or their play or conduct. */
export const REPORT_REASONS = ['name', 'player'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** What an operator may do to a player; each is logged (operator_actions). */
export const OPERATOR_ACTIONS = ['rename', 'hide-name', 'ban', 'unban', 'dismiss-reports'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];
/** Reports one player may file in REPORT_WINDOW_SECONDS. */
export const REPORT_LIMIT = 10;
export const REPORT_WINDOW_SECONDS = 3600;
/** The websocket close code a banned player's sockets get (4000-4999 are the application's); a reconnect is refused with 403 banned. */
export const BANNED_CLOSE_CODE = 4003;
