/**
 * The HTTP API's shapes: bodies, path parameters, query strings and answers, as zod schemas the
 * server's routes declare (so requests are checked and answers serialised from them, and the
 * OpenAPI document is written from them) and as the types the client reads.
 */
import { z } from 'zod';
import { RECORD_FORMAT } from '../shared/index.js';
import { isDay } from './day.js';
import { ERROR_CODES, hasErrorParams, type CodedError } from './errors.js';
import { fairPlayFigures, moderationAnswer, operatorBody, operatorName, operatorOverviewAnswer, playerFairPlay, reportAnswer, reportBody } from './moderation.js';
import type { RouteName } from './routes.js';
import {
  ANALYSIS_STATES,
  GAME_KINDS,
  HISTORY_PAGE,
  LEADERBOARD_PAGE,
  MAX_SEATS,
  MIN_SEATS,
  NAME_MAX,
  PAGE_MAX,
  SERIES_DEALS,
  TIME_LIMIT_MAX_SECONDS,
  TIME_LIMIT_MIN_SECONDS,
} from './vocabulary.js';
import {
  deviceIdParams,
  devicesAnswer,
  linkAnswer,
  linkCodeParams,
  linkOwnerAnswer,
  passkeyAnswer,
  passkeyCeremonyBody,
  passkeyIdParams,
  passkeyOptionsAnswer,
  passkeyRemovedAnswer,
  passkeysAnswer,
  signedInAnswer,
  signedOutAnswer,
} from './identity.js';
import { gameId, gameSnapshot, gameState, playerView, progressView, raceCode, raceView, ratingView, seriesCode, standingView, variantId } from './views.js';
import { lobbyAnswer, poolAnswer, poolJoinBody } from './lobby.js';

// ---------------------------------------------------------------- requests

/**
 * 1-24 printable characters after trimming (no control or format characters). Each refinement
 * names its rule (and its bounds) in `params`: a refusal's parameters carry them (`issue`).
 */
export const playerName = z
  .string()
  .trim()
  .normalize('NFC')
  .refine((name) => [...name].length >= 1 && [...name].length <= NAME_MAX, {
    message: `a name is 1-${NAME_MAX} characters`,
    params: { rule: 'name-length', min: 1, max: NAME_MAX },
  })
  .refine((name) => !/[\p{C}]/u.test(name), { message: 'a name holds printable characters only', params: { rule: 'name-printable' } });

export const createPlayerBody = z.strictObject({ name: playerName });
/** `POST /api/operator/players/:id/rename`: the new name (checked as a new player's is). */
export const renameBody = z.strictObject({ operator: operatorName, name: playerName });
export type RenameBody = z.input<typeof renameBody>;
export const createRaceBody = z.strictObject({
  variant: variantId.default('strict'),
  seats: z.number().int().min(MIN_SEATS).max(MAX_SEATS).default(MAX_SEATS),
  /** Null or absent: no limit (a variant where play can cycle gets one anyway). */
  timeLimitSeconds: z.number().int().min(TIME_LIMIT_MIN_SECONDS).max(TIME_LIMIT_MAX_SECONDS).nullable().default(null),
  /** Whether the result moves the racers' ratings in the variant; not unless asked. */
  rated: z.boolean().default(false),
  /** True: listed in the public lobby ("open to anyone"); false (the default): reached by its link only. */
  listed: z.boolean().default(false),
});
export type CreatePlayerBody = z.input<typeof createPlayerBody>;
export type CreateRaceBody = z.input<typeof createRaceBody>;
/** `POST /api/races/:code/kick`: the racer the creator removes. */
export const kickBody = z.strictObject({ playerId: z.number().int().positive() });
/** `POST /api/races/:code/rematch`. */
export const rematchBody = z.strictObject({ answer: z.enum(['accept', 'decline']) });
export type KickBody = z.input<typeof kickBody>;
export type RematchBody = z.input<typeof rematchBody>;
/** `POST /api/series`: a new series of deals (strict unless told). */
export const createSeriesBody = z.strictObject({ variant: variantId.default('strict') });
/** `POST /api/ghosts`: a ghost race against a stored game of this variant. */
export const findGhostBody = z.strictObject({ variant: variantId.default('strict') });
export type CreateSeriesBody = z.input<typeof createSeriesBody>;
/** A create-race body with its defaults filled in. */
export type RaceOptions = z.output<typeof createRaceBody>;

/** A UTC day, `YYYY-MM-DD`, that exists in the calendar. */
export const dayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD')
  .refine(isDay, { message: 'no such day in the calendar', params: { rule: 'no-such-day' } });

/** A positive integer written in decimal in a URL (no sign, no leading zero, no exponent). */
const urlInteger = (rule: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,14})$/, rule)
    .transform(Number);

export const raceCodeParams = z.strictObject({ code: raceCode });
export const playerIdParams = z.strictObject({ id: urlInteger('a player id is a positive integer').pipe(z.number().int().positive()) });
export const gameIdParams = z.strictObject({ id: urlInteger('a game id is a positive integer').pipe(gameId) });
export const dayParams = z.strictObject({ day: dayString });
export const seriesParams = z.strictObject({ code: seriesCode });
const dealRule = `a series deal is a whole number from 1 to ${SERIES_DEALS}`;
export const seriesDealParams = z.strictObject({ code: seriesCode, deal: urlInteger(dealRule).pipe(z.number().min(1, dealRule).max(SERIES_DEALS, dealRule)) });

const limitRule = `limit is a whole number from 1 to ${PAGE_MAX}`;
/** `?limit=&offset=`, both optional. */
const pageQuery = (defaultLimit: number) =>
  z.strictObject({
    limit: urlInteger(limitRule).pipe(z.number().min(1, limitRule).max(PAGE_MAX, limitRule)).default(defaultLimit),
    offset: urlInteger('offset is a whole number from 0').default(0),
  });
export const leaderboardQuery = pageQuery(LEADERBOARD_PAGE);
export const historyQuery = pageQuery(HISTORY_PAGE);
export type LeaderboardQuery = z.input<typeof leaderboardQuery>;
export type HistoryQuery = z.input<typeof historyQuery>;
export type Page = z.output<typeof leaderboardQuery>;

/** `/ws?token=TOKEN`: browsers cannot set headers on a websocket, so the token comes in the URL. */
export const socketQuery = z.strictObject({ token: z.string().optional() });

// ---------------------------------------------------------------- answers

/** A refusal's parameters: exactly the names its code lists in `ERROR_PARAMS` (contract/errors.ts). */
export const errorParams = z.record(z.string(), z.unknown());
const paramsMatchCode = (error: { code: CodedError['code']; params: Record<string, unknown> }): boolean => hasErrorParams(error.code, error.params);
const PARAMS_RULE = { message: "params must hold exactly the parameters of the error's code (ERROR_PARAMS)", path: ['params'] };

export const httpError = z
  .object({
    statusCode: z.number().int(),
    code: z.enum(ERROR_CODES),
    /** English, for API consumers and logs; a client words the refusal from `code` and `params`. */
    message: z.string(),
    params: errorParams,
    /** The offending field as a dotted path (`name`, `seats`, `day`, `token`), when one is to blame. */
    field: z.string().optional(),
  })
  .refine(paramsMatchCode, PARAMS_RULE);

export const createPlayerAnswer = z.object({
  player: playerView,
  /** The secret: send it as `Authorization: Bearer TOKEN` and in `/ws?token=TOKEN`. Shown once. */
  token: z.string(),
});
export const meAnswer = z.object({ player: playerView });
export const raceAnswer = z.object({ race: raceView });
export const healthAnswer = z.object({ status: z.enum(['ok', 'closing']), uptimeSeconds: z.number().int() });
/** Readiness: whether this instance should get traffic, and what stops it when it should not. */
export const readyAnswer = z.object({
  ready: z.boolean(),
  closing: z.boolean(),
  /** `unavailable`: it answers but cannot take writes now (locked, or a full disk or I/O error in the last seconds). */
  database: z.enum(['ok', 'unavailable', 'unreachable']),
  /** The Redis that connects instances (REDIS_URL); `off` for a single instance without one. */
  redis: z.enum(['ok', 'unreachable', 'off']),
});

/**
 * One finished attempt on a day's leaderboard: a standing (its rank is a standard competition rank,
 * 1, 2, 2, 4: wins by elapsed time, then losses by cards home, then elapsed time), always finished.
 */
export const leaderboardEntry = standingView.extend({
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
  /** The series and the deal in it (series games); null otherwise. */
  series: z.object({ code: z.string(), deal: z.number().int() }).nullable(),
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
  /** The seed, once revealed (race finished, day over; a series deal's never is; a ghost race's at once). */
  seed: z.string().nullable(),
  /** The game a ghost race raced against; null for other kinds. */
  ghostOf: gameId.nullable(),
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

export const dailyAnswer = z.object({ daily: dailyView });
/** `POST /api/daily/start`: the attempt as the websocket's `game` message (play it with `action` by gameId). */
export const dailyStartAnswer = z.object({ daily: dailyView, game: gameSnapshot });
export const leaderboardAnswer = z.object({ leaderboard: leaderboardView });
export const gameSummaryAnswer = z.object({ game: gameSummary });
/**
 * A ghost race as its player sees it: the ghost's progress on its own timeline from the start of
 * the ghost race (computed by the server, counts only: never a card), and when it next changes.
 */
export const ghostView = z.object({
  /** The ghost race's own game. */
  gameId,
  /** The finished game raced against. */
  ghostOf: gameId,
  variant: variantId,
  startedAt: z.number(),
  /** The ghost now, as a racer: its finishedAt is on the ghost race's clock (startedAt + its time). */
  ghost: progressView,
  /** The server time of the ghost's next change; null once it has ended. */
  nextAt: z.number().nullable(),
  /** The server's clock when this was computed. */
  now: z.number(),
});
/** `POST /api/games/:id/ghost`, `POST /api/ghosts`: the ghost race and its game, played on the websocket by gameId. */
export const ghostStartAnswer = z.object({ ghost: ghostView, game: gameSnapshot });
export const ghostAnswer = z.object({ ghost: ghostView });
export const historyAnswer = z.object({ history: historyView });
/** `GET /api/games/:id/record`: the game's `lucie-record/1` (docs/record-format.md). */
export const recordAnswer = z.object({
  format: z.literal(RECORD_FORMAT),
  variant: variantId,
  seed: z.string().optional(),
  deals: z.array(z.array(z.string())),
  actions: z.array(z.string()),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** Results over the finished deals of a series. */
export const seriesResults = z.object({
  played: z.number().int(),
  wins: z.number().int(),
  /** wins / played, 0-1 (0 before the first deal is finished). */
  winRate: z.number(),
  /** Cards home per finished deal (0 before the first). */
  averageFoundations: z.number(),
});

/** One finished deal of a series, as its player played it. */
export const seriesDealResult = z.object({
  deal: z.number().int(),
  gameId,
  state: gameState,
  foundations: z.number().int(),
  moves: z.number().int(),
  elapsedMs: z.number().int(),
});

/** Where the requesting player stands in a series. */
export const seriesProgress = z.object({
  /** The deal to play now (being played or yet to be dealt), 1-100; null once all are finished. */
  next: z.number().int().nullable(),
  /** The game of `next` when it is dealt and being played (resume it), else null. */
  playing: gameId.nullable(),
  results: seriesResults,
  /** Finished deals in order. */
  deals: z.array(seriesDealResult),
});

/** A series: 100 deals in order from its secret seed, the same for everyone who plays it; unranked. */
export const seriesView = z.object({
  code: z.string(),
  variant: variantId,
  deals: z.number().int(),
  creator: playerView,
  createdAt: z.number(),
  /** What the rule sheets call a good win rate in this variant, 0-1, with their words; null where they say nothing. */
  benchmark: z.object({ low: z.number(), high: z.number(), text: z.string() }).nullable(),
  /** The requester's progress (null without a token or before their first deal). */
  me: seriesProgress.nullable(),
  /** Everyone who has been dealt a deal of the series, with their results: most wins first, then most cards home over their finished deals; at most 100. */
  players: z.array(seriesResults.extend({ player: playerView, next: z.number().int().nullable() })),
  /** How many players have been dealt a deal of the series. */
  playerCount: z.number().int(),
});

export const seriesAnswer = z.object({ series: seriesView });
/** `POST /api/series/:code/deals/:deal`: the deal as the websocket's `game` message (play it with `action` by gameId). */
export const seriesDealAnswer = z.object({ series: seriesView, game: gameSnapshot });

/** A player's results in one variant, from their finished games (race seats, daily attempts and series deals). */
export const variantStats = z.object({
  variant: variantId,
  games: z.number().int(),
  wins: z.number().int(),
  /** wins / games, 0-1. */
  winRate: z.number(),
  averageFoundations: z.number(),
  /** The fastest win, from the deal to the last card home (null without a win). */
  bestWinMs: z.number().int().nullable(),
  /** Wins in a row up to the last game ended, and the longest such run. */
  currentStreak: z.number().int(),
  bestStreak: z.number().int(),
  /** The rating in the variant, once a rated race moved it. */
  rating: ratingView.nullable(),
});
/** A player's daily streak: days in a row with an attempt (the current run ends today or yesterday), and the longest. */
export const dailyStreak = z.object({ current: z.number().int(), best: z.number().int() });
/** A series a player has been dealt in, with their results in it. */
export const playerSeries = seriesResults.extend({ code: z.string(), variant: variantId, next: z.number().int().nullable() });
/** `GET /api/players/:id/stats`: anyone's record (results are public; moves stay as hidden as their records). */
export const playerStats = z.object({
  player: playerView,
  variants: z.array(variantStats),
  /** Their daily streak. */
  daily: dailyStreak,
  /** Their series, the last one played first. */
  series: z.array(playerSeries),
  /** Accuracy and move times over their analysed games (contract/moderation.ts). */
  fairPlay: playerFairPlay,
});
export const playerStatsAnswer = z.object({ stats: playerStats });

/** A rating after one rated race: the chart's point. */
export const ratingPoint = z.object({
  /** The race's code, and when it finished (epoch ms). */
  race: z.string(),
  at: z.number(),
  /** The displayed rating before and after it, and whether the one after is provisional. */
  before: z.number().int(),
  after: z.number().int(),
  provisional: z.boolean(),
});
/** `GET /api/players/:id/ratings`: a player's rating history, per variant rated in, oldest race first. */
export const ratingHistoryAnswer = z.object({
  player: playerView,
  variants: z.array(z.object({ variant: variantId, points: z.array(ratingPoint) })),
});
export const ratingBoardParams = z.strictObject({ variant: variantId });
/** `GET /api/ratings/:variant`: settled ratings of the players active lately, best first. */
export const ratingBoardAnswer = z.object({
  variant: variantId,
  /** Players whose last rated race finished at or after this (epoch ms) are listed. */
  activeSince: z.number(),
  entries: z.array(z.object({ rank: z.number().int(), player: playerView, rating: z.number().int(), games: z.number().int() })),
});

/** One racer's game in a race replay: every layout dealt and every action with the moment it was stored. */
export const replayGame = z.object({
  playerId: z.number().int(),
  name: z.string(),
  gameId,
  state: gameState,
  /** deals[k]: makeLayout strings of the layout after the k-th redeal (deals[0] the first). */
  deals: z.array(z.array(z.string())),
  actions: z.array(z.string()),
  /** times[i]: when actions[i] was stored, epoch ms (server clock). */
  times: z.array(z.number()),
  finishedAt: z.number().nullable(),
});
/** `GET /api/races/:code/replay`, only once the race is finished: the race (standings, seed) and each racer's game in seat order. */
export const raceReplayAnswer = z.object({ race: raceView, games: z.array(replayGame) });
/**
 * `GET /api/ghosts/:id/replay`, only once the ghost race has ended: the player's game and the
 * ghost's, in that order, both on the ghost race's clock (the ghost's times shifted to start at its
 * startedAt), so the two boards replay side by side as a race's do.
 */
export const ghostReplayAnswer = z.object({ ghost: ghostView, games: z.array(replayGame) });

/** The HTTP error answer, its params typed by its code. */
export type HttpError = Omit<z.infer<typeof httpError>, 'code' | 'params'> & CodedError;
export type CreatePlayerAnswer = z.infer<typeof createPlayerAnswer>;
export type MeAnswer = z.infer<typeof meAnswer>;
export type RaceAnswer = z.infer<typeof raceAnswer>;
export type HealthAnswer = z.infer<typeof healthAnswer>;
export type ReadyAnswer = z.infer<typeof readyAnswer>;
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;
export type DailyAttempt = z.infer<typeof dailyAttempt>;
export type DailyView = z.infer<typeof dailyView>;
export type LeaderboardView = z.infer<typeof leaderboardView>;
export type GameSummary = z.infer<typeof gameSummary>;
export type HistoryView = z.infer<typeof historyView>;
export type DailyAnswer = z.infer<typeof dailyAnswer>;
export type DailyStartAnswer = z.infer<typeof dailyStartAnswer>;
export type LeaderboardAnswer = z.infer<typeof leaderboardAnswer>;
export type GameSummaryAnswer = z.infer<typeof gameSummaryAnswer>;
export type GhostView = z.infer<typeof ghostView>;
export type GhostStartAnswer = z.infer<typeof ghostStartAnswer>;
export type GhostAnswer = z.infer<typeof ghostAnswer>;
export type HistoryAnswer = z.infer<typeof historyAnswer>;
export type ReplayGame = z.infer<typeof replayGame>;
export type VariantStats = z.infer<typeof variantStats>;
export type PlayerStats = z.infer<typeof playerStats>;
export type PlayerStatsAnswer = z.infer<typeof playerStatsAnswer>;
export type RatingPoint = z.infer<typeof ratingPoint>;
export type RatingHistoryAnswer = z.infer<typeof ratingHistoryAnswer>;
export type RatingBoardAnswer = z.infer<typeof ratingBoardAnswer>;
export type RaceReplayAnswer = z.infer<typeof raceReplayAnswer>;
export type GhostReplayAnswer = z.infer<typeof ghostReplayAnswer>;
export type SeriesResults = z.infer<typeof seriesResults>;
export type SeriesDealResult = z.infer<typeof seriesDealResult>;
export type SeriesProgress = z.infer<typeof seriesProgress>;
export type SeriesView = z.infer<typeof seriesView>;
export type SeriesAnswer = z.infer<typeof seriesAnswer>;
export type SeriesDealAnswer = z.infer<typeof seriesDealAnswer>;
export type PlayerSeries = z.infer<typeof playerSeries>;

/** A line of play the analysis found: its actions in record notation and the layouts its redeals deal (makeLayout strings). */
export const analysisLine = z.object({ actions: z.array(z.string()), redeals: z.array(z.array(z.string())) });
/** The game at its start and after each action: cards home and the most still reachable in the current deal (`exact` false: at least that). */
export const analysisPoint = z.object({ deal: z.number().int(), home: z.number().int(), dealMax: z.number().int(), exact: z.boolean() });
/** What the solver found on one game (solver/): counts are "at least" where `exact` is false. */
export const gameAnalysis = z.object({
  /** The first layout alone: the same for everyone who played this deal. */
  firstDeal: z.object({ max: z.number().int(), clearable: z.boolean().nullable(), exact: z.boolean() }),
  /** Par on this game's own redeals (solver/par.ts); null when a search was cut short. */
  par: z.object({ count: z.number().int().nullable(), won: z.boolean().nullable(), line: analysisLine.nullable() }),
  /** The best with every redeal layout known in advance. */
  clairvoyant: z.object({ best: z.number().int(), won: z.boolean(), exact: z.boolean(), line: analysisLine }),
  points: z.array(analysisPoint),
  nodes: z.number().int(),
  ms: z.number(),
});
/**
 * `GET /api/games/:id/analysis`, once the game's seed is public: solved in the background when
 * the race finishes or the day closes; `pending` until then, `unavailable` when the solve failed
 * or ran out of time (the game itself is unaffected).
 */
export const analysisAnswer = z.object({
  gameId,
  status: z.enum(ANALYSIS_STATES),
  /** Why it is unavailable; null otherwise. */
  reason: z.string().nullable(),
  analysis: gameAnalysis.nullable(),
  /** The game's accuracy and move times, once analysed (null before, and for a game analysed before they were measured). */
  fairPlay: fairPlayFigures.nullable(),
});
/** `GET /api/daily/:day/analysis`, once the day is over: the first deal (the same layout for everyone) and how many attempts reached their own par. */
export const dailyAnalysisAnswer = z.object({
  day: z.string(),
  /** The first layout's maximum; null until one attempt is analysed. */
  firstDeal: z.object({ max: z.number().int(), exact: z.boolean() }).nullable(),
  /** Ended attempts, those analysed with a known par, and those among them that reached it. */
  attempts: z.number().int(),
  analysed: z.number().int(),
  reachedPar: z.number().int(),
});
export type DailyAnalysisAnswer = z.infer<typeof dailyAnalysisAnswer>;
export type AnalysisLine = z.infer<typeof analysisLine>;
export type AnalysisPoint = z.infer<typeof analysisPoint>;
export type GameAnalysis = z.infer<typeof gameAnalysis>;
export type AnalysisAnswer = z.infer<typeof analysisAnswer>;

/** What `/api/openapi.json` answers: an OpenAPI 3.1 document (its inside is @fastify/swagger's). */
export const openapiAnswer = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) });

// ---------------------------------------------------------------- the routes' schemas

/** The parts of a request a route reads, and its answers by status (errors are the one `httpError`, added by the server). */
interface RouteSchema {
  readonly params?: z.ZodType;
  readonly querystring?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: { readonly [status: number]: z.ZodType };
  /** A one-line description for the OpenAPI document. */
  readonly summary?: string;
}

/** Each route of `ROUTES` (contract/routes.ts) with its schemas, by the same name. */
export const ROUTE_SCHEMAS = {
  createPlayer: { body: createPlayerBody, response: { 201: createPlayerAnswer } },
  me: { response: { 200: meAnswer } },
  rename: { body: createPlayerBody, response: { 200: meAnswer } },
  myDevices: { response: { 200: devicesAnswer } },
  signOutDevice: { params: deviceIdParams, response: { 200: signedOutAnswer } },
  createLink: { response: { 201: linkAnswer } },
  linkOwner: { params: linkCodeParams, response: { 200: linkOwnerAnswer } },
  claimLink: { params: linkCodeParams, response: { 201: signedInAnswer } },
  myPasskeys: { response: { 200: passkeysAnswer } },
  passkeyRegistration: { response: { 200: passkeyOptionsAnswer } },
  addPasskey: { body: passkeyCeremonyBody, response: { 201: passkeyAnswer } },
  removePasskey: { params: passkeyIdParams, response: { 200: passkeyRemovedAnswer } },
  passkeySignInOptions: { response: { 200: passkeyOptionsAnswer } },
  passkeySignIn: { body: passkeyCeremonyBody, response: { 201: signedInAnswer } },
  myGames: { querystring: historyQuery, response: { 200: historyAnswer } },
  playerStats: { params: playerIdParams, response: { 200: playerStatsAnswer } },
  playerRatings: { params: playerIdParams, response: { 200: ratingHistoryAnswer } },
  ratingBoard: { params: ratingBoardParams, response: { 200: ratingBoardAnswer } },
  createRace: { body: createRaceBody, response: { 201: raceAnswer } },
  race: { params: raceCodeParams, response: { 200: raceAnswer } },
  joinRace: { params: raceCodeParams, response: { 200: raceAnswer } },
  startRace: { params: raceCodeParams, response: { 200: raceAnswer } },
  leaveRace: { params: raceCodeParams, response: { 200: raceAnswer } },
  kickRacer: { params: raceCodeParams, body: kickBody, response: { 200: raceAnswer } },
  cancelRace: { params: raceCodeParams, response: { 200: raceAnswer } },
  answerRematch: { params: raceCodeParams, body: rematchBody, response: { 200: raceAnswer } },
  raceReplay: { params: raceCodeParams, response: { 200: raceReplayAnswer } },
  lobby: { response: { 200: lobbyAnswer } },
  pool: { response: { 200: poolAnswer } },
  joinPool: { body: poolJoinBody, response: { 200: poolAnswer } },
  leavePool: { response: { 200: poolAnswer } },
  createSeries: { body: createSeriesBody, response: { 201: seriesAnswer } },
  series: { params: seriesParams, response: { 200: seriesAnswer } },
  dealSeries: { params: seriesDealParams, response: { 200: seriesDealAnswer, 201: seriesDealAnswer } },
  today: { response: { 200: dailyAnswer } },
  daily: { params: dayParams, response: { 200: dailyAnswer } },
  startDaily: { response: { 200: dailyStartAnswer, 201: dailyStartAnswer } },
  leaderboard: { params: dayParams, querystring: leaderboardQuery, response: { 200: leaderboardAnswer } },
  dailyAnalysis: { params: dayParams, response: { 200: dailyAnalysisAnswer } },
  game: { params: gameIdParams, response: { 200: gameSummaryAnswer } },
  record: { params: gameIdParams, response: { 200: recordAnswer } },
  analysis: { params: gameIdParams, response: { 200: analysisAnswer } },
  raceGhost: { params: gameIdParams, response: { 200: ghostStartAnswer, 201: ghostStartAnswer } },
  ghost: { params: gameIdParams, response: { 200: ghostAnswer } },
  ghostReplay: { params: gameIdParams, response: { 200: ghostReplayAnswer } },
  findGhost: { body: findGhostBody, response: { 200: ghostStartAnswer, 201: ghostStartAnswer } },
  // 503 is an answer of these two, not an error: the body says what is wrong.
  health: { response: { 200: healthAnswer, 503: healthAnswer } },
  ready: { response: { 200: readyAnswer, 503: readyAnswer } },
  openapi: { summary: 'This document', response: { 200: openapiAnswer } },
  reportPlayer: { params: playerIdParams, body: reportBody, response: { 201: reportAnswer } },
  operatorOverview: { summary: 'Operator: reports, fair-play outliers, bans, actions', response: { 200: operatorOverviewAnswer } },
  renamePlayer: { summary: 'Operator: rename a player', params: playerIdParams, body: renameBody, response: { 200: moderationAnswer } },
  hideName: { summary: "Operator: replace a player's name by #id", params: playerIdParams, body: operatorBody, response: { 200: moderationAnswer } },
  banPlayer: { summary: 'Operator: ban an identity', params: playerIdParams, body: operatorBody, response: { 200: moderationAnswer } },
  unbanPlayer: { summary: 'Operator: lift a ban', params: playerIdParams, body: operatorBody, response: { 200: moderationAnswer } },
  dismissReports: { summary: "Operator: close a player's open reports", params: playerIdParams, body: operatorBody, response: { 200: moderationAnswer } },
  socket: { querystring: socketQuery, response: { 101: z.null().describe('Switching Protocols: the socket is open, its messages are contract/socket.ts') } },
} as const satisfies { readonly [name in RouteName]: RouteSchema };

type Schemas<N extends RouteName> = (typeof ROUTE_SCHEMAS)[N];
type Part<N extends RouteName, K extends 'querystring' | 'body'> = Schemas<N> extends { readonly [key in K]: infer S extends z.ZodType } ? z.input<S> : undefined;

/** What a client sends to route `N`: its body (as written, defaults not filled in) and its query string. */
export type RouteBody<N extends RouteName> = Part<N, 'body'>;
export type RouteQuery<N extends RouteName> = { readonly [K in keyof NonNullable<Part<N, 'querystring'>>]?: string | number };
/** What route `N` answers when it succeeds. */
export type RouteAnswer<N extends RouteName> = z.output<Schemas<N>['response'][keyof Schemas<N>['response']]>;
