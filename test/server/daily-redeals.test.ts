// Daily redeals no second identity can preview: every attempt starts from the day's first layout
// and redeals from its own stream (the day's seed and the attempt's game id), which anyone can
// recompute once the day is over and the seed is revealed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptSeed, dealsMismatch, makeLayout, redealLayout, type VariantId } from '../../shared/index.js';
import type { DailyStartAnswer } from '../../contract/index.js';
import { api, anaAndBob, autoplay, layoutOf, ManualClock, TEST_DAILY_SECRET, type TestPlayer, type TestServer, now } from './helpers.js';

const HOUR = 3_600_000;
let server: TestServer;
let clock: ManualClock;
let ana: TestPlayer;
let bob: TestPlayer;
beforeEach(async () => {
  // 2026-11-30: a deal `homeFirst` plays through its redeals.
  ({ server, clock, ana, bob } = await anaAndBob({ dailySecret: TEST_DAILY_SECRET }, Date.UTC(2026, 10, 30, 9)));
});
afterEach(async () => server.app.close());

async function startDaily(player: TestPlayer): Promise<DailyStartAnswer> {
  const { status, body } = await api(server.app, 'POST', '/api/daily/start', player);
  expect(status).toBe(201);
  return body;
}

describe('daily redeal streams', () => {
  it('gives a copycat the same first layout but its own redeals, each from its attempt stream', async () => {
    const { app } = server;
    const first = await startDaily(ana);
    const copy = await startDaily(bob);
    expect(copy.game.deals).toEqual(first.game.deals);

    const played = await autoplay(app, ana, first.game.gameId);
    const firstRedeal = played.indexOf('R');
    expect(firstRedeal).toBeGreaterThan(0);
    // Bob copies Ana's moves up to and including her first redeal: the same cards are gathered.
    for (const [index, action] of played.slice(0, firstRedeal + 1).entries()) {
      expect(await app.games.play(bob, { gameId: copy.game.gameId, index, action })).toBeUndefined();
    }
    const anaGame = now(app.games.get(first.game.gameId))!;
    const bobGame = now(app.games.get(copy.game.gameId))!;
    const gathered = layoutOf(bobGame.deals[1]!).flat();
    expect([...gathered].sort((a, b) => a - b)).toEqual([...layoutOf(anaGame.deals[1]!).flat()].sort((a, b) => a - b));
    expect(bobGame.deals[1]).not.toEqual(anaGame.deals[1]);

    // Once the day is over the seed is revealed and both attempts' deals recompute from it.
    clock.advance(24 * HOUR);
    const day = await api(app, 'GET', '/api/daily/2026-11-30');
    const seed: string = day.body.daily.seed;
    expect(seed).toMatch(/^daily-2026-11-30-/);
    for (const game of [anaGame, now(app.games.get(copy.game.gameId))!]) {
      const deals = game.deals.map(layoutOf);
      expect(deals.length).toBeGreaterThan(1);
      expect(dealsMismatch('strict' as VariantId, seed, attemptSeed(seed, game.id), deals)).toBeUndefined();
      expect(game.deals[1]).toEqual(makeLayout(redealLayout(attemptSeed(seed, game.id), 1, deals[1]!.flat())));
      // Not the race rule (one stream for all): that is what a copycat could have previewed.
      expect(dealsMismatch('strict', seed, seed, deals)).toMatchObject({ k: 1 });
    }
  });
});
