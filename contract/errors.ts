import type { Problem, VariantId } from '../shared/index.js';
import type { ClosedReason, GameState } from './vocabulary.js';

/**
 * The one error vocabulary of Lucie. Every refusal, over HTTP (`{statusCode, code, message,
 * params, field?}`) or on the socket (`error {code, message, params, field?, ...}`), carries one
 * of these codes and the parameters its code lists in `ERROR_PARAMS`: a client words it from the
 * code and the parameters alone (`message` is the English for API consumers and logs). The HTTP
 * status of each is decided here and nowhere else. Plain constants (no zod) so the client can
 * compare codes at run time for nothing.
 */
export const ERROR_CODES = [
  // The request itself is malformed.
  'bad-json', // the body or frame is not JSON
  'bad-message', // a socket frame is JSON but not a valid message (field names the path, message the rule)
  'unknown-type', // a socket frame's `type` is not a client message type
  'invalid-body', // an HTTP body breaks its schema
  'invalid-query', // the query string breaks its schema (a repeated parameter included)
  'invalid-param', // a path parameter breaks its schema (a race code, a game id, a day)
  'bad-request', // any other malformed HTTP request (a bad URL encoding, a wrong content type)
  'too-large', // a body or frame over the size limit (nothing read)
  'unsupported-media-type', // an HTTP body that is not JSON by its content type
  'upgrade-required', // a plain HTTP request to the websocket route
  'uri-too-long', // a URL over the length limit
  'rate-limited', // too many requests or frames: this one was dropped
  'too-many-sockets', // too many websockets open from one address
  // Who may do what.
  'unauthorized', // no valid player token
  'not-your-game', // the game belongs to another player
  'not-creator', // only a race's creator may start it, remove a racer or cancel it
  'not-a-racer', // a rematch of a race you were not in
  'game-in-progress', // another player's game is being played: its moves are hidden
  'record-hidden', // the contest is on: a finished game's moves stay hidden until it is over
  'analysis-hidden', // the contest is on: a game's analysis (it shows later layouts) waits for its seed to be public
  'banned', // an operator banned this identity: it may not play or connect
  'name-refused', // a name breaks a rule of the refused-words list (params name the rule)
  'already-reported', // a second report of the same player by the same reporter
  'cannot-report-self', // reporting yourself
  // What does not exist (yet).
  'not-found', // no such route
  'method-not-allowed', // the route exists, not with this method
  'unknown-race', // no race with that code
  'unknown-game', // no game with that id
  'unknown-player', // no player with that id
  'day-not-open', // the daily deal of a future day
  'unknown-series', // no series with that code
  'unknown-link', // no device link with that code
  'unknown-device', // no signed-in device of yours with that id
  'unknown-passkey', // no passkey of yours with that id
  'no-ghost', // no stored finished public game of that variant to race against
  // What the state of things forbids.
  'race-started', // joining a race that has started
  'race-full', // joining a race with every seat taken
  'not-in-lobby', // starting a race that has started
  'not-enough-racers', // starting a race with one racer
  'not-seated', // leaving a lobby twice, removing someone without a seat
  'cannot-kick-self', // the creator removing themselves (leave instead)
  'race-closed', // joining, starting or cancelling a closed race (the message says why it closed)
  'not-finished', // a rematch or a race replay before the standings
  'pool-paired', // leaving the quick-race pool once it seated you, or joining it while seated in a live race
  'daily-played', // a second attempt at the day's deal
  'series-deal-played', // asking again for a deal of a series you have finished
  'series-deal-ahead', // asking for a deal of a series past the one you are on
  'link-expired', // a device link past its 10 minutes
  'link-used', // a device link claimed already (each works once)
  'passkey-refused', // a passkey ceremony that does not check out (issue: challenge, origin, signature, credential...)
  'game-over', // the game has ended: no more actions
  'illegal-action', // the engine refuses the action (message gives the rule)
  'index-ahead', // an action's index past the game's next one
  'index-conflict', // a different action was already applied at that index
  'ghost-playing', // starting a ghost race while another of yours is being played (game: that one)
  'ghost-not-over', // a ghost race's replay while it is still being played (its moves and the ghost's cards stay hidden)
  // The server.
  'server-closing', // shutting down: retry after reconnecting
  'storage-unavailable', // the database could not store it (disk full, locked, failing): nothing changed, retry later
  'internal', // a server fault; nothing was applied
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The HTTP status of each code (socket-only codes too, so a refusal reads the same on either transport). */
export const ERROR_STATUS: { readonly [code in ErrorCode]: number } = {
  'bad-json': 400,
  'bad-message': 400,
  'unknown-type': 400,
  'invalid-body': 400,
  'invalid-query': 400,
  'invalid-param': 400,
  'bad-request': 400,
  'too-large': 413,
  'unsupported-media-type': 415,
  'upgrade-required': 426,
  'uri-too-long': 414,
  'rate-limited': 429,
  'too-many-sockets': 429,
  unauthorized: 401,
  'not-your-game': 403,
  'not-creator': 403,
  'not-a-racer': 403,
  'game-in-progress': 403,
  'record-hidden': 403,
  'analysis-hidden': 403,
  banned: 403,
  'name-refused': 400,
  'already-reported': 409,
  'cannot-report-self': 409,
  'not-found': 404,
  'method-not-allowed': 405,
  'unknown-race': 404,
  'unknown-game': 404,
  'unknown-player': 404,
  'day-not-open': 404,
  'unknown-series': 404,
  'unknown-link': 404,
  'unknown-device': 404,
  'unknown-passkey': 404,
  'no-ghost': 404,
  'race-started': 409,
  'race-full': 409,
  'not-in-lobby': 409,
  'not-enough-racers': 409,
  'not-seated': 409,
  'cannot-kick-self': 409,
  'race-closed': 409,
  'not-finished': 409,
  'pool-paired': 409,
  'daily-played': 409,
  'series-deal-played': 409,
  'series-deal-ahead': 409,
  'link-expired': 410,
  'link-used': 410,
  'passkey-refused': 400,
  'game-over': 409,
  'illegal-action': 409,
  'index-ahead': 409,
  'index-conflict': 409,
  'ghost-playing': 409,
  'ghost-not-over': 409,
  'server-closing': 503,
  'storage-unavailable': 503,
  internal: 500,
};


/** Why a game's moves or analysis are hidden: it is being played, or its race, day or series keeps them. */
export const HIDDEN_REASONS = ['playing', 'race', 'daily', 'series'] as const;
export type HiddenReason = (typeof HIDDEN_REASONS)[number];

/**
 * Every refusal parameter by name: a name means one kind of value wherever it appears, so a
 * message catalogue formats a parameter by its kind. A kind ending in `?` may be null.
 */
export const ERROR_PARAM_KINDS = {
  /** The offending field as a dotted path (`seats`, `index`), null when the whole input is to blame. */
  field: 'text?',
  /** What the input broke: zod's issue code (`too_small`, `too_big`, `invalid_type`, `unrecognized_keys`, ...), a refinement's rule (`name-length`), or `repeated`. */
  issue: 'text',
  /** The bounds of the broken rule, when it has them. */
  min: 'number?',
  max: 'number?',
  /** A socket message's unknown `type`. */
  type: 'text',
  method: 'text',
  path: 'text',
  /** The methods a path answers, comma-separated. */
  allowed: 'text',
  /** A limit that was reached (requests per window, sockets per address, frame bytes, racers needed). */
  limit: 'number',
  /** The window of a rate limit, in seconds. */
  seconds: 'number',
  race: 'text',
  game: 'number',
  device: 'number',
  passkey: 'number',
  player: 'number',
  series: 'text',
  day: 'text',
  today: 'text',
  variant: 'variant',
  seats: 'number',
  reason: 'closed-reason',
  hidden: 'hidden-reason',
  /** The race code, day or series code that keeps a game's moves hidden (null while it is played). */
  scope: 'text?',
  state: 'game-state',
  foundations: 'number',
  deal: 'number',
  /** The series deal or action index to go on with; null when none is left. */
  next: 'number?',
  /** Whether the series deal to go on with is being played. */
  playing: 'flag',
  action: 'text',
  /** The engine's problem with an action (shared/problem.ts): its own code and parameters. */
  problem: 'problem',
  index: 'number',
  /** The action stored at an index. */
  stored: 'text',
  /** The storage failure's code (`SQLITE_FULL`, `53100`), when known. */
  cause: 'text?',
  /** The section (rule) of the refused-words list a name broke (`offensive`, `impersonation`). */
  category: 'text',
} as const;
export type ErrorParamName = keyof typeof ERROR_PARAM_KINDS;
export type ErrorParamKind = (typeof ERROR_PARAM_KINDS)[ErrorParamName];

/** The value each kind of refusal parameter holds. */
export interface ErrorParamValues {
  text: string;
  'text?': string | null;
  number: number;
  'number?': number | null;
  flag: boolean;
  'closed-reason': ClosedReason;
  'hidden-reason': HiddenReason;
  'game-state': GameState;
  problem: Problem;
  variant: VariantId;
}

/** The parameters of each error code, by name: the data a client catalogue is checked against. */
export const ERROR_PARAMS = {
  'bad-json': [],
  'bad-message': ['field', 'issue', 'min', 'max'],
  'unknown-type': ['type'],
  'invalid-body': ['field', 'issue', 'min', 'max'],
  'invalid-query': ['field', 'issue', 'min', 'max'],
  'invalid-param': ['field', 'issue', 'min', 'max'],
  'bad-request': [],
  'too-large': ['limit'],
  'unsupported-media-type': [],
  'upgrade-required': [],
  'uri-too-long': [],
  'rate-limited': ['limit', 'seconds'],
  'too-many-sockets': ['limit'],
  unauthorized: [],
  'not-your-game': ['game'],
  'not-creator': ['race'],
  'not-a-racer': ['race'],
  'game-in-progress': ['game'],
  'record-hidden': ['game', 'hidden', 'scope'],
  'analysis-hidden': ['hidden', 'scope'],
  banned: ['player'],
  'name-refused': ['field', 'category'],
  'already-reported': ['player'],
  'cannot-report-self': ['player'],
  'not-found': ['method', 'path'],
  'method-not-allowed': ['method', 'path', 'allowed'],
  'unknown-race': ['race'],
  'unknown-game': ['game'],
  'unknown-player': ['player'],
  'day-not-open': ['day', 'today'],
  'unknown-series': ['series'],
  'unknown-link': [],
  'unknown-device': ['device'],
  'unknown-passkey': ['passkey'],
  'no-ghost': ['variant'],
  'race-started': ['race'],
  'race-full': ['race', 'seats'],
  'not-in-lobby': ['race'],
  'not-enough-racers': ['race', 'limit'],
  'not-seated': ['race'],
  'cannot-kick-self': ['race'],
  'race-closed': ['race', 'reason'],
  'not-finished': ['race'],
  'pool-paired': ['race'],
  'daily-played': ['day', 'state', 'foundations'],
  'series-deal-played': ['series', 'deal', 'state', 'foundations', 'next'],
  'series-deal-ahead': ['series', 'deal', 'next', 'playing'],
  'link-expired': [],
  'link-used': [],
  'passkey-refused': ['issue'],
  'game-over': ['game', 'state'],
  'illegal-action': ['action', 'problem'],
  'index-ahead': ['index', 'next'],
  'index-conflict': ['index', 'stored', 'next'],
  'ghost-playing': ['game'],
  'ghost-not-over': ['game'],
  'server-closing': [],
  'storage-unavailable': ['cause'],
  internal: [],
} as const satisfies { readonly [code in ErrorCode]: readonly ErrorParamName[] };

/** The parameters a refusal with code `C` carries (for a union of codes, the union of their parameters). */
export type ErrorParams<C extends ErrorCode> = C extends ErrorCode
  ? { readonly [P in (typeof ERROR_PARAMS)[C][number]]: ErrorParamValues[(typeof ERROR_PARAM_KINDS)[P]] }
  : never;

/** A refusal's code with its parameters, one member per code: what a client words a refusal from. */
export type CodedError = { [C in ErrorCode]: { readonly code: C; readonly params: ErrorParams<C> } }[ErrorCode];

/** Whether `params` holds exactly the parameter names `code` lists (the wire schemas check every refusal with it). */
export function hasErrorParams(code: ErrorCode, params: Readonly<Record<string, unknown>>): boolean {
  const names: readonly string[] = ERROR_PARAMS[code];
  const keys = Object.keys(params);
  return keys.length === names.length && keys.every((key) => names.includes(key));
}
