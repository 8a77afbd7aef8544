/**
 * The websocket protocol: one discriminated union on `type` per direction.
 *
 * Flow (details in server/API.md):
 * 1. The socket opens at `/ws?token=TOKEN` (no token: a read-only spectator; a wrong token is
 *    refused with 401 before the upgrade). The server says `welcome`.
 * 2. `watch {code}` subscribes to a race: the server answers `race` (the whole race view) and,
 *    for a racer whose game is dealt, `game` (the full snapshot of their own game). Every later
 *    change of the race comes as a new `race`; each racer's moves and status changes come as
 *    `progress` (one message per race and window holding every racer who moved, at their latest
 *    state; status changes at once).
 * 3. When the countdown ends every racer gets `game` (deals[0], no actions) at the same moment.
 *    A move is `action {gameId, index, action}`, `index` being its 0-based place in that game.
 *    The server checks it with the engine, stores it, then answers `ack` (with the new layout
 *    after a redeal `R`) and broadcasts `progress`. When the game ends the player also gets
 *    `game-over`.
 * 4. Resending an action already applied at that index gets the same `ack` again; a different
 *    action at a used index (`index-conflict`) or an index past the next one (`index-ahead`)
 *    gets an `error` carrying `nextIndex`. After a reconnect, `resync {gameId, lastIndex}`
 *    answers `resynced` with exactly the acks after `lastIndex` (-1: all of them).
 * 5. Anything the server cannot accept gets `error {code, message, field?}` and changes nothing.
 *
 * Times are epoch milliseconds (server clock; `serverTime` lets a client correct its own).
 */
import { z } from 'zod';
import { ERROR_CODES, hasErrorParams, type CodedError } from './errors.js';
import { ACTION_MAX_LENGTH } from './vocabulary.js';
import { lobbyView, poolStatus } from './lobby.js';
import { gameId, gameSnapshot, gameStatus, playerView, progressView, raceCode, raceEvent, raceView } from './views.js';

// ---------------------------------------------------------------- client → server

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
  /** Subscribes to the public lobby (`on: true`: answered at once with `lobby`, then at most one `lobby` per window) or stops. */
  z.strictObject({ type: z.literal('lobby'), on: z.boolean() }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;
/** What a client writes (a code may be lower case; the server normalises it). */
export type ClientMessageInput = z.input<typeof clientMessage>;
export type ClientMessageType = ClientMessage['type'];
/** Read from the union, so a new message type is listed by adding it there. */
export const CLIENT_MESSAGE_TYPES: readonly ClientMessageType[] = clientMessage.options.map((option) => option.shape.type.value);

// ---------------------------------------------------------------- server → client

/** One acknowledged action; `layout` (makeLayout strings) only after a redeal `R`. */
export const ackBody = z.object({
  gameId,
  index: z.number().int(),
  action: z.string(),
  layout: z.array(z.string()).optional(),
});

export const errorMessage = z.object({
  type: z.literal('error'),
  code: z.enum(ERROR_CODES),
  /** English, for API consumers and logs; a client words the refusal from `code` and `params`. */
  message: z.string(),
  /** The parameters the code lists in `ERROR_PARAMS` (contract/errors.ts), exactly. */
  params: z.record(z.string(), z.unknown()),
  /** The offending field as a dotted path (e.g. `index`, `code`), when one is to blame. */
  field: z.string().optional(),
  /** The client message type that caused it, when known. */
  request: z.string().optional(),
  gameId: z.number().optional(),
  index: z.number().optional(),
  /** For action errors: the index the server expects next. */
  nextIndex: z.number().optional(),
});

export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), player: playerView.nullable(), serverTime: z.number() }),
  z.object({ type: z.literal('race'), race: raceView, serverTime: z.number() }),
  /** Every racer of the race whose game changed since the last `progress`, each at its latest (one message per window, see server/API.md). */
  z.object({ type: z.literal('progress'), code: z.string(), progress: z.array(progressView).min(1) }),
  gameSnapshot,
  ackBody.extend({ type: z.literal('ack') }),
  z.object({ type: z.literal('resynced'), gameId, acks: z.array(ackBody), status: gameStatus }),
  z.object({ type: z.literal('game-over'), gameId, status: gameStatus }),
  errorMessage,
  z.object({ type: z.literal('pong'), serverTime: z.number() }),
  /** The public lobby as it stands: on `lobby {on: true}`, then when it changed, at most once per window. */
  z.object({ type: z.literal('lobby'), lobby: lobbyView, serverTime: z.number() }),
  /** This player's place in the quick-race pool, whenever it changes (the count waiting, paired, the ghost offer, put out). */
  z.object({ type: z.literal('pool'), pool: poolStatus }),
  /** Sent just before the new `race` view when a seat or the race itself changed hands or closed. */
  z.object({ type: z.literal('race-event'), code: z.string(), event: raceEvent }),
]);
export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
export type AckBody = z.infer<typeof ackBody>;
/** The socket's `error`, its params typed by its code. */
export type ErrorMessage = Omit<z.infer<typeof errorMessage>, 'code' | 'params'> & CodedError;
/** What the server sends; an `error`'s params typed by its code. */
export type ServerMessage = Exclude<z.infer<typeof serverMessage>, { type: 'error' }> | ErrorMessage;

/** Whether an `error` message's params are exactly its code's (a test holds every refusal sent to it). */
export const errorParamsMatch = (message: Pick<z.infer<typeof errorMessage>, 'code' | 'params'>): boolean => hasErrorParams(message.code, message.params);
