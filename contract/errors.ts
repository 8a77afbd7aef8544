/**
 * The one error vocabulary of Lucie. Every refusal, over HTTP (`{statusCode, code, message,
 * field?}`) or on the socket (`error {code, message, field?, ...}`), carries one of these codes;
 * the HTTP status of each is decided here and nowhere else. Plain constants (no zod) so the
 * client can compare codes at run time for nothing.
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
  // What does not exist (yet).
  'not-found', // no such route
  'method-not-allowed', // the route exists, not with this method
  'unknown-race', // no race with that code
  'unknown-game', // no game with that id
  'unknown-player', // no player with that id
  'day-not-open', // the daily deal of a future day
  'unknown-series', // no series with that code
  // What the state of things forbids.
  'race-started', // joining a race that has started
  'race-full', // joining a race with every seat taken
  'not-in-lobby', // starting a race that has started
  'not-enough-racers', // starting a race with one racer
  'not-seated', // leaving a lobby twice, removing someone without a seat
  'cannot-kick-self', // the creator removing themselves (leave instead)
  'race-closed', // joining, starting or cancelling a closed race (the message says why it closed)
  'not-finished', // a rematch or a race replay before the standings
  'daily-played', // a second attempt at the day's deal
  'series-deal-played', // asking again for a deal of a series you have finished
  'series-deal-ahead', // asking for a deal of a series past the one you are on
  'game-over', // the game has ended: no more actions
  'illegal-action', // the engine refuses the action (message gives the rule)
  'index-ahead', // an action's index past the game's next one
  'index-conflict', // a different action was already applied at that index
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
  'not-found': 404,
  'method-not-allowed': 405,
  'unknown-race': 404,
  'unknown-game': 404,
  'unknown-player': 404,
  'day-not-open': 404,
  'unknown-series': 404,
  'race-started': 409,
  'race-full': 409,
  'not-in-lobby': 409,
  'not-enough-racers': 409,
  'not-seated': 409,
  'cannot-kick-self': 409,
  'race-closed': 409,
  'not-finished': 409,
  'daily-played': 409,
  'series-deal-played': 409,
  'series-deal-ahead': 409,
  'game-over': 409,
  'illegal-action': 409,
  'index-ahead': 409,
  'index-conflict': 409,
  'server-closing': 503,
  'storage-unavailable': 503,
  internal: 500,
};

