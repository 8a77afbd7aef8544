import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { makeAction, parseAction, parseLayout, Position, type Action, type Layout, type VariantId } from '../../shared/index.js';
import { buildApp, type AppOptions } from '../../server/app.js';
import type { Clock } from '../../server/clock.js';
import { races } from '../../server/db/schema.js';
import type { Pending } from '../../server/ports.js';
import type { ClientMessageInput, RaceView, ServerMessage, ServerMessageOf } from '../../contract/index.js';

export interface TestServer {
  app: FastifyInstance;
  /** ws://127.0.0.1:PORT */
  wsBase: string;
}

/**
 * A real server on 127.0.0.1 and a free port, in memory, quiet, with an instant countdown and a
 * frame budget a scripted player (far faster than a person) stays within.
 */
export async function startServer(options: Partial<AppOptions> = {}): Promise<TestServer> {
  const app = await buildApp({
    dataDir: ':memory:',
    logLevel: 'silent',
    clientDir: null,
    countdownMs: 0,
    ...options,
    socketLimits: { burst: 1000, perSecond: 1000, ...options.socketLimits },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, wsBase: `ws://127.0.0.1:${address.port}` };
}

export interface TestPlayer {
  id: number;
  name: string;
  token: string;
}

export async function createPlayer(app: FastifyInstance, name: string): Promise<TestPlayer> {
  const response = await app.inject({ method: 'POST', url: '/api/players', payload: { name } });
  if (response.statusCode !== 201) throw new Error(response.body);
  const { player, token } = response.json();
  return { ...player, token };
}

export async function api(app: FastifyInstance, method: 'GET' | 'POST', url: string, player?: TestPlayer, payload?: object) {
  const response = await app.inject({
    method,
    url,
    ...(player && { headers: { authorization: `Bearer ${player.token}` } }),
    ...(payload && { payload }),
  });
  return { status: response.statusCode, body: response.json() };
}

export async function createRace(app: FastifyInstance, creator: TestPlayer, options: object = {}): Promise<RaceView> {
  const { status, body } = await api(app, 'POST', '/api/races', creator, options);
  if (status !== 201) throw new Error(JSON.stringify(body));
  return body.race;
}

/** Gives a race a known seed before it starts (a test needs a deal it can win). */
export function setSeed(app: FastifyInstance, code: string, seed: string): void {
  app.db.update(races).set({ seed }).where(eq(races.code, code)).run();
}

/** Every row of the tables a bad message must not touch, to compare before and after. */
export function dbState(app: FastifyInstance): unknown {
  const tables = ['players', 'races', 'race_entries', 'games', 'game_deals', 'game_actions'];
  return Object.fromEntries(tables.map((table) => [table, app.db.all(sql.raw(`select * from ${table} order by 1, 2`))]));
}

/** A websocket client that keeps every message and waits for the next one of a type. */
export class Client {
  readonly messages: ServerMessage[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static async connect(wsBase: string, player?: TestPlayer): Promise<Client> {
    const socket = new WebSocket(`${wsBase}/ws${player ? `?token=${encodeURIComponent(player.token)}` : ''}`);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await client.next('welcome');
    return client;
  }

  send(message: ClientMessageInput): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.socket.send(data, { binary });
  }

  /** The next message of `type` (after the previous one returned), skipping others. */
  async next<T extends ServerMessage['type']>(type: T, match: (message: ServerMessageOf<T>) => boolean = () => true, ms = 5000): Promise<ServerMessageOf<T>> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const message = this.messages[this.cursor++]!;
        if (message.type === type && match(message as ServerMessageOf<T>)) return message as ServerMessageOf<T>;
      }
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} within ${ms} ms; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the server closes the socket. */
  async whenClosed(ms = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket still open');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.closed;
  }

  /** A round trip: everything the server sent before its pong has arrived. */
  async settle(): Promise<void> {
    this.send({ type: 'ping' });
    await this.next('pong');
  }

  /** Messages of `type` received so far (all of them, not just after the cursor). */
  all<T extends ServerMessage['type']>(type: T): ServerMessageOf<T>[] {
    return this.messages.filter((message) => message.type === type) as ServerMessageOf<T>[];
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** A client's copy of its game, advanced only by the server's acks: what a real client does. */
export class Mirror {
  readonly position: Position;
  readonly actions: string[] = [];

  constructor(
    readonly gameId: number,
    readonly variant: VariantId,
    firstLayout: readonly string[],
  ) {
    this.position = unwrap(Position.start(variant, layoutOf(firstLayout)));
  }

  static of(game: ServerMessageOf<'game'>): Mirror {
    return new Mirror(game.gameId, game.variant, game.deals[0]!);
  }

  /** A sensible next action (see `chooseAction`). */
  choose(): Action | undefined {
    return chooseAction(this.position);
  }

  apply(ack: ServerMessageOf<'ack'> | Omit<ServerMessageOf<'ack'>, 'type'>): void {
    if (ack.index !== this.actions.length) throw new Error(`ack ${ack.index} out of order (have ${this.actions.length})`);
    const action = unwrap(parseAction(ack.action));
    this.position.play(action, ack.layout && layoutOf(ack.layout));
    this.actions.push(ack.action);
  }
}

/** A sensible next action: a card home, else a fan move, else a redeal; undefined when over. */
export function chooseAction(position: Position): Action | undefined {
  const legal = position.legalActions();
  const moves = legal.filter((action) => action.type !== 'redeal');
  return moves.find((action) => action.type === 'fan-to-foundation') ?? moves[0] ?? legal[0];
}

/**
 * A daily secret whose 2026-11-29 deal (the ManualClock's first day) `chooseAction` wins in 67
 * actions without a redeal, so the same for every attempt whatever its redeal stream (found by
 * trying secrets); its 2026-11-30 deal `chooseAction` loses after redeals.
 */
export const TEST_DAILY_SECRET = 'test-daily-secret-0763-for-the-server-suite';

/** The value of a call on the SQLite store, which answers in the same turn: a promise here would be a change of path. */
export function now<T>(value: Pending<T>): T {
  if (value instanceof Promise) throw new Error('the SQLite path waited for a promise');
  return value;
}

/**
 * Plays `chooseAction` for `player` straight through the game service (the path every socket
 * action takes), at most `count` actions or to the end; returns the actions played.
 */
export function autoplay(app: FastifyInstance, player: TestPlayer, gameId: number, count = Number.POSITIVE_INFINITY): string[] {
  const game = now(app.games.get(gameId))!;
  const played: string[] = [];
  for (let action = chooseAction(game.position); action && played.length < count; action = chooseAction(game.position)) {
    const refusal = app.games.play(player, { gameId, index: game.actions.length, action: makeAction(action) });
    // The SQLite store answers at once: a promise here would be a change of path.
    if (refusal) throw new Error(refusal instanceof Promise ? 'the move path waited' : `${refusal.code}: ${refusal.message}`);
    played.push(game.actions[game.actions.length - 1]!);
  }
  return played;
}

/** Plays `action` as the next index and waits for its ack, applying it to the mirror. */
export async function play(client: Client, mirror: Mirror, action: Action): Promise<ServerMessageOf<'ack'>> {
  const index = mirror.actions.length;
  client.send({ type: 'action', gameId: mirror.gameId, index, action: makeAction(action) });
  const ack = await client.next('ack', (message) => message.gameId === mirror.gameId && message.index === index);
  mirror.apply(ack);
  return ack;
}

/** Plays the mirror's choices until the game is over; returns how many actions it made. */
export async function playToEnd(client: Client, mirror: Mirror): Promise<number> {
  let played = 0;
  for (let action = mirror.choose(); action; action = mirror.choose()) {
    await play(client, mirror, action);
    played++;
  }
  return played;
}

export function layoutOf(fans: readonly string[]): Layout {
  return unwrap(parseLayout(fans));
}

export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(String(result.error));
  return result.value;
}

/** A clock that moves only when told: `advance` runs the timers that fall due, `jump` does not. */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void; cancelled: boolean }[] = [];

  constructor(private time = Date.UTC(2026, 10, 29, 12)) {}

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + Math.max(0, ms), fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  advance(ms: number): void {
    this.time += ms;
    for (;;) {
      const due = this.timers.filter((timer) => !timer.cancelled && timer.at <= this.time).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.cancelled = true;
      due.fn();
    }
    this.timers = this.timers.filter((timer) => !timer.cancelled);
  }

  /** Moves time without running any timer: a timer that fires late. */
  jump(ms: number): void {
    this.time += ms;
  }

  /** Timers set and neither run nor cancelled. */
  get pending(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }
}
