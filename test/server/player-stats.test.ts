// A player's record: games, wins, win rate, average cards home, fastest win and streaks per
// variant, from their finished games.
import { afterEach, describe, expect, it } from 'vitest';
import { dailyStreak, variantStats } from '../../server/player-stats.js';
import type { PlayerStats } from '../../contract/index.js';
import { api, autoplay, createPlayer, createRace, ManualClock, startServer, TEST_DAILY_SECRET, type TestServer } from './helpers.js';

describe('variant stats', () => {
  it('counts streaks in the order games ended, per variant', () => {
    const game = (variant: 'strict' | 'merci', won: boolean, foundations: number, elapsedMs: number) => ({ variant, won, foundations, elapsedMs });
    const stats = variantStats([
      game('strict', true, 52, 90_000),
      game('strict', true, 52, 60_000),
      game('merci', false, 30, 10_000),
      game('strict', false, 20, 5_000),
      game('strict', true, 52, 70_000),
    ]);
    expect(stats).toEqual([
      { variant: 'strict', games: 4, wins: 3, winRate: 0.75, averageFoundations: 44, bestWinMs: 60_000, currentStreak: 1, bestStreak: 2, rating: null },
      { variant: 'merci', games: 1, wins: 0, winRate: 0, averageFoundations: 30, bestWinMs: null, currentStreak: 0, bestStreak: 0, rating: null },
    ]);
    expect(variantStats([])).toEqual([]);
  });
});

describe('daily streak', () => {
  it('counts days in a row with an attempt: the longest run, and the current one while it reaches today or yesterday', () => {
    const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-05', '2026-11-30', '2026-12-01'];
    expect(dailyStreak(days, '2026-12-01')).toEqual({ current: 2, best: 3 });
    expect(dailyStreak(days, '2026-12-02')).toEqual({ current: 2, best: 3 });
    expect(dailyStreak(days, '2026-12-03')).toEqual({ current: 0, best: 3 });
    expect(dailyStreak(['2028-02-28', '2028-02-29', '2028-03-01', '2028-03-01'], '2028-03-01')).toEqual({ current: 3, best: 3 });
    expect(dailyStreak([], '2026-12-01')).toEqual({ current: 0, best: 0 });
  });
});

describe('GET /api/players/:id/stats', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.app.close();
  });

  it('gives anyone a player’s record from their finished games, games still played left out', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock, dailySecret: TEST_DAILY_SECRET });
    const { app } = server;
    const [ana, bob] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
    const stats = async (id: number) => (await api(app, 'GET', `/api/players/${id}/stats`)).body.stats as PlayerStats;
    expect(await stats(ana.id)).toEqual({ player: { id: ana.id, name: 'Ana' }, variants: [], daily: { current: 0, best: 0 }, series: [], fairPlay: { games: 0, accuracy: null, medianMs: null } });

    // A race Ana resigns with a few cards home.
    const race = await createRace(app, ana, { seats: 2 });
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const anaGame = (await app.races.gameOf(race.code, ana.id))!;
    await autoplay(app, ana, anaGame.id, 6);
    const home = anaGame.position.foundationCount();
    await app.games.resign(ana, anaGame.id);
    expect((await stats(ana.id)).variants).toEqual([
      { variant: 'strict', games: 1, wins: 0, winRate: 0, averageFoundations: home, bestWinMs: null, currentStreak: 0, bestStreak: 0, rating: null },
    ]);
    // Bob's game is still being played: no record yet.
    expect((await stats(bob.id)).variants).toEqual([]);

    // The day's deal, won by Ana (the test secret's first day is won without a redeal).
    const daily = (await api(app, 'POST', '/api/daily/start', ana)).body;
    clock.jump(42_000);
    await autoplay(app, ana, daily.game.gameId);
    expect((await app.games.get(daily.game.gameId))!.state).toBe('won');
    expect((await stats(ana.id)).variants).toEqual([
      { variant: 'strict', games: 2, wins: 1, winRate: 0.5, averageFoundations: (home + 52) / 2, bestWinMs: 42_000, currentStreak: 1, bestStreak: 1, rating: null },
    ]);
    expect((await stats(ana.id)).daily).toEqual({ current: 1, best: 1 });
    // The streak holds through the next day (its attempt may be still to come), and is gone the day after.
    clock.jump(24 * 3_600_000);
    expect((await stats(ana.id)).daily).toEqual({ current: 1, best: 1 });
    clock.jump(24 * 3_600_000);
    expect((await stats(ana.id)).daily).toEqual({ current: 0, best: 1 });

    expect((await api(app, 'GET', '/api/players/999/stats')).body).toMatchObject({ statusCode: 404, code: 'unknown-player', field: 'id' });
    expect((await api(app, 'GET', '/api/players/x1/stats')).body).toMatchObject({ statusCode: 400, code: 'invalid-param', field: 'id' });
  });
});
