import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RawData, WebSocket } from 'ws';
import { CLIENT_MESSAGE_TYPES, clientMessage, ROUTE_SCHEMAS, ROUTES, type ClientMessage, type CodedError, type ErrorMessage, type ServerMessage } from '../../contract/index.js';
import { describeZodError, Refusal } from '../errors.js';
import { ERROR_ANSWERS } from '../http.js';
import { send, type Peer } from '../hub.js';
import { after, type Pending } from '../ports.js';

export interface SocketLimits {
  /** Frames above this many bytes are answered `too-large` and not read. */
  frameBytes: number;
  /** Frames above this close the socket (1009) before they are even buffered whole. */
  maxPayload: number;
  /** Token bucket per socket: this many frames at once... */
  burst: number;
  /** ...refilled at this rate. */
  perSecond: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = { frameBytes: 4096, maxPayload: 65_536, burst: 60, perSecond: 30 };

/** Half-open connections are found by ws pings and closed, so their player shows as disconnected. */
const HEARTBEAT_MS = 30_000;
/**
 * The sockets are pinged a slice at a time, each once a heartbeat: pinging thousands in one turn
 * would hold every ack behind their writes (and their pongs) for tens of milliseconds.
 */
const HEARTBEAT_SLICES = 30;

/** A socket as the heartbeat sees it: whether it answered the last ping, and its slice. */
type BeatingSocket = WebSocket & { lucieAlive?: boolean; lucieSlice?: number };

/** A frame budget per socket: `burst` frames at once, refilled at `perSecond`. */
class TokenBucket {
  private tokens: number;
  private last: number;
  /** Whether the client has been told it is being dropped (told once per flood). */
  warned = false;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An `error` message's fields but its type, code and params kept together. */
type ErrorFields = Omit<ErrorMessage, 'type' | 'code' | 'params'> & CodedError;

/** A frame as it arrived, within the socket's budget. */
interface Frame {
  readonly data: RawData;
  readonly isBinary: boolean;
}

/**
 * The socket route `/ws?token=TOKEN`. Every frame is budgeted, size-checked, parsed as JSON and
 * read with the one zod union; the game service does the rest. Client input never throws out
 * of here: the worst it gets is an `error`.
 */
export default fp<{ limits: SocketLimits }>(
  async (app, { limits }) => {
    let heartbeat: NodeJS.Timeout | undefined;
    await app.register(websocket, {
      options: { maxPayload: limits.maxPayload },
      // An unclean disconnect or an oversized frame: the socket is gone, the server carries on.
      errorHandler(error, socket, request) {
        request.log.info({ err: error }, 'websocket error');
        socket.terminate();
      },
      // Shutdown: moves stopped at its start (app.ts); once they are stored, goodbye to every socket.
      preClose(done) {
        clearInterval(heartbeat);
        for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
        this.websocketServer.close(() => done());
      },
    });

    // A signed-out device's token opened its sockets: they close now, on every instance.
    app.events.on('device-signed-out', ({ playerId, deviceId }) => app.transport.closeDevice(playerId, deviceId));

    let beat = 0;
    let connections = 0;
    heartbeat = setInterval(() => {
      const slice = beat++ % HEARTBEAT_SLICES;
      for (const client of app.websocketServer.clients) {
        const alive = client as BeatingSocket;
        if (alive.lucieSlice !== slice) continue;
        if (alive.lucieAlive === false) {
          client.terminate();
          continue;
        }
        alive.lucieAlive = false;
        client.ping();
      }
    }, HEARTBEAT_MS / HEARTBEAT_SLICES).unref();

    // The token comes in the query (browsers cannot set headers on a websocket); none: a spectator.
    // Read by the route's schema first, so a repeated `token` is a 400 naming it; all before the upgrade.
    // The websocket route is registered here (fastify's websocket options), from the contract's table all the same.
    const { response, ...parts } = ROUTE_SCHEMAS.socket;
    app.withTypeProvider<ZodTypeProvider>().route({
      method: ROUTES.socket.method,
      url: ROUTES.socket.path,
      schema: { ...parts, response: { ...response, ...ERROR_ANSWERS } },
      preHandler: async (request) => {
        const { token } = request.query;
        if (token === undefined) return;
        const signedIn = await app.players.byToken(token);
        if (!signedIn) throw new Refusal('unauthorized', 'the token is not valid (never given, or its device was signed out): sign in again', { field: 'token' });
        request.player = signedIn.player;
        request.device = signedIn.deviceId;
      },
      handler: async () => {
        throw new Refusal('upgrade-required', 'this is the websocket route: open it with a websocket client (Upgrade: websocket)');
      },
      wsHandler: (socket, request) => {
        const peer: Peer = { socket, player: request.player, device: request.device, watching: new Set() };
        const bucket = new TokenBucket(limits.burst, limits.perSecond, app.clock.now());
        const log = request.log.child({ playerId: peer.player?.id ?? null });
        // Handlers first, synchronously: frames sent right after the upgrade must not be lost.
        // A frame whose answer comes later (a store that answers later, a race view) holds back the
        // socket's next frames until it is answered: every frame is answered in the order it came.
        // The frame budget is spent as a frame arrives: one over it is dropped there (only its turn
        // to be refused waits), so what is held back behind a slow answer stays within the budget.
        let answering: Promise<void> | undefined;
        const take = (frame: Frame | null): Promise<void> | void => {
          try {
            return frame ? onFrame(frame.data, frame.isBinary) : overBudget();
          } catch (error) {
            failed(error);
            return undefined;
          }
        };
        const holdBack = (pending: Promise<void>) => {
          const settled: Promise<void> = pending.then(() => {
            if (answering === settled) answering = undefined;
          });
          answering = settled;
        };
        socket.on('message', (data, isBinary) => {
          const frame = bucket.take(app.clock.now()) ? { data, isBinary } : null;
          if (answering !== undefined) return holdBack(answering.then(() => take(frame)));
          const pending = take(frame);
          if (pending instanceof Promise) holdBack(pending);
        });
        (socket as BeatingSocket).lucieSlice = connections++ % HEARTBEAT_SLICES;
        socket.on('pong', () => ((socket as BeatingSocket).lucieAlive = true));
        const toLobby = (message: ServerMessage) => send(socket, message);
        socket.on('close', () => {
          try {
            app.lobby.unwatch(toLobby);
            app.hub.remove(peer);
          } catch (error) {
            log.error({ err: error }, 'cleaning up a closed socket failed');
          }
        });
        app.hub.add(peer);
        send(socket, { type: 'welcome', player: peer.player, serverTime: app.clock.now() });

        const reply = (fields: ErrorFields) => send(socket, { type: 'error', ...fields });
        const failed = (error: unknown) => {
          log.error({ err: error }, 'websocket frame handling failed');
          reply({ code: 'internal', message: 'the server failed on this message; nothing was applied', params: {} });
        };

        /** A frame over the budget: the first of a run is told so, the rest are dropped quietly. */
        function overBudget(): void {
          if (bucket.warned) return;
          bucket.warned = true;
          app.metrics.rateLimitHit('socket-frames');
          reply({
            code: 'rate-limited',
            message: `too many messages: at most ${limits.burst} at once and ${limits.perSecond} per second; this one was dropped`,
            params: { limit: limits.perSecond, seconds: 1 },
          });
        }

        function onFrame(data: RawData, isBinary: boolean): Promise<void> | void {
          bucket.warned = false;
          const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
          if (isBinary) return reply({ code: 'bad-message', message: 'frames must be JSON text, not binary', params: { field: null, issue: 'binary', min: null, max: null } });
          if (bytes.length > limits.frameBytes) {
            return reply({ code: 'too-large', message: `a message may hold at most ${limits.frameBytes} bytes (this one: ${bytes.length}); it was not read`, params: { limit: limits.frameBytes } });
          }
          let value: unknown;
          try {
            value = JSON.parse(bytes.toString('utf8'));
          } catch (error) {
            return reply({ code: 'bad-json', message: `not JSON: ${(error as Error).message}`, params: {} });
          }
          const type = isObject(value) && typeof value.type === 'string' ? value.type : undefined;
          if (type !== undefined && !(CLIENT_MESSAGE_TYPES as readonly string[]).includes(type)) {
            return reply({
              code: 'unknown-type',
              field: 'type',
              request: type.slice(0, 32),
              message: `unknown message type "${type.slice(0, 32)}" (one of ${CLIENT_MESSAGE_TYPES.join(', ')})`,
              params: { type: type.slice(0, 32) },
            });
          }
          const parsed = clientMessage.safeParse(value);
          if (!parsed.success) {
            return reply({ code: 'bad-message', ...describeZodError(parsed.error), ...(type && { request: type }) });
          }
          const message = parsed.data;
          const refuse = (refusal: Refusal | undefined) => {
            if (!refusal) return;
            reply({
              ...refusal.coded,
              message: refusal.message,
              ...(refusal.field !== undefined && { field: refusal.field }),
              ...(refusal.nextIndex !== undefined && { nextIndex: refusal.nextIndex }),
              request: message.type,
              ...('gameId' in message && { gameId: message.gameId }),
              ...('index' in message && { index: message.index }),
            });
          };
          // A store that answers later (not SQLite) settles the message then, in the game's order.
          const outcome = handleOrRefuse(message);
          if (outcome instanceof Promise) return outcome.then(refuse, failed);
          refuse(outcome);
        }

        /** A storage failure is the player's to retry, not a server fault: the write was rolled back. */
        function handleOrRefuse(message: ClientMessage): Pending<Refusal | undefined> {
          try {
            return handle(message);
          } catch (error) {
            const code = app.storage.failure(error);
            if (code === undefined) throw error;
            log.warn({ err: error, code, request: message.type }, 'storage failure: message refused, nothing changed');
            app.metrics.storageFailed('socket');
            return new Refusal('storage-unavailable', `the database cannot store this now (${code}): nothing changed, send it again in a moment`, { params: { cause: code } });
          }
        }

        /** The race's view, then (for its racer) their game, then every change as it happens. */
        async function watch(code: string): Promise<Refusal | undefined> {
          const race = await app.races.view(code);
          if (!race) return new Refusal('unknown-race', `there is no race ${code}`, { field: 'code', params: { race: code } });
          app.hub.watch(peer, code);
          send(socket, { type: 'race', race, serverTime: app.clock.now() });
          if (!peer.player) return undefined;
          const game = await app.races.gameOf(code, peer.player.id);
          if (game) send(socket, app.games.snapshot(game, code));
          return undefined;
        }

        function handle(message: ClientMessage): Pending<Refusal | undefined> {
          switch (message.type) {
            case 'ping':
              send(socket, { type: 'pong', serverTime: app.clock.now() });
              return undefined;
            case 'watch': {
              return watch(message.code);
            }
            case 'unwatch':
              app.hub.unwatch(peer, message.code);
              return undefined;
            case 'lobby':
              if (!message.on) return void app.lobby.unwatch(toLobby);
              return app.lobby.watch(toLobby).then(() => undefined);
          }
          const player = peer.player;
          if (!player) return new Refusal('unauthorized', 'spectators cannot play: open the socket with a player token', { field: 'token' });
          switch (message.type) {
            case 'action': {
              const read = performance.now();
              return after(app.games.play(player, message), (refusal) => {
                app.metrics.moveAnswered(refusal?.code, (performance.now() - read) / 1000);
                return refusal;
              });
            }
            case 'resign':
              return app.games.resign(player, message.gameId);
            case 'resync': {
              return after(app.games.resync(player, message.gameId, message.lastIndex, (game) => app.races.codeOf(game)), (answer) => {
                if (answer instanceof Refusal) return answer;
                send(socket, answer);
                return undefined;
              });
            }
          }
        }
      },
    });
  },
  { name: 'ws', dependencies: ['players', 'games', 'races', 'pool'] },
);
