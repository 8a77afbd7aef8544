import type {
  AnalysisAnswer,
  DailyAnalysisAnswer,
  CreatePlayerAnswer,
  ErrorCode,
  CreateRaceBody,
  DailyAnswer,
  DailyStartAnswer,
  GameSummaryAnswer,
  HistoryAnswer,
  HttpError,
  LeaderboardAnswer,
  MeAnswer,
  RaceAnswer,
  PlayerStatsAnswer,
  RaceReplayAnswer,
  SeriesAnswer,
  SeriesDealAnswer,
} from './contract.js';
import type { VariantId } from './engine.js';
import type { RecordJson } from './engine.js';
import { t } from './i18n.svelte.js';
import { forget, identity, remember } from './identity.svelte.js';
import { refusalText } from './refusals.js';

/** An HTTP error from the server, with its stable code and the field to blame. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** One of the server's codes, or `network` (no answer) or `http` (an answer that is not the error shape). */
    readonly code: ErrorCode | 'network' | 'http',
    message: string,
    readonly field?: string,
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

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
    throw new ApiError(response.status, error?.code ?? 'http', error?.message ?? `${response.status} ${response.statusText}`, error?.field);
  }
  return data as T;
}

export async function createPlayer(name: string): Promise<void> {
  const answer = await request<CreatePlayerAnswer>('POST', '/api/players', { name });
  remember(answer.player, answer.token);
}

export const me = (): Promise<MeAnswer> => request('GET', '/api/me');
export const createRace = (body: CreateRaceBody): Promise<RaceAnswer> => request('POST', '/api/races', body);
export const getRace = (code: string): Promise<RaceAnswer> => request('GET', `/api/races/${encodeURIComponent(code)}`);
export const joinRace = (code: string): Promise<RaceAnswer> => request('POST', `/api/races/${encodeURIComponent(code)}/join`, {});
export const startRace = (code: string): Promise<RaceAnswer> => request('POST', `/api/races/${encodeURIComponent(code)}/start`, {});
export const leaveRace = (code: string): Promise<RaceAnswer> => request('POST', `/api/races/${encodeURIComponent(code)}/leave`, {});
export const cancelRace = (code: string): Promise<RaceAnswer> => request('POST', `/api/races/${encodeURIComponent(code)}/cancel`, {});
/** A finished race's boards and moves with their times (refused with `not-finished` before). */
export const getRaceReplay = (code: string): Promise<RaceReplayAnswer> => request('GET', `/api/races/${encodeURIComponent(code)}/replay`);
export const kickRacer = (code: string, playerId: number): Promise<RaceAnswer> =>
  request('POST', `/api/races/${encodeURIComponent(code)}/kick`, { playerId });
export const answerRematch = (code: string, answer: 'accept' | 'decline'): Promise<RaceAnswer> =>
  request('POST', `/api/races/${encodeURIComponent(code)}/rematch`, { answer });

/** Today's daily deal, or the one of `day` (YYYY-MM-DD). */
export const getDaily = (day?: string): Promise<DailyAnswer> => request('GET', day ? `/api/daily/${encodeURIComponent(day)}` : '/api/daily');
/** Starts today's one ranked attempt, or continues it when it is still being played. */
export const startDaily = (): Promise<DailyStartAnswer> => request('POST', '/api/daily/start', {});
export const getLeaderboard = (day: string, offset: number): Promise<LeaderboardAnswer> =>
  request('GET', `/api/daily/${encodeURIComponent(day)}/leaderboard?offset=${offset}`);
export const getGame = (id: number): Promise<GameSummaryAnswer> => request('GET', `/api/games/${id}`);
/** The game's `lucie-record/1` record (another player's daily game only once its day is over). */
export const getRecord = (id: number): Promise<RecordJson> => request('GET', `/api/games/${id}/record`);
/** Anyone's record per variant, from their finished games. */
export const createSeries = (variant: VariantId): Promise<SeriesAnswer> => request('POST', '/api/series', { variant });
export const getSeries = (code: string): Promise<SeriesAnswer> => request('GET', `/api/series/${encodeURIComponent(code)}`);
/** Deal `deal` of a series to you: dealt now, or the same game while you are playing it. */
export const dealSeries = (code: string, deal: number): Promise<SeriesDealAnswer> =>
  request('POST', `/api/series/${encodeURIComponent(code)}/deals/${deal}`, {});
export const getPlayerStats = (id: number): Promise<PlayerStatsAnswer> => request('GET', `/api/players/${id}/stats`);
export const myGames = (offset: number): Promise<HistoryAnswer> => request('GET', `/api/me/games?offset=${offset}`);
/** What the solver found on a game, once its seed is public (`pending` while it is being solved). */
export const getAnalysis = (id: number): Promise<AnalysisAnswer> => request('GET', `/api/games/${id}/analysis`);
/** A day's first-deal maximum and how many attempts reached their par, once the day is over. */
export const getDailyAnalysis = (day: string): Promise<DailyAnalysisAnswer> => request('GET', `/api/daily/${day}/analysis`);
