// Replays: summaries, records (equal to what the engine reconstructs), who may see which moves
// when, and a player's history.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dealLayout, makeBoard, parseRecord, replayRecord, verifyRecord, type Position } from '../../shared/index.js';
import type { DailyStartAnswer, GameSummary, RaceView } from '../../contract/index.js';
import {
  api,
  autoplay,
  anaAndBob,
  Client,
  createRace,
  ManualClock,
  Mirror,
  play,
  playToEnd,
  setSeed,
  TEST_DAILY_SECRET,
  unwrap,
  type TestPlayer,
  type TestServer,
  now,
} from './helpers.js';

const DAY = '2026-11-29';
const HOUR = 3_600_000;

let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let bob: TestPlayer;
beforeEach(async () => {
  ({ server, clock, ana, bob } = await anaAndBob({ dailySecret: TEST_DAILY_SECRET }));
});
afterEach(async () => server.app.close());

const summary = async (gameId: number, viewer?: TestPlayer): Promise<GameSummary> => (await api(server.app, 'GET', `/api/games/${gameId}`, viewer)).body.game;
const record = (gameId: number, viewer?: TestPlayer) => api(server.app, 'GET', `/api/games/${gameId}/record`, viewer);

/** The record replayed by the engine, from its JSON as downloaded. */
function replayed(body: unknown): Position {
  return unwrap(replayRecord(unwrap(parseRecord(JSON.stringify(body)))));
}

async function startDaily(app: FastifyInstance, player: TestPlayer): Promise<DailyStartAnswer['game']> {
  return ((await api(app, 'POST', '/api/daily/start', player)).body as DailyStartAnswer).game;
}

describe('race games', () => {
  it('are replayable by anyone once the race is finished, never before, and equal what the engine reconstructs', async () => {
    const { app, wsBase } = server;
    const race = await createRace(app, ana, { seats: 2 });
    setSeed(app, race.code, 's2');
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    const [a, b] = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob)];
    a.send({ type: 'watch', code: race.code });
    b.send({ type: 'watch', code: race.code });
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const mirrorA = Mirror.of(await a.next('game'));
    const mirrorB = Mirror.of(await b.next('game'));
    await playToEnd(a, mirrorA);
    await play(b, mirrorB, mirrorB.choose()!);

    // Ana has won but Bob still races on the same seed: her moves stay hers.
    expect(await summary(mirrorA.gameId)).toMatchObject({
      kind: 'race',
      raceCode: race.code,
      day: null,
      player: { id: ana.id, name: 'Ana' },
      result: { state: 'won', won: true, foundations: 52, moves: mirrorA.actions.length },
      rank: null,
      seed: null,
      recordAvailable: false,
    });
    for (const viewer of [undefined, bob]) {
      expect((await record(mirrorA.gameId, viewer)).body).toMatchObject({ statusCode: 403, code: 'record-hidden' });
      expect((await record(mirrorA.gameId, viewer)).body.message).toMatch(`race ${race.code} stay hidden until the race is finished`);
    }
    expect((await record(mirrorB.gameId, ana)).body).toMatchObject({ statusCode: 403, code: 'game-in-progress' });
    const own = await record(mirrorB.gameId, bob);
    expect(own.status).toBe(200);
    expect(own.body.seed).toBeUndefined();
    expect(replayed(own.body).foundationCount()).toBe(mirrorB.position.foundationCount());

    b.send({ type: 'resign', gameId: mirrorB.gameId });
    await a.next('race', (message) => message.race.state === 'finished');
    const download = await app.inject({ method: 'GET', url: `/api/games/${mirrorA.gameId}/record` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/application\/json/);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="lucie-race-${race.code}-${mirrorA.gameId}.json"`);
    const body = download.json();
    expect(body).toMatchObject({
      format: 'lucie-record/1',
      variant: 'strict',
      seed: 's2',
      actions: mirrorA.actions,
      meta: { player: 'Ana', gameId: mirrorA.gameId, kind: 'race', raceCode: race.code, state: 'won', startedAt: new Date(clock.now()).toISOString() },
    });
    expect(verifyRecord(download.body)).toEqual({ ok: true, foundations: 52, won: true, over: true, redealsUsed: mirrorA.position.redealsUsed });
    expect(makeBoard(replayed(body))).toEqual(makeBoard(mirrorA.position));
    expect(unwrap(parseRecord(download.body)).deals[0]).toEqual(dealLayout('s2', 'strict'));

    expect(await summary(mirrorA.gameId, bob)).toMatchObject({ rank: 1, seed: 's2', recordAvailable: true });
    expect(await summary(mirrorB.gameId)).toMatchObject({ rank: 2, result: { state: 'resigned' }, recordAvailable: true });
    const bobs = await record(mirrorB.gameId);
    expect(verifyRecord(bobs.body)).toMatchObject({ ok: true, foundations: mirrorB.position.foundationCount(), over: false });
    expect((await api(app, 'GET', `/api/races/${race.code}`)).body.race as RaceView).toMatchObject({ seed: 's2' });
  });
});

describe('daily games', () => {
  it('show their moves to their own player at any time, to others only once the day is over', async () => {
    const { app } = server;
    const gameA = await startDaily(app, ana);
    const gameB = await startDaily(app, bob);
    await autoplay(app, ana, gameA.gameId, 20);
    await autoplay(app, bob, gameB.gameId, 3);

    // In progress: the owner's record is the live game, without the seed.
    const live = now(app.games.get(gameA.gameId))!;
    const mine = await record(gameA.gameId, ana);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ actions: live.actions, meta: { player: 'Ana', kind: 'daily', day: DAY, state: 'playing' } });
    expect(mine.body.seed).toBeUndefined();
    expect(mine.body.meta.finishedAt).toBeUndefined();
    expect(verifyRecord(mine.body)).toEqual({ ok: true, foundations: live.position.foundationCount(), won: false, over: false, redealsUsed: live.position.redealsUsed });
    expect(makeBoard(replayed(mine.body))).toEqual(makeBoard(live.position));
    for (const viewer of [bob, undefined]) {
      const refused = await record(gameA.gameId, viewer);
      expect(refused.body).toMatchObject({ statusCode: 403, code: 'game-in-progress' });
      expect(refused.body.message).toMatch(/only its player/);
    }

    // Finished, but the day is open: still nobody else's to copy.
    expect(app.games.resign(ana, gameA.gameId)).toBeUndefined();
    for (const viewer of [bob, undefined]) {
      const refused = await record(gameA.gameId, viewer);
      expect(refused.body).toMatchObject({ statusCode: 403, code: 'record-hidden' });
      expect(refused.body.message).toMatch(`daily deal of ${DAY} stay hidden until the day is over`);
    }
    expect(await summary(gameA.gameId, bob)).toMatchObject({ result: { state: 'resigned' }, rank: 1, seed: null, recordAvailable: false });
    expect(await summary(gameA.gameId, ana)).toMatchObject({ recordAvailable: true });

    // The day is over: every attempt is public, with the day's seed; Bob's ended at midnight.
    clock.advance(12 * HOUR);
    const seed = (await api(app, 'GET', `/api/daily/${DAY}`)).body.daily.seed;
    expect(seed).toMatch(/^daily-2026-11-29-/);
    for (const [gameId, state] of [
      [gameA.gameId, 'resigned'],
      [gameB.gameId, 'timed-out'],
    ] as const) {
      const open = await record(gameId);
      expect(open.status).toBe(200);
      expect(open.body).toMatchObject({ seed, meta: { state, day: DAY } });
      const result = (await summary(gameId)).result;
      expect(result.state).toBe(state);
      expect(verifyRecord(open.body)).toMatchObject({ ok: true, foundations: result.foundations, won: false });
      expect(makeBoard(replayed(open.body))).toEqual(makeBoard(now(app.games.get(gameId))!.position));
      expect(unwrap(parseRecord(JSON.stringify(open.body))).deals[0]).toEqual(dealLayout(seed, 'strict'));
    }
  });
});

describe('a player history', () => {
  it('lists their games newest first, paginated, with results and record links', async () => {
    const { app, wsBase } = server;
    const race = await createRace(app, ana, { seats: 2 });
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    const a = await Client.connect(wsBase, ana);
    a.send({ type: 'watch', code: race.code });
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const raceGame = (await a.next('game')).gameId;
    a.send({ type: 'resign', gameId: raceGame });
    await a.next('game-over');
    const won = await startDaily(app, ana);
    await autoplay(app, ana, won.gameId);
    clock.advance(12 * HOUR);
    const playing = await startDaily(app, ana);

    const { status, body } = await api(app, 'GET', '/api/me/games', ana);
    expect(status).toBe(200);
    expect(body.history).toMatchObject({ total: 3, limit: 20, offset: 0 });
    const history = body.history.games as GameSummary[];
    expect(history.map((game) => [game.id, game.kind, game.raceCode ?? game.day, game.result.state, game.rank, game.recordAvailable])).toEqual([
      [playing.gameId, 'daily', '2026-11-30', 'playing', null, true],
      [won.gameId, 'daily', DAY, 'won', 1, true],
      // Bob never opened a socket: abandoned once his grace period ran out, which ended the race.
      [raceGame, 'race', race.code, 'resigned', 1, true],
    ]);
    expect(history[1]).toEqual(await summary(won.gameId, ana));
    expect((await api(app, 'GET', '/api/me/games?limit=1&offset=1', ana)).body.history.games.map((game: GameSummary) => game.id)).toEqual([won.gameId]);
    expect((await api(app, 'GET', '/api/me/games', bob)).body.history).toMatchObject({ total: 1, games: [{ kind: 'race', player: { name: 'Bob' } }] });
    expect((await api(app, 'GET', '/api/me/games')).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect((await api(app, 'GET', '/api/me/games?limit=500', ana)).body).toMatchObject({ code: 'invalid-query', field: 'limit' });
  });
});

describe('bad game ids', () => {
  it.each([
    ['/api/games/0', 400, 'invalid-param'],
    ['/api/games/abc', 400, 'invalid-param'],
    ['/api/games/012', 400, 'invalid-param'],
    ['/api/games/99999', 404, 'unknown-game'],
    ['/api/games/99999/record', 404, 'unknown-game'],
  ])('%s answers %i %s', async (url, statusCode, code) => {
    const { status, body } = await api(server.app, 'GET', url);
    expect(status).toBe(statusCode);
    expect(body).toMatchObject({ statusCode, code, field: 'id' });
  });
});
