// The daily deal: the seed (HMAC of the day, secret kept or given, hidden until the day is over),
// one attempt per player and day (also under concurrent requests and sockets), continuing an
// attempt after a dropped connection, and the end of the day.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dealLayout, makeAction, makeLayout } from '../../shared/index.js';
import { buildApp } from '../../server/app.js';
import { games, secrets } from '../../server/db/schema.js';
import type { DailyStartAnswer } from '../../contract/index.js';
import {
  anaAndBob,
  api,
  autoplay,
  Client,
  createPlayer,
  dbState,
  ManualClock,
  Mirror,
  play,
  playToEnd,
  TEST_DAILY_SECRET,
  type TestPlayer,
  type TestServer,
  now,
} from './helpers.js';

const DAY = '2026-11-29';
const NEXT_DAY = '2026-11-30';
const HOUR = 3_600_000;

/** The seed of a day, computed here from the documented scheme rather than by the server's code. */
const expectedSeed = (secret: string, day: string) =>
  `daily-${day}-${createHmac('sha256', secret).update(`lucie-daily/1 strict ${day}`).digest('base64url').slice(0, 22)}`;

async function start(app: FastifyInstance, player: TestPlayer) {
  const { status, body } = await api(app, 'POST', '/api/daily/start', player);
  return { status, body: body as DailyStartAnswer };
}

let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let bob: TestPlayer;
beforeEach(async () => {
  ({ server, clock, ana, bob } = await anaAndBob({ dailySecret: TEST_DAILY_SECRET }));
});
afterEach(async () => server.app.close());

describe('the daily seed', () => {
  it('deals each UTC day from an HMAC of the day and reveals the seed only once the day is over', async () => {
    const { app } = server;
    const seed = expectedSeed(TEST_DAILY_SECRET, DAY);
    const started = await start(app, ana);
    expect(started.status).toBe(201);
    expect(started.body.game.deals).toEqual([makeLayout(dealLayout(seed, 'strict'))]);
    expect(started.body.daily).toMatchObject({
      day: DAY,
      variant: 'strict',
      opensAt: Date.UTC(2026, 10, 29),
      closesAt: Date.UTC(2026, 10, 30),
      open: true,
      seed: null,
    });
    await autoplay(app, ana, started.body.game.gameId, 5);

    // Nothing a player can fetch while the day is open holds the seed or its secret part.
    const secretPart = seed.slice(-22);
    const answers = [
      started,
      await api(app, 'GET', '/api/daily', ana),
      await api(app, 'GET', `/api/daily/${DAY}`),
      await api(app, 'GET', `/api/daily/${DAY}/leaderboard`, ana),
      await api(app, 'GET', `/api/games/${started.body.game.gameId}`, ana),
      await api(app, 'GET', `/api/games/${started.body.game.gameId}/record`, ana),
      await api(app, 'GET', '/api/me/games', ana),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(300);
      expect(JSON.stringify(answer.body)).not.toContain(secretPart);
    }
    expect((await api(app, 'GET', `/api/games/${started.body.game.gameId}/record`, ana)).body.seed).toBeUndefined();

    // Tomorrow cannot be looked at, let alone dealt.
    for (const url of [`/api/daily/${NEXT_DAY}`, `/api/daily/${NEXT_DAY}/leaderboard`]) {
      expect((await api(app, 'GET', url, ana)).body).toMatchObject({ statusCode: 404, code: 'day-not-open', field: 'day' });
    }

    clock.advance(12 * HOUR);
    expect((await api(app, 'GET', `/api/daily/${DAY}`)).body.daily).toMatchObject({ day: DAY, open: false, seed });
    const today = (await api(app, 'GET', '/api/daily')).body.daily;
    expect(today).toMatchObject({ day: NEXT_DAY, open: true, seed: null });
    const next = await start(app, bob);
    expect(next.body.game.deals).toEqual([makeLayout(dealLayout(expectedSeed(TEST_DAILY_SECRET, NEXT_DAY), 'strict'))]);
    expect(next.body.game.deals).not.toEqual(started.body.game.deals);
  });
});

describe('the daily secret', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const openApp = async (dataDir: string, dailySecret?: string) => {
    const app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, clock, ...(dailySecret && { dailySecret }) });
    await app.ready();
    return app;
  };

  it('is made from crypto randomness on first start, kept in the database, and replaced by DAILY_SECRET when given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lucie-daily-'));
    const otherDir = mkdtempSync(join(tmpdir(), 'lucie-daily-'));
    dirs.push(dataDir, otherDir);

    let app = await openApp(dataDir);
    const [stored] = app.db.select().from(secrets).all();
    expect(stored).toMatchObject({ name: 'daily' });
    expect(stored!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await start(app, await createPlayer(app, 'Ana'));
    expect(first.body.game.deals[0]).toEqual(makeLayout(dealLayout(expectedSeed(stored!.value, DAY), 'strict')));
    await app.close();

    // A restart keeps the secret: a later player of the same day gets the same deal.
    app = await openApp(dataDir);
    expect(app.db.select().from(secrets).all()).toEqual([stored]);
    expect((await start(app, await createPlayer(app, 'Bob'))).body.game.deals).toEqual(first.body.game.deals);
    await app.close();

    // Another installation has its own secret, hence its own deals.
    app = await openApp(otherDir);
    expect((await start(app, await createPlayer(app, 'Ana'))).body.game.deals).not.toEqual(first.body.game.deals);
    await app.close();

    // DAILY_SECRET deals the days that have no attempt yet; a day already being played keeps its seed.
    app = await openApp(dataDir, TEST_DAILY_SECRET);
    expect((await start(app, await createPlayer(app, 'Cid'))).body.game.deals).toEqual(first.body.game.deals);
    clock.advance(12 * HOUR);
    expect((await start(app, await createPlayer(app, 'Dee'))).body.game.deals[0]).toEqual(
      makeLayout(dealLayout(expectedSeed(TEST_DAILY_SECRET, NEXT_DAY), 'strict')),
    );
    expect((await api(app, 'GET', `/api/daily/${DAY}`)).body.daily.seed).toBe(expectedSeed(stored!.value, DAY));
    await app.close();
  });
});

describe('one attempt per player and day', () => {
  it('continues the attempt when started again, refuses a new one once it has ended, and opens a new one the next day', async () => {
    const { app, wsBase } = server;
    const first = await start(app, ana);
    const gameId = first.body.game.gameId;
    expect(first.body.game).toMatchObject({ type: 'game', raceCode: null, variant: 'strict', actions: [], status: { state: 'playing', nextIndex: 0 } });
    expect(first.body.daily.me).toMatchObject({ gameId, state: 'playing', rank: null, position: null });

    const a = await Client.connect(wsBase, ana);
    const mirror = Mirror.of(first.body.game);
    for (let i = 0; i < 3; i++) await play(a, mirror, mirror.choose()!);
    const again = await start(app, ana);
    expect(again.status).toBe(200);
    expect(again.body.game).toMatchObject({ gameId, deals: first.body.game.deals, actions: mirror.actions, status: { nextIndex: 3 } });

    const others = await start(app, bob);
    expect(others.status).toBe(201);
    expect(others.body.game.gameId).not.toBe(gameId);
    expect(others.body.game.deals).toEqual(first.body.game.deals);

    a.send({ type: 'resign', gameId });
    expect((await a.next('game-over')).status.state).toBe('resigned');
    const before = dbState(app);
    const refused = await start(app, ana);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'daily-played' });
    expect((refused.body as unknown as { message: string }).message).toMatch(/already \(resigned, \d+ cards home\): one attempt a day/);
    expect(dbState(app)).toEqual(before);
    expect((await api(app, 'GET', '/api/daily', ana)).body.daily.me).toMatchObject({ gameId, state: 'resigned', rank: 1 });
    expect((await api(app, 'POST', '/api/daily/start')).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });

    clock.advance(12 * HOUR);
    const tomorrow = await start(app, ana);
    expect(tomorrow.status).toBe(201);
    expect(tomorrow.body.daily.day).toBe(NEXT_DAY);
    expect(tomorrow.body.game.deals).not.toEqual(first.body.game.deals);
    const rows = app.db.select({ day: games.day }).from(games).where(eq(games.playerId, ana.id)).all();
    expect(rows).toEqual([{ day: DAY }, { day: NEXT_DAY }]);
  });

  it('holds under two concurrent requests and two sockets of the same player', async () => {
    const { app, wsBase } = server;
    const base = wsBase.replace('ws:', 'http:');
    const post = () => fetch(`${base}/api/daily/start`, { method: 'POST', headers: { authorization: `Bearer ${ana.token}` } });
    const answers = await Promise.all([post(), post(), post()]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as DailyStartAnswer[];
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(bodies.map((body) => body.game.gameId)).size).toBe(1);
    expect(app.db.select().from(games).where(and(eq(games.playerId, ana.id), eq(games.day, DAY))).all()).toHaveLength(1);

    // Two tabs send different first moves at once: one is applied and acknowledged to both, the other refused.
    const gameId = bodies[0]!.game.gameId;
    const [tab1, tab2] = [await Client.connect(wsBase, ana), await Client.connect(wsBase, ana)];
    const [move1, move2] = Mirror.of(bodies[0]!.game).position.legalActions().map(makeAction);
    tab1.send({ type: 'action', gameId, index: 0, action: move1! });
    tab2.send({ type: 'action', gameId, index: 0, action: move2! });
    const [ack1, ack2] = [await tab1.next('ack'), await tab2.next('ack')];
    expect(ack1).toEqual(ack2);
    const loser = ack1.action === move1 ? tab2 : tab1;
    expect(await loser.next('error')).toMatchObject({ code: 'index-conflict', nextIndex: 1, index: 0 });
    expect(now(app.games.get(gameId))!.actions).toEqual([ack1.action]);
  });

  it('continues the same attempt after a dropped connection, to the end', async () => {
    const { app, wsBase } = server;
    const first = await start(app, ana);
    let a = await Client.connect(wsBase, ana);
    const mirror = Mirror.of(first.body.game);
    const acks = [];
    for (let i = 0; i < 5; i++) acks.push(await play(a, mirror, mirror.choose()!));
    a.socket.terminate();
    await a.whenClosed();

    // The reloaded page: a new socket, the attempt from HTTP, the missed acks by resync.
    a = await Client.connect(wsBase, ana);
    const resumed = await start(app, ana);
    expect(resumed.status).toBe(200);
    expect(resumed.body.game).toMatchObject({ gameId: first.body.game.gameId, actions: mirror.actions });
    a.send({ type: 'resync', gameId: mirror.gameId, lastIndex: 2 });
    expect((await a.next('resynced')).acks).toEqual(acks.slice(3).map(({ type: _type, ...ack }) => ack));
    await playToEnd(a, mirror);
    expect((await a.next('game-over')).status).toMatchObject({ state: 'won', foundations: 52 });
    expect((await api(app, 'GET', '/api/daily', ana)).body.daily.me).toMatchObject({ state: 'won', rank: 1, position: 0, foundations: 52 });
    expect((await start(app, ana)).body).toMatchObject({ statusCode: 409, code: 'daily-played' });
  });
});

describe('the end of the day', () => {
  it('stops an attempt still playing at 00:00 UTC as timed-out and ranks it by its cards home', async () => {
    const { app, wsBase } = server;
    clock.advance(11 * HOUR);
    const started = await start(app, ana);
    const a = await Client.connect(wsBase, ana);
    const mirror = Mirror.of(started.body.game);
    while (mirror.position.foundationCount() < 3) await play(a, mirror, mirror.choose()!);
    clock.advance(HOUR - 1);
    await a.settle();
    expect(a.all('game-over')).toEqual([]);
    clock.advance(1);
    const closesAt = Date.UTC(2026, 10, 30);
    expect((await a.next('game-over')).status).toMatchObject({ state: 'timed-out', finishedAt: closesAt, foundations: 3 });
    a.send({ type: 'action', gameId: mirror.gameId, index: mirror.actions.length, action: makeAction(mirror.choose()!) });
    expect((await a.next('error')).code).toBe('game-over');

    const board = (await api(app, 'GET', `/api/daily/${DAY}/leaderboard`, ana)).body.leaderboard;
    expect(board).toMatchObject({ open: false, total: 1, playing: 0 });
    expect(board.entries).toEqual([
      {
        rank: 1,
        playerId: ana.id,
        name: 'Ana',
        gameId: mirror.gameId,
        state: 'timed-out',
        foundations: 3,
        elapsedMs: closesAt - started.body.game.startedAt,
        finishedAt: closesAt,
      },
    ]);
  });
});
