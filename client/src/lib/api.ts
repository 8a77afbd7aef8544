import {
  ROUTES,
  routePath,
  type CodedError,
  type ErrorCode,
  type HttpError,
  type RouteAnswer,
  type RouteBody,
  type RouteMethod,
  type RouteName,
  type RoutePathParams,
  type RouteQuery,
} from './contract.js';
import type { RecordJson, VariantId } from './engine.js';
import { t } from './i18n.svelte.js';
import { forget, identity, remember } from './identity.svelte.js';
import { refusalText } from './refusals.js';

/** An HTTP error from the server, with its stable code, its parameters and the field to blame. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** One of the server's codes, or `network` (no answer) or `http` (an answer that is not the error shape). */
    readonly code: ErrorCode | 'network' | 'http',
    message: string,
    readonly field?: string,
    /** The server's code with its parameters (contract/errors.ts), what a catalogue words; null without an answer in the error shape. */
    readonly refusal: CodedError | null = null,
  ) {
    super(message);
  }
}

/** What to tell the player about a failed call, in their language: the refusal by its code, no answer, or an unexpected failure. */
export function errorText(failure: unknown): string {
  if (!(failure instanceof ApiError)) return t('error.unexpected', { detail: String(failure) });
  if (failure.code === 'network') return t('error.network');
  if (failure.code === 'http') return t('error.http', { status: failure.status });
  return refusalText(failure.code, failure.message);
}

async function request<T>(method: RouteMethod, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (identity.token) headers.authorization = `Bearer ${identity.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', 'no answer from the server');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: reported below with the status.
  }
  if (!response.ok) {
    const error = data as Partial<HttpError> | null;
    if (response.status === 401 && identity.token) forget(); // the server no longer knows this token
    const refusal = error?.code !== undefined && error.params !== undefined ? ({ code: error.code, params: error.params } as CodedError) : null;
    throw new ApiError(response.status, error?.code ?? 'http', error?.message ?? `${response.status} ${response.statusText}`, error?.field, refusal);
  }
  return data as T;
}

/** What a call to route `N` sends: its path parameters, query string and body, each only where the route reads one. */
type CallInput<N extends RouteName> = (keyof RoutePathParams<N> extends never ? { params?: never } : { params: RoutePathParams<N> }) & {
  query?: RouteQuery<N>;
} & (RouteBody<N> extends undefined ? { body?: never } : { body: RouteBody<N> });

/** Calls route `name` of the contract's table: the one place a path is written is contract/routes.ts. */
export { call as callRoute };

function call<N extends RouteName>(name: N, ...[input]: {} extends CallInput<N> ? [CallInput<N>?] : [CallInput<N>]): Promise<RouteAnswer<N>> {
  const { params, query, body } = (input ?? {}) as { params?: Record<string, string | number>; query?: Record<string, string | number | undefined>; body?: unknown };
  const path = (routePath as (route: RouteName, params?: Record<string, string | number>, query?: Record<string, string | number | undefined>) => string)(name, params, query);
  // A POST without fields sends `{}`: the server reads every body as JSON.
  return request(ROUTES[name].method, path, body ?? (ROUTES[name].method === 'POST' ? {} : undefined));
}

export async function createPlayer(name: string): Promise<void> {
  const answer = await call('createPlayer', { body: { name } });
  remember(answer.player, answer.token);
}

export const me = () => call('me');
/** The public lobby as it stands (the socket's `lobby` keeps it current). */
export const getLobby = () => call('lobby');
/** Where this player stands in the quick-race pool. */
export const getPool = () => call('pool');
export const joinPool = (variant: VariantId) => call('joinPool', { body: { variant } });
export const leavePool = () => call('leavePool');
export const createRace = (body: RouteBody<'createRace'>) => call('createRace', { body });
export const getRace = (code: string) => call('race', { params: { code } });
export const joinRace = (code: string) => call('joinRace', { params: { code } });
export const startRace = (code: string) => call('startRace', { params: { code } });
export const leaveRace = (code: string) => call('leaveRace', { params: { code } });
export const cancelRace = (code: string) => call('cancelRace', { params: { code } });
/** A finished race's boards and moves with their times (refused with `not-finished` before). */
export const getRaceReplay = (code: string) => call('raceReplay', { params: { code } });
export const kickRacer = (code: string, playerId: number) => call('kickRacer', { params: { code }, body: { playerId } });
export const answerRematch = (code: string, answer: 'accept' | 'decline') => call('answerRematch', { params: { code }, body: { answer } });

/** Today's daily deal, or the one of `day` (YYYY-MM-DD). */
export const getDaily = (day?: string) => (day ? call('daily', { params: { day } }) : call('today'));
/** Starts today's one ranked attempt, or continues it when it is still being played. */
export const startDaily = () => call('startDaily');
export const getLeaderboard = (day: string, offset: number) => call('leaderboard', { params: { day }, query: { offset } });
export const getGame = (id: number) => call('game', { params: { id } });
/** The game's `lucie-record/1` record (another player's daily game only once its day is over). */
export const getRecord = (id: number): Promise<RecordJson> => call('record', { params: { id } });
export const createSeries = (variant: VariantId) => call('createSeries', { body: { variant } });
export const getSeries = (code: string) => call('series', { params: { code } });
/** Deal `deal` of a series to you: dealt now, or the same game while you are playing it. */
export const dealSeries = (code: string, deal: number) => call('dealSeries', { params: { code, deal } });
/** Anyone's record per variant, from their finished games. */
export const getPlayerStats = (id: number) => call('playerStats', { params: { id } });
export const getPlayerRatings = (id: number) => call('playerRatings', { params: { id } });
export const getRatingBoard = (variant: VariantId) => call('ratingBoard', { params: { variant } });
export const myGames = (offset: number) => call('myGames', { query: { offset } });
/** What the solver found on a game, once its seed is public (`pending` while it is being solved). */
export const getAnalysis = (id: number) => call('analysis', { params: { id } });
/** A day's first-deal maximum and how many attempts reached their par, once the day is over. */
export const getDailyAnalysis = (day: string) => call('dailyAnalysis', { params: { day } });
/** Races finished game `id` again as a ghost race (the same ghost race while it is played). */
export const raceGhost = (id: number) => call('raceGhost', { params: { id } });
/** A ghost race against the best recent public game of `variant` (the pool offers it to someone waiting alone). */
export const findGhost = (variant: VariantId) => call('findGhost', { body: { variant } });
/** Ghost race `id`'s ghost as it stands now (counts only). */
export const getGhost = (id: number) => call('ghost', { params: { id } });
export const getGhostReplay = (id: number) => call('ghostReplay', { params: { id } });
/** Reports a player's name or play to the operators (once per player). */
export const reportPlayer = (id: number, reason: 'name' | 'player') => call('reportPlayer', { params: { id }, body: { reason } });
