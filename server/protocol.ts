/**
 * The wire formats of Lucie, in one zod module: the websocket protocol (one discriminated union
 * on `type` per direction) and the HTTP bodies and views. The client imports its types with
 * `import type`; this module imports only zod and ../shared so it stays usable anywhere.
 *
 * Flow (details and HTTP routes in server/API.md):
 * 1. HTTP `POST /api/players {name}` gives `{player, token}`; the browser keeps the token.
 *    Races are created, joined and started over HTTP (`/api/races...`).
 * 2. The socket opens at `/ws?token=TOKEN` (no token: a read-only spectator; a wrong token is
 *    refused with 401 before the upgrade). The server says `welcome`.
 * 3. `watch {code}` subscribes to a race: the server answers `race` (the whole race view) and,
 *    for a racer whose game is dealt, `game` (the full snapshot of their own game). Every later
 *    change of the race (join, countdown, running, finished) comes as a new `race`; each
 *    racer's moves and status changes come as `progress` (moves coalesced: at most one per racer
 *    every 50 ms per race, the latest state; status changes at once).
 * 4. When the countdown ends every racer gets `game` (deals[0], no actions) at the same moment.
 *    A move is `action {gameId, index, action}`, `index` being its 0-based place in that
 *    player's game. The server checks it with the engine, stores it, then answers `ack` (with
 *    the new layout after a redeal `R`) and broadcasts `progress`. When the game ends (won, out
 *    of moves, resigned, time limit) the player also gets `game-over`.
 * 5. Resending an action already applied at that index gets the same `ack` again; a different
 *    action at a used index (`index-conflict`) or an index past the next one (`index-ahead`)
 *    gets an `error` carrying `nextIndex`. After a reconnect, `resync {gameId, lastIndex}`
 *    answers `resynced` with exactly the acks after `lastIndex` (-1: all of them).
 * 6. Anything the server cannot accept gets `error {code, message, field?}` and changes nothing.
 *
 * Times are epoch milliseconds (server clock; `serverTime` lets a client correct its own).
 */
import { z } from 'zod';
import { VARIANT_IDS } from '../shared/index.js';

// ---------------------------------------------------------------- shared pieces

/** A share code: 6 characters from an alphabet without look-alikes (0/O, 1/I/L); case-insensitive on input. */
export const RACE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const RACE_CODE_LENGTH = 6;
export const raceCode = z
  .string()
  .regex(/^[A-Za-z0-9]{6}$/, 'a race code is 6 letters or digits')
  .transform((code) => code.toUpperCase());

export const variantId = z.enum(VARIANT_IDS);
export const gameId = z.number().int().positive();
export const MIN_SEATS = 2;
export const MAX_SEATS = 8;
export const NAME_MAX = 24;

/** How a game stands: `playing`, or how it ended. */
export const GAME_STATES = ['playing', 'won', 'out-of-moves', 'resigned', 'timed-out'] as const;
export const gameState = z.enum(GAME_STATES);
/** What others see of a racer: the game state, or `disconnected` while playing without a socket. */
export const progressStatus = z.enum([...GAME_STATES, 'disconnected']);

export const gameStatus = z.object({
  state: gameState,
  /** Cards on the foundations, 0-52. */
  foundations: z.number().int(),
  redealsUsed: z.number().int(),
  /** Actions applied so far: also the index the next action must carry. */
  nextIndex: z.number().int(),
  finishedAt: z.number().nullable(),
});

export const playerView = z.object({ id: z.number().int(), name: z.string() });

export const progressView = z.object({
  playerId: z.number().int(),
  name: z.string(),
  gameId: gameId,
  foundations: z.number().int(),
  cardsLeft: z.number().int(),
  redealsUsed: z.number().int(),
  /** Actions applied. */
  moves: z.number().int(),
  status: progressStatus,
  finishedAt: z.number().nullable(),
});

export const standingView = z.object({
  /** 1-based; winners by finish time, then the rest by cards on foundations, then finish time. */
  rank: z.number().int(),
  playerId: z.number().int(),
  name: z.string(),
  gameId: gameId,
  state: gameState,
  foundations: z.number().int(),
  finishedAt: z.number().nullable(),
});

export const RACE_STATES = ['lobby', 'countdown', 'running', 'finished'] as const;

export const raceView = z.object({
  code: z.string(),
  variant: variantId,
  seats: z.number().int(),
  timeLimitSeconds: z.number().int().nullable(),
  state: z.enum(RACE_STATES),
  creator: playerView,
  /** Seated players in join order (the creator first). */
  racers: z.array(playerView),
  createdAt: z.number(),
  /** When the first layout is dealt (set by start). */
  startsAt: z.number().nullable(),
  /** When the time limit stops the race, if it has one. */
  endsAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** One entry per racer once the race has started, in seat order. */
  progress: z.array(progressView),
  /** Final standings, once finished. */
  standings: z.array(standingView).nullable(),
  /** Revealed once the race is finished (so anyone can check the deals); null before. */
  seed: z.string().nullable(),
});

// ---------------------------------------------------------------- client → server

export const ACTION_MAX_LENGTH = 16;

export const clientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('watch'), code: raceCode }),
  z.strictObject({ type: z.literal('unwatch'), code: raceCode }),
  z.strictObject({
    type: z.literal('action'),
    gameId,
    index: z.number().int().min(0),
    /** Record notation: `3>F`, `3>9`, `R`, `3>C1`, `C1>4`, `C1>F`, `M QD>4`, `M QD>F`. */
    action: z.string().min(1).max(ACTION_MAX_LENGTH),
  }),
  /** `lastIndex`: the index of the last action the client holds (-1 when none). */
  z.strictObject({ type: z.literal('resync'), gameId, lastIndex: z.number().int().min(-1) }),
  z.strictObject({ type: z.literal('resign'), gameId }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;
/** What a client writes (a code may be lower case; the server normalises it). */
export type ClientMessageInput = z.input<typeof clientMessage>;
export const CLIENT_MESSAGE_TYPES = ['watch', 'unwatch', 'action', 'resync', 'resign', 'ping'] as const;

// ---------------------------------------------------------------- server → client

/** One acknowledged action; `layout` (makeLayout strings) only after a redeal `R`. */
export const ackBody = z.object({
  gameId,
  index: z.number().int(),
  action: z.string(),
  layout: z.array(z.string()).optional(),
});

export const ERROR_CODES = [
  'bad-json', // the frame is not JSON
  'bad-message', // JSON, but not a valid message (field names the path, message the rule)
  'unknown-type', // `type` is not one of CLIENT_MESSAGE_TYPES
  'too-large', // frame over the size limit (nothing read)
  'rate-limited', // too many frames: this one was dropped
  'unauthorized', // no player behind this socket (spectators cannot act)
  'unknown-race', // no race with that code
  'unknown-game', // no game with that id
  'not-your-game', // the game belongs to another player
  'game-over', // the game has ended: no more actions
  'illegal-action', // the engine refuses the action (message gives the rule)
  'index-ahead', // index past nextIndex
  'index-conflict', // a different action was already applied at that index
  'server-closing', // the server is shutting down: retry after reconnecting
  'storage-unavailable', // the database could not store it (disk full, locked, failing): nothing changed, retry later
  'internal', // a server fault; nothing was applied
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), player: playerView.nullable(), serverTime: z.number() }),
  z.object({ type: z.literal('race'), race: raceView, serverTime: z.number() }),
  z.object({ type: z.literal('progress'), code: z.string(), progress: progressView }),
  /** The full story of the recipient's own game so far (no seed): rebuild it with the engine. */
  z.object({
    type: z.literal('game'),
    gameId,
    raceCode: z.string().nullable(),
    variant: variantId,
    /** deals[0] is the first layout, deals[k] the layout of the k-th redeal. */
    deals: z.array(z.array(z.string())),
    actions: z.array(z.string()),
    startedAt: z.number(),
    status: gameStatus,
  }),
  ackBody.extend({ type: z.literal('ack') }),
  z.object({ type: z.literal('resynced'), gameId, acks: z.array(ackBody), status: gameStatus }),
  z.object({ type: z.literal('game-over'), gameId, status: gameStatus }),
  z.object({
    type: z.literal('error'),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** The offending field as a dotted path (e.g. `index`, `code`), when one is to blame. */
    field: z.string().optional(),
    /** The client message type that caused it, when known. */
    request: z.string().optional(),
    gameId: z.number().optional(),
    index: z.number().optional(),
    /** For action errors: the index the server expects next. */
    nextIndex: z.number().optional(),
  }),
  z.object({ type: z.literal('pong'), serverTime: z.number() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

export type GameState = z.infer<typeof gameState>;
export type ProgressStatus = z.infer<typeof progressStatus>;
export type GameStatus = z.infer<typeof gameStatus>;
export type PlayerView = z.infer<typeof playerView>;
export type ProgressView = z.infer<typeof progressView>;
export type StandingView = z.infer<typeof standingView>;
export type RaceView = z.infer<typeof raceView>;
export type RaceState = RaceView['state'];
export type AckBody = z.infer<typeof ackBody>;
export type ErrorMessage = ServerMessageOf<'error'>;

// ---------------------------------------------------------------- HTTP bodies and answers

/** 1-24 printable characters after trimming (no control or format characters). */
export const playerName = z
  .string()
  .trim()
  .normalize('NFC')
  .refine((name) => [...name].length >= 1 && [...name].length <= NAME_MAX, `a name is 1-${NAME_MAX} characters`)
  .refine((name) => !/[\p{C}]/u.test(name), 'a name holds printable characters only');

export const createPlayerBody = z.strictObject({ name: playerName });
export const createRaceBody = z.strictObject({
  variant: variantId.default('strict'),
  seats: z.number().int().min(MIN_SEATS).max(MAX_SEATS).default(MAX_SEATS),
  /** 1 minute to 24 hours; null or absent: no limit. */
  timeLimitSeconds: z.number().int().min(60).max(86_400).nullable().default(null),
});
export type CreatePlayerBody = z.input<typeof createPlayerBody>;
export type CreateRaceBody = z.input<typeof createRaceBody>;
/** A create-race body with its defaults filled in. */
export type RaceOptions = z.output<typeof createRaceBody>;

export interface CreatePlayerAnswer {
  player: PlayerView;
  /** The secret: send it as `Authorization: Bearer TOKEN` and in `/ws?token=TOKEN`. Shown once. */
  token: string;
}
export interface MeAnswer {
  player: PlayerView;
}
export interface RaceAnswer {
  race: RaceView;
}
export interface HealthAnswer {
  /** `unavailable`: the process runs but the database cannot take writes now (it failed one lately, or is locked). */
  status: 'ok' | 'closing' | 'unavailable';
  uptimeSeconds: number;
}
/** Every HTTP error. */
export interface HttpError {
  statusCode: number;
  code: string;
  message: string;
  field?: string;
}

// ---------------------------------------------------------------- daily seed, replays, history (HTTP)

/** A UTC day, `YYYY-MM-DD`, that exists in the calendar. */
export const dayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD')
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, 'no such day in the calendar');

/** A positive integer written in decimal in a URL (no sign, no leading zero, no exponent). */
const urlInteger = (rule: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,14})$/, rule)
    .transform(Number);

export const gameIdParams = z.strictObject({ id: urlInteger('a game id is a positive integer').pipe(gameId) });
export const dayParams = z.strictObject({ day: dayString });

export const LEADERBOARD_PAGE = 50;
export const HISTORY_PAGE = 20;
export const PAGE_MAX = 100;
/** `?limit=&offset=`, both optional. */
const pageQuery = (defaultLimit: number) =>
  z.strictObject({
    limit: urlInteger(`limit is a whole number from 1 to ${PAGE_MAX}`)
      .pipe(z.number().min(1, `limit is a whole number from 1 to ${PAGE_MAX}`).max(PAGE_MAX, `limit is a whole number from 1 to ${PAGE_MAX}`))
      .default(defaultLimit),
    offset: urlInteger('offset is a whole number from 0').default(0),
  });
export const leaderboardQuery = pageQuery(LEADERBOARD_PAGE);
export const historyQuery = pageQuery(HISTORY_PAGE);
export type LeaderboardQuery = z.input<typeof leaderboardQuery>;
export type HistoryQuery = z.input<typeof historyQuery>;
export type Page = z.output<typeof leaderboardQuery>;

/** Why a game exists: a race seat, the daily seed, or free practice. */
export const GAME_KINDS = ['race', 'daily', 'practice'] as const;
export type GameKind = (typeof GAME_KINDS)[number];

/** One finished attempt on a day's leaderboard. */
export const leaderboardEntry = z.object({
  /** Standard competition rank (1, 2, 2, 4): wins by elapsed time, then losses by cards home, then elapsed time. */
  rank: z.number().int(),
  playerId: z.number().int(),
  name: z.string(),
  gameId,
  state: gameState,
  foundations: z.number().int(),
  /** From the deal to the end of the attempt, ms: what ties are judged on after cards home. */
  elapsedMs: z.number().int(),
  finishedAt: z.number(),
});

/** The requesting player's own attempt at a day (also while it is still being played). */
export const dailyAttempt = z.object({
  gameId,
  state: gameState,
  foundations: z.number().int(),
  moves: z.number().int(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  elapsedMs: z.number().int().nullable(),
  /** Rank on the day's leaderboard once finished (null while playing). */
  rank: z.number().int().nullable(),
  /** 0-based place in the leaderboard's order once finished: the page holding it starts at `offset = position - position % limit`. */
  position: z.number().int().nullable(),
});

export const dailyView = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  variant: variantId,
  /** 00:00 UTC of the day, and of the next day: attempts still playing then end as `timed-out`. */
  opensAt: z.number(),
  closesAt: z.number(),
  /** True while the day is running: attempts can be started, the seed and others' moves are hidden. */
  open: z.boolean(),
  /** The day's seed, revealed once the day is over; null before. */
  seed: z.string().nullable(),
  /** Attempts ended (on the leaderboard) and still being played. */
  finished: z.number().int(),
  playing: z.number().int(),
  /** The requesting player's attempt (null without a token or without an attempt). */
  me: dailyAttempt.nullable(),
});

export const leaderboardView = z.object({
  day: z.string(),
  open: z.boolean(),
  /** Finished attempts on the board, and attempts still being played (not on the board). */
  total: z.number().int(),
  playing: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  entries: z.array(leaderboardEntry),
  /** The requesting player's attempt, wherever it is on the board (null without one). */
  me: dailyAttempt.nullable(),
});

/** What anyone may know about a game: never its layouts or moves (those are in its record). */
export const gameSummary = z.object({
  id: gameId,
  kind: z.enum(GAME_KINDS),
  variant: variantId,
  player: playerView,
  /** The race's code (race games) or the UTC day (daily games); null otherwise. */
  raceCode: z.string().nullable(),
  day: z.string().nullable(),
  startedAt: z.number(),
  result: z.object({
    state: gameState,
    foundations: z.number().int(),
    won: z.boolean(),
    redealsUsed: z.number().int(),
    moves: z.number().int(),
    finishedAt: z.number().nullable(),
    elapsedMs: z.number().int().nullable(),
  }),
  /** Final standing in the race (once the race is finished), or rank on the day's leaderboard (once the attempt is finished). */
  rank: z.number().int().nullable(),
  /** The seed, once revealed (race finished, day over). */
  seed: z.string().nullable(),
  /** Whether the requester may download the record now (GET /api/games/:id/record). */
  recordAvailable: z.boolean(),
});

export const historyView = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** Newest first. */
  games: z.array(gameSummary),
});

export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;
export type DailyAttempt = z.infer<typeof dailyAttempt>;
export type DailyView = z.infer<typeof dailyView>;
export type LeaderboardView = z.infer<typeof leaderboardView>;
export type GameSummary = z.infer<typeof gameSummary>;
export type HistoryView = z.infer<typeof historyView>;

export interface DailyAnswer {
  daily: DailyView;
}
/** `POST /api/daily/start`: the attempt as the websocket's `game` message (play it with `action` by gameId). */
export interface DailyStartAnswer {
  daily: DailyView;
  game: ServerMessageOf<'game'>;
}
export interface LeaderboardAnswer {
  leaderboard: LeaderboardView;
}
export interface GameSummaryAnswer {
  game: GameSummary;
}
export interface HistoryAnswer {
  history: HistoryView;
}
