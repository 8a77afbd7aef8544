// The 100-deal series: deals dealt in order from the series' secret seed, each an ordinary
// server-validated game, unranked; progress that follows the identity (another socket, a
// restart); the share link (the same first layouts for a friend, their own redeals); the
// running results beside the benchmark; and every bad request refused with nothing changed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptSeed, dealLayout, makeLayout, redealLayout } from '../../shared/index.js';
import { buildApp } from '../../server/app.js';
import { series } from '../../server/db/schema.js';
import type { SeriesDealAnswer, SeriesView } from '../../contract/index.js';
import { api, anaAndBob, autoplay, Client, createPlayer, dbState, layoutOf, ManualClock, Mirror, now, play, type TestPlayer, type TestServer } from './helpers.js';

/** A fixed seed for the series under test: its deal 1 is not cleared by `homeFirst` before a redeal. */
const SEED = 'test-series-seed';
/** Deal k's seed, from the documented scheme rather than the server's code. */
const dealSeed = (k: number) => `lucie-series/1:${k}:${SEED}`;

let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let bob: TestPlayer;
beforeEach(async () => {
  // Room for a hundred deals in one test: a person takes far longer than the limit's minute.
  ({ server, clock, ana, bob } = await anaAndBob({ rateLimits: { seriesDeal: { max: 200, windowMs: 60_000 } } }));
});
afterEach(async () => server.app.close());

/** Every table a refused request must leave alone, the series included. */
const state = (app: FastifyInstance) => ({ tables: dbState(app), series: app.db.all(sql`select * from series order by id`) });

async function createSeries(app: FastifyInstance, player: TestPlayer, body: object = {}): Promise<SeriesView> {
  const { status, body: answer } = await api(app, 'POST', '/api/series', player, body);
  expect(status).toBe(201);
  app.db.update(series).set({ seed: SEED }).where(eq(series.code, answer.series.code)).run();
  return answer.series;
}

async function deal(app: FastifyInstance, player: TestPlayer, code: string, k: number) {
  const { status, body } = await api(app, 'POST', `/api/series/${code}/deals/${k}`, player);
  return { status, body: body as SeriesDealAnswer };
}

/** Ends a dealt game at once, as a player resigning it would. */
const resign = async (app: FastifyInstance, player: TestPlayer, gameId: number) => expect(await app.games.resign(player, gameId)).toBeUndefined();

describe('a series', () => {
  it('is created strict by default with the benchmark beside it, and needs an identity', async () => {
    const { app } = server;
    const created = await createSeries(app, ana);
    expect(created).toMatchObject({
      code: expect.stringMatching(/^[A-HJKMNP-Z2-9]{6}$/),
      variant: 'strict',
      deals: 100,
      creator: { id: ana.id, name: 'Ana' },
      benchmark: { low: 0.05, high: 0.07 },
      me: null,
      players: [],
      playerCount: 0,
    });
    expect((await api(app, 'POST', '/api/series', ana, { variant: 'merci' })).body.series.benchmark).toMatchObject({ low: 0.12, high: 0.12 });
    expect((await api(app, 'POST', '/api/series', ana, { variant: 'trefoil' })).body.series.benchmark).toBeNull();
    // Anyone may look at it by its code, in any case.
    expect((await api(app, 'GET', `/api/series/${created.code.toLowerCase()}`)).body.series).toMatchObject({ code: created.code, me: null });

    const before = state(app);
    expect((await api(app, 'POST', '/api/series', undefined, {})).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect((await api(app, 'POST', '/api/series', ana, { variant: 'spider' })).body).toMatchObject({ statusCode: 400, code: 'invalid-body', field: 'variant' });
    expect((await api(app, 'POST', '/api/series', ana, { variant: 'strict', deals: 10 })).body).toMatchObject({ statusCode: 400, code: 'invalid-body' });
    expect(state(app)).toEqual(before);
  });

  it('deals in order from the series seed, resumes the deal being played, and never deals ahead', async () => {
    const { app, wsBase } = server;
    const { code } = await createSeries(app, ana);
    const first = await deal(app, ana, code, 1);
    expect(first.status).toBe(201);
    expect(first.body.game).toMatchObject({ raceCode: null, variant: 'strict', actions: [], status: { state: 'playing', nextIndex: 0 } });
    expect(first.body.game.deals).toEqual([makeLayout(dealLayout(dealSeed(1), 'strict'))]);
    const gameId = first.body.game.gameId;
    expect(first.body.series.me).toMatchObject({ next: 1, playing: gameId, results: { played: 0, wins: 0, winRate: 0, averageFoundations: 0 }, deals: [] });

    const socket = await Client.connect(wsBase, ana);
    const mirror = Mirror.of(first.body.game);
    for (let i = 0; i < 3; i++) await play(socket, mirror, mirror.choose()!);
    const again = await deal(app, ana, code, 1);
    expect(again.status).toBe(200);
    expect(again.body.game).toMatchObject({ gameId, actions: mirror.actions, status: { nextIndex: 3 } });

    // Deal 2 waits for deal 1 to end.
    let before = state(app);
    const early = await deal(app, ana, code, 2);
    expect(early.body).toMatchObject({ statusCode: 409, code: 'series-deal-ahead', field: 'deal' });
    expect((early.body as unknown as { message: string }).message).toMatch(/deal 1 of series \w+ is still being played: finish it \(or resign it\) before deal 2/);
    expect(state(app)).toEqual(before);

    socket.send({ type: 'resign', gameId });
    const over = await socket.next('game-over');
    expect(over.status.state).toBe('resigned');
    before = state(app);
    const replayed = await deal(app, ana, code, 1);
    expect(replayed.body).toMatchObject({ statusCode: 409, code: 'series-deal-played', field: 'deal' });
    expect((replayed.body as unknown as { message: string }).message).toMatch(/already \(resigned, \d+ cards home\): each deal is played once; your next deal is 2/);
    const skipped = await deal(app, ana, code, 3);
    expect(skipped.body).toMatchObject({ statusCode: 409, code: 'series-deal-ahead' });
    expect((skipped.body as unknown as { message: string }).message).toMatch(/your next one is deal 2, not 3/);
    expect(state(app)).toEqual(before);

    const second = await deal(app, ana, code, 2);
    expect(second.status).toBe(201);
    expect(second.body.game.deals).toEqual([makeLayout(dealLayout(dealSeed(2), 'strict'))]);
    expect(second.body.series.me).toMatchObject({
      next: 2,
      playing: second.body.game.gameId,
      results: { played: 1, wins: 0, winRate: 0, averageFoundations: over.status.foundations },
      deals: [{ deal: 1, gameId, state: 'resigned', foundations: over.status.foundations, moves: 3 }],
    });
    socket.socket.close();
  });

  it('deals one game when the same deal is asked for three times at once', async () => {
    const { app, wsBase } = server;
    const { code } = await createSeries(app, ana);
    const post = () => fetch(`${wsBase.replace('ws:', 'http:')}/api/series/${code}/deals/1`, { method: 'POST', headers: { authorization: `Bearer ${ana.token}` } });
    const answers = await Promise.all([post(), post(), post()]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as SeriesDealAnswer[];
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(bodies.map((body) => body.game.gameId)).size).toBe(1);
    expect(app.db.all(sql`select count(*) as n from games where series_id is not null`)).toEqual([{ n: 1 }]);
  });

  it('never hands out a seed, and keeps a deal unranked and its moves with its player', async () => {
    const { app } = server;
    const { code } = await createSeries(app, ana);
    const dealt = await deal(app, ana, code, 1);
    const gameId = dealt.body.game.gameId;
    await autoplay(app, ana, gameId, 4);
    await resign(app, ana, gameId);
    const answers = [
      dealt,
      await deal(app, ana, code, 2),
      await api(app, 'GET', `/api/series/${code}`, ana),
      await api(app, 'GET', `/api/games/${gameId}`, ana),
      await api(app, 'GET', `/api/games/${gameId}/record`, ana),
      await api(app, 'GET', '/api/me/games', ana),
      await api(app, 'GET', `/api/players/${ana.id}/stats`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(300);
      expect(JSON.stringify(answer.body)).not.toContain(SEED);
    }
    expect((await api(app, 'GET', `/api/games/${gameId}`, bob)).body.game).toMatchObject({
      kind: 'series',
      series: { code, deal: 1 },
      raceCode: null,
      day: null,
      rank: null,
      seed: null,
      recordAvailable: false,
    });
    const record = (await api(app, 'GET', `/api/games/${gameId}/record`, ana)).body;
    expect(record.seed).toBeUndefined();
    expect(record.meta).toMatchObject({ kind: 'series', seriesCode: code, seriesDeal: 1, state: 'resigned' });
    expect((await api(app, 'GET', `/api/games/${gameId}/record`, bob)).body).toMatchObject({ statusCode: 403, code: 'record-hidden' });
    expect((await api(app, 'GET', `/api/daily/2026-11-29/leaderboard`)).body.leaderboard).toMatchObject({ total: 0, entries: [] });
  });

  it('refuses bad requests with a clear error and changes nothing', async () => {
    const { app, wsBase } = server;
    const { code } = await createSeries(app, ana);
    const dealt = await deal(app, ana, code, 1);
    const gameId = dealt.body.game.gameId;
    const before = state(app);
    const refusals: [string, TestPlayer | undefined, object][] = [
      ['/api/series/ZZZZZZ/deals/1', ana, { statusCode: 404, code: 'unknown-series', field: 'code' }],
      [`/api/series/${code}/deals/101`, ana, { statusCode: 400, code: 'invalid-param', field: 'deal', message: expect.stringContaining('from 1 to 100') }],
      [`/api/series/${code}/deals/0`, ana, { statusCode: 400, code: 'invalid-param', field: 'deal' }],
      [`/api/series/${code}/deals/2x`, ana, { statusCode: 400, code: 'invalid-param', field: 'deal' }],
      ['/api/series/AB/deals/1', ana, { statusCode: 400, code: 'invalid-param', field: 'code' }],
      [`/api/series/${code}/deals/1`, undefined, { statusCode: 401, code: 'unauthorized' }],
      [`/api/series/${code}/deals/2`, bob, { statusCode: 409, code: 'series-deal-ahead', message: expect.stringContaining('your next one is deal 1') }],
    ];
    for (const [url, player, refusal] of refusals) expect((await api(app, 'POST', url, player)).body, url).toMatchObject(refusal);
    expect((await api(app, 'GET', '/api/series/ZZZZZZ')).body).toMatchObject({ statusCode: 404, code: 'unknown-series' });

    // Bob cannot play or resign Ana's deal.
    const intruder = await Client.connect(wsBase, bob);
    const mirror = Mirror.of(dealt.body.game);
    intruder.send(mirror.frame(mirror.choose()!));
    expect(await intruder.next('error')).toMatchObject({ code: 'not-your-game', gameId });
    intruder.send({ type: 'resign', gameId });
    expect(await intruder.next('error')).toMatchObject({ code: 'not-your-game', gameId });
    expect(state(app)).toEqual(before);
    intruder.socket.close();
  });

  it('deals 100 deals and no more, with the running results', async () => {
    const { app } = server;
    const { code } = await createSeries(app, ana);
    for (let k = 1; k <= 100; k++) {
      const dealt = await deal(app, ana, code, k);
      expect(dealt.status, `deal ${k}`).toBe(201);
      await resign(app, ana, dealt.body.game.gameId);
    }
    const view: SeriesView = (await api(app, 'GET', `/api/series/${code}`, ana)).body.series;
    expect(view.me!.next).toBeNull();
    expect(view.me!.playing).toBeNull();
    expect(view.me!.deals.map((result) => result.deal)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // Resigned at once: each deal counts the cards its first layout put home (none in strict).
    expect(view.me!.results).toEqual({ played: 100, wins: 0, winRate: 0, averageFoundations: 0 });
    const before = state(app);
    const after100 = await deal(app, ana, code, 100);
    expect(after100.body).toMatchObject({ statusCode: 409, code: 'series-deal-played' });
    expect((after100.body as unknown as { message: string }).message).toMatch(/you have played all 100 deals/);
    expect(state(app)).toEqual(before);
    const stats = (await api(app, 'GET', `/api/players/${ana.id}/stats`)).body.stats;
    expect(stats.series).toEqual([{ code, variant: 'strict', played: 100, wins: 0, winRate: 0, averageFoundations: 0, next: null }]);
  });
});

describe('a series shared by link', () => {
  it('gives a friend the same first layouts, their own redeals, and a table of everyone’s results', async () => {
    const { app } = server;
    const { code } = await createSeries(app, ana);
    const anaDeal = (await deal(app, ana, code, 1)).body.game;
    const bobDeal = (await deal(app, bob, code, 1)).body.game;
    expect(bobDeal.deals).toEqual(anaDeal.deals);

    // Bob copies Ana's moves up to her first redeal: the same cards are gathered, and dealt otherwise.
    const played = await autoplay(app, ana, anaDeal.gameId);
    const firstRedeal = played.indexOf('R');
    expect(firstRedeal).toBeGreaterThan(0);
    for (const [index, action] of played.slice(0, firstRedeal + 1).entries()) {
      expect(await app.games.play(bob, { gameId: bobDeal.gameId, index, action })).toBeUndefined();
    }
    const anaGame = now(app.games.get(anaDeal.gameId))!;
    const bobGame = now(app.games.get(bobDeal.gameId))!;
    expect(bobGame.deals[1]).not.toEqual(anaGame.deals[1]);
    for (const game of [anaGame, bobGame]) {
      expect(game.deals[1]).toEqual(makeLayout(redealLayout(attemptSeed(dealSeed(1), game.id), 1, layoutOf(game.deals[1]!).flat())));
    }
    await resign(app, bob, bobDeal.gameId);
    const anaCards = anaGame.position.foundationCount();
    const bobCards = bobGame.position.foundationCount();

    const view: SeriesView = (await api(app, 'GET', `/api/series/${code}`, bob)).body.series;
    expect(view.playerCount).toBe(2);
    expect(view.me).toMatchObject({ next: 2, playing: null, results: { played: 1 } });
    const row = (player: TestPlayer) => view.players.find((entry) => entry.player.id === player.id);
    expect(row(ana)).toMatchObject({ played: 1, wins: anaGame.state === 'won' ? 1 : 0, averageFoundations: anaCards, next: 2 });
    expect(row(bob)).toMatchObject({ played: 1, wins: 0, averageFoundations: bobCards, next: 2 });
    // Most wins first, then more cards home.
    expect(view.players.map((entry) => entry.player.name)).toEqual(anaCards >= bobCards ? ['Ana', 'Bob'] : ['Bob', 'Ana']);
  });
});

describe('a series paused', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after a restart, on another socket of the same identity, where it stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lucie-series-'));
    dirs.push(dataDir);
    const open = async () => {
      const app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, clock });
      await app.ready();
      return app;
    };
    let app = await open();
    const cid = await createPlayer(app, 'Cid');
    const { code } = (await api(app, 'POST', '/api/series', cid, {})).body.series as SeriesView;
    const first = await deal(app, cid, code, 1);
    const played = await autoplay(app, cid, first.body.game.gameId, 5);
    await app.close();

    app = await open();
    const view: SeriesView = (await api(app, 'GET', `/api/series/${code}`, cid)).body.series;
    expect(view.me).toMatchObject({ next: 1, playing: first.body.game.gameId });
    const resumed = await deal(app, cid, code, 1);
    expect(resumed.status).toBe(200);
    expect(resumed.body.game).toMatchObject({ gameId: first.body.game.gameId, deals: [first.body.game.deals[0]], actions: played });
    expect(await autoplay(app, cid, first.body.game.gameId, 1)).toHaveLength(1);
    await app.close();
  });
});
