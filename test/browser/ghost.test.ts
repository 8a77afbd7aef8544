// A ghost race in a real browser against a real server: two bots race (their actions stored at
// their own pace); once the race is finished Bo opens one bot's game, presses "Race this game"
// and sees the ghost move on its stored timeline beside his board; he resigns, sees both results
// side by side, and "Copy result" puts the spoiler-free line on his clipboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameSummary, GhostStartAnswer, RaceReplayAnswer } from '../../contract/index.js';
import { raceBots, type Bot } from '../support/bots.js';
import { axeViolations, openBrowser, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let bo: Browser;
let bots: Bot[] = [];

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' });
  bo = await openBrowser({ width: 1280, height: 900 });
});

afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop()));
  await bo?.close();
  await server?.stop();
});

const get = async <T>(path: string): Promise<T> => (await fetch(server.base + path)).json() as Promise<T>;

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a ghost race', () => {
  it('moves the ghost on its stored timeline, then shows both results and copies the line', async () => {
    bots = await raceBots(server.base, 2, 120);
    for (const bot of bots) bot.start();
    const ghostId = bots[0]!.mirror.gameId;
    // The race is finished once both games have ended: its seed is public.
    const raced = await until('finished race', async () => {
      const { game } = await get<{ game: GameSummary }>(`/api/games/${ghostId}`);
      return game.seed === null ? undefined : game;
    });
    const replay = await get<RaceReplayAnswer>(`/api/races/${raced.raceCode}/replay`);
    const offsets = replay.games.find((game) => game.gameId === ghostId)!.times.map((at) => at - raced.startedAt);
    expect(offsets.length).toBeGreaterThan(10);

    const { player, token } = await server.post<{ player: { id: number; name: string }; token: string }>('/api/players', { name: 'Bo' });
    await bo.context.addInitScript((identity) => localStorage.setItem('lucie.identity', identity), JSON.stringify({ player, token }));
    await bo.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    const { page } = bo;
    await page.goto(`${server.base}/game/${ghostId}`);
    const started = page.waitForResponse((response) => response.url().endsWith(`/api/games/${ghostId}/ghost`) && response.request().method() === 'POST');
    await page.getByTestId('race-ghost').click();
    const answer = (await (await started).json()) as GhostStartAnswer;
    await page.waitForURL(`**/ghost/${answer.game.gameId}`);
    await page.locator('button.resign').waitFor();

    // The ghost's moves, read off the page, are those stored by then on its own timeline.
    const ghostMoves = page.locator(`li[aria-label="${raced.player.name}"] [data-field="moves"]`);
    const storedBy = (elapsed: number) => offsets.filter((offset) => offset <= elapsed).length;
    for (const target of [3, 8]) {
      await page.waitForFunction(([selector, n]) => Number(document.querySelector(selector as string)?.textContent) >= (n as number), [`li[aria-label="${raced.player.name}"] [data-field="moves"]`, target] as const);
      const shown = Number(await ghostMoves.textContent());
      const elapsed = Date.now() - answer.ghost.startedAt;
      expect(shown).toBeGreaterThanOrEqual(storedBy(elapsed - 1500));
      expect(shown).toBeLessThanOrEqual(storedBy(elapsed + 250));
    }

    await screenshot(page, 'ghost-race-desktop-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'ghost-race-desktop-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'ghost-race-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'ghost-race-phone-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Bo resigns: both results side by side, the ghost's at its own end.
    const resign = page.locator('button.resign');
    await resign.click();
    await resign.click();
    await page.getByTestId('ghost-results').waitFor();
    // Side by side: Bo's column, then the ghost's.
    expect(await page.getByTestId('ghost-results').locator('[data-field="foundations"]').allTextContents()).toEqual(['0/52', `${raced.result.foundations}/52`]);
    expect(await page.getByTestId('result-ghost').textContent()).toBe(`Ghost: ${raced.player.name}`);
    await screenshot(page, 'ghost-race-results');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('copy-result').click();
    await page.getByText('Result copied').waitFor();
    const mine = await get<{ game: GameSummary }>(`/api/games/${answer.game.gameId}`);
    const seconds = Math.floor(mine.game.result.elapsedMs! / 1000);
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    // Par is there once the background solver has been (`?` until then).
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.replace(/ · par (\?|\d+) · /, ' · par P · ')).toBe(`Lucie ghost race against ${raced.player.name} · 0/52 · ${time} · par P · 🟥⬜⬜\n${server.base}/game/${answer.game.gameId}`);

    // The two games replayed together on the ghost race's clock: Bo's board beside the ghost's, each at its end.
    const together = page.getByRole('region', { name: 'The two games, replayed together' });
    await together.getByRole('region', { name: `${raced.player.name}’s board` }).waitFor();
    expect(await together.locator('figure.seat').evaluateAll((seats) => seats.map((seat) => seat.getAttribute('data-player')))).toEqual(['Bo', raced.player.name]);
    await together.getByRole('button', { name: `${raced.player.name}’s finish` }).click();
    await expect.poll(() => together.getByTestId('replay-home').allTextContents()).toEqual(['0/52 home', `${raced.result.foundations}/52 home`]);
    await screenshot(page, 'ghost-race-replay', true);
    expect(await axeViolations(page)).toEqual([]);
  });
});
