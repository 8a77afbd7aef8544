// Game analyses: solved in a worker thread once a game's seed is public (race finished, day
// over), never before; stored and served from storage; a solver that fails or never answers
// leaves the game and its race working and says so.
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAction, parseLayout, Position } from '../../shared/index.js';
import type { AnalysisAnswer, AnalysisLine } from '../../contract/index.js';
import { gameAnalyses } from '../../server/db/schema.js';
import type { AppOptions } from '../../server/app.js';
import { api, autoplay, Client, settledAnalysis as settled, createPlayer, createRace, ManualClock, setSeed, startServer, TEST_DAILY_SECRET, unwrap, type TestPlayer, type TestServer } from './helpers.js';

let server: TestServer;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server.app.close();
});

const HOUR = 3_600_000;
const stored = (app: FastifyInstance) => app.db.select().from(gameAnalyses).all();

/** Plays a line (actions and the layouts its redeals deal) from `first` with the engine; returns the cards home. */
function playLine(variant: 'strict', first: string[], line: AnalysisLine): number {
  const position = unwrap(Position.start(variant, unwrap(parseLayout(first))));
  let redeal = 0;
  for (const text of line.actions) {
    const action = unwrap(parseAction(text));
    const layout = action.type === 'redeal' ? unwrap(parseLayout(line.redeals[redeal++]!)) : undefined;
    const problem = position.problem(action, layout);
    if (problem !== undefined) throw new Error(`${text}: ${problem}`);
    position.play(action, layout);
  }
  return position.foundationCount();
}

/** A two-seat race on seed s0 (strict: first deal 24 at most, par 46, clairvoyant 52), started; Ana plays `moves` actions, neither finishes. */
async function runningRace(options: Partial<AppOptions> = {}, moves = 6) {
  const clock = new ManualClock();
  server = await startServer({ clock, ...options });
  const { app } = server;
  const [ana, bob] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
  const race = await createRace(app, ana, { seats: 2 });
  setSeed(app, race.code, 's0');
  await api(app, 'POST', `/api/races/${race.code}/join`, bob);
  const [a, b] = [await Client.connect(server.wsBase, ana), await Client.connect(server.wsBase, bob)];
  clients.push(a, b);
  await api(app, 'POST', `/api/races/${race.code}/start`, ana);
  clock.advance(0);
  const [gameA, gameB] = [await a.next('game'), await b.next('game')];
  const played = await autoplay(app, ana, gameA.gameId, moves);
  const finish = async () => {
    for (const [client, game] of [[a, gameA], [b, gameB]] as const) {
      client.send({ type: 'resign', gameId: game.gameId });
      await client.next('game-over');
    }
  };
  return { app, ana, bob, race, gameA, gameB, played, finish };
}

describe('game analyses', () => {
  it('are refused to everyone until the race is finished, then solved in the background and served from storage', async () => {
    const { app, ana, bob, race, gameA, gameB, played, finish } = await runningRace();
    for (const viewer of [ana, bob, undefined]) {
      expect((await api(app, 'GET', `/api/games/${gameA.gameId}/analysis`, viewer)).body).toMatchObject({ statusCode: 403, code: 'analysis-hidden' });
    }
    // Nothing is solved, nor stored, while the race is on.
    expect(stored(app)).toEqual([]);
    await finish();
    expect((await api(app, 'GET', `/api/races/${race.code}`)).body.race.state).toBe('finished');
    const answer = await settled(app, gameA.gameId, bob);
    expect(answer).toMatchObject({ gameId: gameA.gameId, status: 'done', reason: null });
    const analysis = answer.analysis!;
    expect(analysis.firstDeal).toEqual({ max: 24, clearable: false, exact: true });
    expect(analysis.par).toMatchObject({ count: 46, won: false });
    expect(analysis.clairvoyant).toMatchObject({ best: 52, won: true, exact: true });
    // Each line, played by the engine on the seed's real layouts, ends with the count claimed.
    expect(playLine('strict', gameA.deals[0]!, analysis.par.line!)).toBe(46);
    expect(playLine('strict', gameA.deals[0]!, analysis.clairvoyant.line)).toBe(52);
    // The curve: the start, then one point after each of Ana's actions; the maximum starts at the first deal's and never rises within the deal.
    expect(analysis.points).toHaveLength(played.length + 1);
    expect(analysis.points[0]).toEqual({ deal: 0, home: 0, dealMax: 24, exact: true });
    for (let i = 1; i < analysis.points.length; i++) {
      const [before, point] = [analysis.points[i - 1]!, analysis.points[i]!];
      if (point.deal === before.deal) expect(point.dealMax).toBeLessThanOrEqual(before.dealMax);
      expect(point.home).toBeLessThanOrEqual(point.dealMax);
    }
    // Both racers' games were solved once each (same seed, same first deal) and are stored.
    const other = await settled(app, gameB.gameId);
    expect(other.analysis!.points).toHaveLength(1);
    expect(other.analysis!.par.count).toBe(46);
    expect(stored(app).map((row) => [row.gameId, row.status]).sort()).toEqual([
      [gameA.gameId, 'done'],
      [gameB.gameId, 'done'],
    ]);
    // Served from storage: the stored row is what the route answers.
    app.db.update(gameAnalyses).set({ analysis: { ...analysis, nodes: 7 } }).where(eq(gameAnalyses.gameId, gameA.gameId)).run();
    expect((await api(app, 'GET', `/api/games/${gameA.gameId}/analysis`)).body.analysis.nodes).toBe(7);
  });

  it('of a daily attempt wait for the end of the day, then are queued when it closes', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock, dailySecret: TEST_DAILY_SECRET });
    const { app } = server;
    const ana = await createPlayer(app, 'Ana');
    const { body } = await api(app, 'POST', '/api/daily/start', ana);
    const gameId: number = body.game.gameId;
    const played = await autoplay(app, ana, gameId);
    expect((await api(app, 'GET', `/api/games/${gameId}`)).body.game.result.state).toBe('won');
    expect((await api(app, 'GET', `/api/games/${gameId}/analysis`, ana)).body).toMatchObject({ statusCode: 403, code: 'analysis-hidden' });
    expect((await api(app, 'GET', '/api/daily/2026-11-29/analysis', ana)).body).toMatchObject({ statusCode: 403, code: 'analysis-hidden' });
    expect((await api(app, 'GET', '/api/daily/2026-11-30/analysis')).body).toMatchObject({ statusCode: 404, code: 'day-not-open' });
    clock.advance(11 * HOUR);
    expect((await api(app, 'GET', `/api/games/${gameId}/analysis`, ana)).body).toMatchObject({ statusCode: 403, code: 'analysis-hidden' });
    expect(stored(app)).toEqual([]);
    // Midnight: the day closes and its attempt is queued without anyone asking.
    clock.advance(1 * HOUR);
    await vi.waitFor(() => expect(stored(app).map((row) => row.status)).toEqual(['done']), { timeout: 30_000, interval: 50 });
    const answer = await settled(app, gameId);
    expect(answer.analysis!.points).toHaveLength(played.length + 1);
    expect(answer.analysis!.points.at(-1)).toMatchObject({ home: 52, dealMax: 52 });
    expect(answer.analysis!.par.count).toBe(52);
    // The day's summary: the first deal (clearable with `homeFirst`, so 52) and the one attempt, at par.
    expect((await api(app, 'GET', '/api/daily/2026-11-29/analysis')).body).toEqual({
      day: '2026-11-29',
      firstDeal: { max: 52, exact: true },
      attempts: 1,
      analysed: 1,
      reachedPar: 1,
    });
  });

  it('say "unavailable" when the solver never answers, and the race still works', async () => {
    const silent = new URL('./workers/silent-analysis-worker.mjs', import.meta.url);
    const { app, race, gameA, finish } = await runningRace({ analysis: { worker: silent, jobTimeoutMs: 300 } });
    await finish();
    const pending = await api(app, 'GET', `/api/games/${gameA.gameId}/analysis`);
    expect(pending.body).toMatchObject({ status: 'pending', analysis: null });
    const answer = await settled(app, gameA.gameId);
    expect(answer).toEqual({ gameId: gameA.gameId, status: 'unavailable', reason: 'the solve took longer than 300 ms', analysis: null, fairPlay: null });
    expect((await api(app, 'GET', `/api/races/${race.code}`)).status).toBe(200);
    expect((await api(app, 'GET', `/api/games/${gameA.gameId}/record`)).status).toBe(200);
  });

  it('say "unavailable" when the solver fails, and the next game is solved by a fresh worker', async () => {
    const failing = new URL('./workers/failing-analysis-worker.mjs', import.meta.url);
    const { app, gameA, gameB, finish } = await runningRace({ analysis: { worker: failing } });
    await finish();
    const answers = [await settled(app, gameA.gameId), await settled(app, gameB.gameId)];
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 'unavailable', analysis: null });
      expect(answer.reason).toContain('solver fault on purpose');
    }
  });

  it('stop their worker, busy or not, when the server closes', async () => {
    const silent = new URL('./workers/silent-analysis-worker.mjs', import.meta.url);
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    try {
      const { app, gameA, finish } = await runningRace({ analysis: { worker: silent } });
      await finish();
      expect((await api(app, 'GET', `/api/games/${gameA.gameId}/analysis`)).body.status).toBe('pending');
      expect(terminate).not.toHaveBeenCalled();
      await app.close();
      expect(terminate).toHaveBeenCalledTimes(1);
      // Terminated, not left to finish: its thread is gone by the time the close has returned.
      await terminate.mock.results[0]!.value;
      expect((terminate.mock.contexts[0] as Worker).threadId).toBe(-1);
    } finally {
      terminate.mockRestore();
    }
  });

  it('refuse a bad or unknown game id', async () => {
    server = await startServer();
    const { app } = server;
    expect((await api(app, 'GET', '/api/games/0/analysis')).body).toMatchObject({ statusCode: 400, code: 'invalid-param', field: 'id' });
    expect((await api(app, 'GET', '/api/games/99/analysis')).body).toMatchObject({ statusCode: 404, code: 'unknown-game' });
  });
});
