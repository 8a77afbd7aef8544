import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, vi } from 'vitest';
import { makeAction } from '../../shared/index.js';
import { buildApp, type AppOptions } from '../../server/app.js';
import type { Clock } from '../../server/clock.js';
import { races } from '../../server/db/schema.js';
import type { Pending } from '../../server/ports.js';
import type { AnalysisAnswer, ProgressView, RaceView, ServerMessageOf } from '../../contract/index.js';
import { homeFirst } from '../support/mirror.js';
import type { Client } from '../support/socket-client.js';
import type { TestDatabase } from './pg.js';

// The shared kit (test/support): the socket client, the mirror, the policies.
export { Client } from '../support/socket-client.js';
export { homeFirst, layoutOf, Mirror, play, playToEnd, unwrap } from '../support/mirror.js';

/** A racer's entry in a `progress` message (which holds every racer who moved in its window), if they are in it. */
export const racerIn = (message: ServerMessageOf<'progress'>, playerId: number): ProgressView | undefined => message.progress.find((entry) => entry.playerId === playerId);

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

/**
 * A daily secret whose 2026-11-29 deal (the ManualClock's first day) `homeFirst` wins in 67
 * actions without a redeal, so the same for every attempt whatever its redeal stream (found by
 * trying secrets); its 2026-11-30 deal `homeFirst` loses after redeals.
 */
/** What a file's tests open (servers, sockets, PostgreSQL databases), each list emptied and closed after every test. */
export function closedAfterEach(): { servers: TestServer[]; clients: Client[]; databases: TestDatabase[] } {
  const opened = { servers: [] as TestServer[], clients: [] as Client[], databases: [] as TestDatabase[] };
  afterEach(async () => {
    for (const client of opened.clients.splice(0)) client.close();
    await Promise.all(opened.servers.splice(0).map((server) => server.app.close()));
    await Promise.all(opened.databases.splice(0).map((database) => database.drop()));
  });
  return opened;
}

export const TEST_DAILY_SECRET = 'test-daily-secret-0763-for-the-server-suite';

/** What most server suites start from: a server on a manual clock (from `start`), with Ana and Bob named. */
export interface AnaAndBob {
  server: TestServer;
  clock: ManualClock;
  ana: TestPlayer;
  bob: TestPlayer;
}
export async function anaAndBob(options: Partial<AppOptions> = {}, start?: number): Promise<AnaAndBob> {
  const clock = new ManualClock(start);
  const server = await startServer({ clock, ...options });
  return { server, clock, ana: await createPlayer(server.app, 'Ana'), bob: await createPlayer(server.app, 'Bob') };
}

/** GETs a game's analysis until it is no longer pending (the worker answers in its own time). */
export async function settledAnalysis(app: FastifyInstance, gameId: number, viewer?: TestPlayer): Promise<AnalysisAnswer> {
  let answer: AnalysisAnswer | undefined;
  await vi.waitFor(
    async () => {
      const { status, body } = await api(app, 'GET', `/api/games/${gameId}/analysis`, viewer);
      expect(status).toBe(200);
      expect(body.status).not.toBe('pending');
      answer = body;
    },
    { timeout: 30_000, interval: 50 },
  );
  return answer!;
}

/** The value of a call on the SQLite store that answers in the same turn (every call but a move, which waits for its turn's commit): a promise here would be a change of path. */
export function now<T>(value: Pending<T>): T {
  if (value instanceof Promise) throw new Error('the SQLite path waited for a promise');
  return value;
}

/**
 * Plays `homeFirst` for `player` straight through the game service (the path every socket
 * action takes), at most `count` actions or to the end; returns the actions played. Each move
 * is awaited: the SQLite store commits the moves of a turn together, after the turn.
 */
export async function autoplay(app: FastifyInstance, player: TestPlayer, gameId: number, count = Number.POSITIVE_INFINITY): Promise<string[]> {
  const game = now(app.games.get(gameId))!;
  const played: string[] = [];
  for (let action = homeFirst(game.position); action && played.length < count; action = homeFirst(game.position)) {
    const refusal = await app.games.play(player, { gameId, index: game.actions.length, action: makeAction(action) });
    if (refusal) throw new Error(`${refusal.code}: ${refusal.message}`);
    played.push(game.actions[game.actions.length - 1]!);
  }
  return played;
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
