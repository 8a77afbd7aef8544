// The whole service, over HTTP and real sockets, on each storage: SQLite (the default) and
// PostgreSQL (DATABASE_URL, on the test cluster that test/services.ts or .ci/run starts). The
// same race, daily attempt, series deal, replays, analyses, statistics and readiness on both; then a second instance on
// the same database reads what the first stored. Last, an instance whose PostgreSQL goes away.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_INTERVAL_MS } from '../../server/races/service.js';
import { api, Client, createPlayer, createRace, ManualClock, Mirror, play, playToEnd, racerIn, settledAnalysis, startServer, TEST_DAILY_SECRET, type TestServer } from './helpers.js';
import { createTestDatabase, type TestDatabase } from './pg.js';
import { relay } from './relay.js';

const HOUR = 3_600_000;
/** A strict deal `homeFirst` wins. */
const WINNABLE = 's2';

interface Place {
  /** What startServer needs to open this storage. */
  options: { dataDir: string } | { databaseUrl: string };
  /** Gives a race a known seed before it starts, straight in the database. */
  setSeed(code: string, seed: string): Promise<void>;
  drop(): Promise<void>;
}

function sqlitePlace(): Place {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-storages-'));
  return {
    options: { dataDir: dir },
    async setSeed(code, seed) {
      const db = new Database(join(dir, 'lucie.db'));
      db.prepare('update races set seed = ? where code = ?').run(seed, code);
      db.close();
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pgPlace(): Promise<Place> {
  const database = await createTestDatabase();
  return {
    options: { databaseUrl: database.url },
    async setSeed(code, seed) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query('update races set seed = $1 where code = $2', [seed, code]);
      await client.end();
    },
    drop: () => database.drop(),
  };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.app.close()));
});

describe.each([
  ['SQLite', sqlitePlace],
  ['PostgreSQL', pgPlace],
] as const)('the service on %s', (_name, open) => {
  let place: Place;
  afterAll(async () => place?.drop());

  it('runs a race, a daily attempt, a series deal, replays, analyses, statistics and readiness, and a second instance reads them', async () => {
    place = await open();
    const clock = new ManualClock();
    const server = await startServer({ ...place.options, clock, dailySecret: TEST_DAILY_SECRET });
    servers.push(server);
    const { app, wsBase } = server;
    expect((await api(app, 'GET', '/api/ready')).body).toEqual({ ready: true, closing: false, database: 'ok', redis: 'off' });

    const ana = await createPlayer(app, 'Ana');
    const bob = await createPlayer(app, 'Bob');
    expect((await api(app, 'GET', '/api/me', ana)).body).toEqual({ player: { id: ana.id, name: 'Ana' } });
    const race = await createRace(app, ana, { seats: 2 });
    await place.setSeed(race.code, WINNABLE);
    expect((await api(app, 'POST', `/api/races/${race.code}/join`, bob)).body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana', 'Bob']);
    const a = await Client.connect(wsBase, ana);
    const b = await Client.connect(wsBase, bob);
    const spectator = await Client.connect(wsBase);
    for (const client of [a, b, spectator]) {
      client.send({ type: 'watch', code: race.code });
      expect((await client.next('race')).race.state).toBe('lobby');
    }

    expect((await api(app, 'POST', `/api/races/${race.code}/start`, ana)).body.race.state).toBe('countdown');
    clock.advance(0);
    const [gameA, gameB] = [await a.next('game'), await b.next('game')];
    expect(gameA.deals).toEqual(gameB.deals);
    const mirror = Mirror.of(gameA);
    expect(await play(a, mirror, mirror.choose()!)).toMatchObject({ gameId: gameA.gameId, index: 0 });
    // The race's progress goes in its window (on PostgreSQL the race's code may still be on its way from the store: windows pass until it is sent).
    const heard = () => spectator.all('progress').flatMap((message) => racerIn(message, ana.id) ?? []);
    await vi.waitFor(async () => {
      clock.advance(PROGRESS_INTERVAL_MS);
      await spectator.settle();
      expect(heard()).toHaveLength(1);
    });
    expect(heard()[0]).toMatchObject({ name: 'Ana', moves: 1 });
    b.send({ type: 'resign', gameId: gameB.gameId });
    expect((await b.next('game-over')).status.state).toBe('resigned');
    await playToEnd(a, mirror);
    expect((await a.next('game-over')).status).toMatchObject({ state: 'won', foundations: 52 });
    const finished = (await spectator.next('race', (message) => message.race.state === 'finished')).race;
    expect(finished).toMatchObject({ seed: WINNABLE, standings: [{ rank: 1, name: 'Ana', state: 'won' }, { rank: 2, name: 'Bob', state: 'resigned' }] });

    const replay = (await api(app, 'GET', `/api/races/${race.code}/replay`)).body;
    expect(replay.games.map((game: { name: string; actions: string[] }) => [game.name, game.actions])).toEqual([
      ['Ana', mirror.actions],
      ['Bob', []],
    ]);

    const daily = await api(app, 'POST', '/api/daily/start', ana);
    expect(daily.status).toBe(201);
    const attempt = Mirror.of(daily.body.game);
    // The test secret's deal of the ManualClock's day: homeFirst wins it in 67 actions.
    expect(await playToEnd(a, attempt)).toBe(67);
    expect((await a.next('game-over', (message) => message.gameId === attempt.gameId)).status.state).toBe('won');
    expect((await api(app, 'POST', '/api/daily/start', ana)).body).toMatchObject({ code: 'daily-played' });
    const board = (await api(app, 'GET', `/api/daily/${daily.body.daily.day}/leaderboard`, ana)).body.leaderboard;
    expect(board).toMatchObject({ total: 1, playing: 0, entries: [{ rank: 1, name: 'Ana', state: 'won', foundations: 52 }], me: { rank: 1, position: 0 } });

    expect((await api(app, 'GET', `/api/games/${gameA.gameId}`)).body.game).toMatchObject({ rank: 1, raceCode: race.code, seed: WINNABLE, recordAvailable: true });
    expect((await api(app, 'GET', `/api/games/${gameA.gameId}/record`)).body.actions).toEqual(mirror.actions);
    expect((await api(app, 'GET', `/api/games/${attempt.gameId}`, bob)).body.game).toMatchObject({ rank: 1, seed: null, recordAvailable: false });
    const history = (await api(app, 'GET', '/api/me/games', ana)).body.history;
    expect(history.total).toBe(2);
    expect(history.games.map((game: { id: number }) => game.id)).toEqual([attempt.gameId, gameA.gameId]);
    expect((await api(app, 'GET', `/api/players/${ana.id}/stats`)).body.stats.variants).toMatchObject([{ variant: 'strict', games: 2, wins: 2, bestStreak: 2 }]);

    const created = await api(app, 'POST', '/api/series', bob, { variant: 'strict' });
    expect(created.status).toBe(201);
    const seriesCode = created.body.series.code;
    const dealt = await api(app, 'POST', `/api/series/${seriesCode}/deals/1`, bob);
    expect(dealt.status).toBe(201);
    const seriesGame = Mirror.of(dealt.body.game);
    for (let i = 0; i < 3; i++) await play(b, seriesGame, seriesGame.choose()!);
    b.send({ type: 'resign', gameId: seriesGame.gameId });
    expect((await b.next('game-over', (message) => message.gameId === seriesGame.gameId)).status.state).toBe('resigned');
    expect((await api(app, 'POST', `/api/series/${seriesCode}/deals/1`, bob)).body).toMatchObject({ statusCode: 409, code: 'series-deal-played' });
    const seriesView = (await api(app, 'GET', `/api/series/${seriesCode}`, bob)).body.series;
    expect(seriesView).toMatchObject({ playerCount: 1, players: [{ player: { name: 'Bob' }, played: 1, wins: 0, next: 2 }], me: { next: 2, playing: null, results: { played: 1 } } });
    expect((await api(app, 'GET', `/api/players/${bob.id}/stats`)).body.stats.series).toMatchObject([{ code: seriesCode, played: 1, wins: 0, next: 2 }]);

    // Analyses: the finished race's games at once; the day's attempt once the day is over (00:00 UTC, 12 hours on).
    expect(await settledAnalysis(app, gameA.gameId)).toMatchObject({ status: 'done', analysis: { clairvoyant: { best: 52, won: true, exact: true } } });
    const day = daily.body.daily.day;
    clock.advance(12 * HOUR);
    await vi.waitFor(
      async () => expect((await api(app, 'GET', `/api/daily/${day}/analysis`)).body).toEqual({ day, firstDeal: { max: 52, exact: true }, attempts: 1, analysed: 1, reachedPar: 1 }),
      { timeout: 30_000, interval: 50 },
    );

    // Another instance on the same database: the same players, race and board.
    const other = await startServer({ ...place.options, clock, dailySecret: TEST_DAILY_SECRET });
    servers.push(other);
    expect((await api(other.app, 'GET', '/api/me', bob)).body.player.name).toBe('Bob');
    expect((await api(other.app, 'GET', `/api/races/${race.code}`)).body.race).toMatchObject({ state: 'finished', standings: finished.standings });
    expect((await api(other.app, 'GET', `/api/daily/${daily.body.daily.day}/leaderboard`)).body.leaderboard.entries).toEqual(board.entries);
    for (const client of [a, b, spectator]) client.close();
  });
});

describe('an instance whose PostgreSQL goes away', () => {
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('reports not ready, refuses moves with storage-unavailable and acknowledges none, then carries on once it is back', async () => {
    database = await createTestDatabase();
    const link = await relay(new URL(database.url));
    const clock = new ManualClock();
    const server = await startServer({ databaseUrl: link.url, clock });
    servers.push(server);
    const { app, wsBase } = server;
    const ana = await createPlayer(app, 'Ana');
    const bob = await createPlayer(app, 'Bob');
    const race = await createRace(app, ana, { seats: 2 });
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    const a = await Client.connect(wsBase, ana);
    a.send({ type: 'watch', code: race.code });
    await a.next('race');
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const game = await a.next('game');
    const mirror = Mirror.of(game);
    await play(a, mirror, mirror.choose()!);

    await link.cut();
    expect((await api(app, 'GET', '/api/ready')).body).toEqual({ ready: false, closing: false, database: 'unreachable', redis: 'off' });
    a.send(mirror.frame(mirror.choose()!));
    expect(await a.next('error')).toMatchObject({ code: 'storage-unavailable', gameId: game.gameId, index: 1, nextIndex: 1 });
    expect((await api(app, 'POST', '/api/players', undefined, { name: 'Cy' })).body).toMatchObject({ statusCode: 503, code: 'storage-unavailable' });
    expect(a.all('ack')).toHaveLength(1);

    await link.restore();
    expect((await api(app, 'GET', '/api/ready')).body.ready).toBe(true);
    expect(await play(a, mirror, mirror.choose()!)).toMatchObject({ index: 1 });
    a.send({ type: 'resync', gameId: game.gameId, lastIndex: -1 });
    expect((await a.next('resynced')).acks.map((ack) => ack.action)).toEqual(mirror.actions);
    a.close();
    await server.app.close();
    servers.splice(servers.indexOf(server), 1);
    await link.close();
  });
});
