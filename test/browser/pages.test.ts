// The race, daily and game pages around the board at three window sizes, light and dark: the
// board never moves while a game is played, redealt and ended, nor when another racer's connection
// drops and comes back (those words float, the end and "Redealing…" are laid over the board),
// nothing overflows or overlaps, every target is 24 px or more, axe finds nothing; and words that
// come after a page is drawn leave it as it is.
// Screenshots go to this run's screenshot folder (printed at the end of the run; look at them).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { CreatePlayerAnswer, RaceAnswer } from '../../contract/index.js';
import { BoardDriver } from './board-driver.js';
import { axeViolations, openBrowser, readFans, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';
import { layoutProblems, watchSlots } from './layout-checks.js';

let server: RunningServer;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
});


/** A racer who stays connected and watches without playing, so the race runs on after the player's game ends. */
async function idleRacer(code: string, token: string): Promise<WebSocket> {
  const socket = new WebSocket(`${server.base.replace('http', 'ws')}/ws?token=${token}`);
  sockets.push(socket);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'watch', code }));
  return socket;
}

/** Makes this browser play as `answer`'s player from its next page load. */
async function playAs(page: Page, answer: CreatePlayerAnswer): Promise<void> {
  await page.evaluate((identity) => localStorage.setItem('lucie.identity', identity), JSON.stringify({ player: answer.player, token: answer.token }));
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const summary = page.locator('details.settings > summary');
  await summary.click();
  await page.getByLabel('Theme').selectOption(theme);
  await summary.click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
}

/** The page checked as drawn, in the theme it shows, and saved as a screenshot. */
async function checkPage(page: Page, shot: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(await layoutProblems(page)).toEqual({ overflow: [], overlaps: [], small: [] });
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, shot);
}

const VIEWPORTS = [
  { name: 'desktop', width: 1920, height: 1080 },
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.each(VIEWPORTS)('the pages around the board at $width×$height', ({ name, width, height }) => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser({ width, height }, { hasTouch: name === 'phone' });
    page = browser.page;
    await useSettings(page, server.base, { theme: 'light', speed: 'off' });
  });
  afterAll(async () => browser?.close());

  it('race: the board stays put through a whole game, its redeals and its end', async () => {
    const ana = await server.post<CreatePlayerAnswer>('/api/players', { name: `Ana ${name}` });
    const bot = await server.post<CreatePlayerAnswer>('/api/players', { name: `Bot ${name}` });
    const { race } = await server.post<RaceAnswer>('/api/races', { variant: 'strict', seats: 2 }, ana.token);
    await server.post<RaceAnswer>(`/api/races/${race.code}/join`, {}, bot.token);
    const botSocket = await idleRacer(race.code, bot.token);
    await playAs(page, ana);
    await page.goto(`${server.base}/race/${race.code}`);
    await server.post<RaceAnswer>(`/api/races/${race.code}/start`, {}, ana.token);
    const region = page.getByRole('region', { name: 'Your board' });
    await region.waitFor({ timeout: 30_000 });
    const driver = new BoardDriver(page, 'Your board', 'strict', await readFans(page, 'Your board'));
    await expect.poll(() => readFans(page, 'Your board')).toEqual(driver.position.fans);
    const watch = await watchSlots(region);
    await checkPage(page, `race-start-${name}-light`);

    let redeals = 0;
    for (let action = driver.next(), i = 0; action; action = driver.next(), i++) {
      if (action.type === 'redeal') redeals++;
      await driver.play(action, action.type === 'fan-to-fan' && i % 3 === 0 ? 'drag' : 'click');
      if (i === 3) {
        // The other racer's connection drops and comes back: the words about it float, the board stays.
        botSocket.close();
        await page.getByTestId('reconnecting').waitFor({ timeout: 15_000 });
        await idleRacer(race.code, bot.token);
        await page.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 15_000 });
      }
    }
    await page.getByTestId('waiting').waitFor();
    expect(redeals).toBeGreaterThan(0);
    expect(await watch.shifts()).toEqual([]);
    await checkPage(page, `race-over-${name}-light`);
    await setTheme(page, 'dark');
    await checkPage(page, `race-over-${name}-dark`);
    expect(await watch.shifts()).toEqual([]);
    await setTheme(page, 'light');
  });

  it('daily: the board stays put through a redeal and a resignation; the game page after', async () => {
    await playAs(page, await server.post<CreatePlayerAnswer>('/api/players', { name: `Daily ${name}` }));
    await page.goto(`${server.base}/daily`);
    await page.getByRole('button', { name: 'Start today’s attempt' }).click();
    const region = page.getByRole('region', { name: 'Daily board' });
    await region.waitFor();
    const driver = new BoardDriver(page, 'Daily board', 'strict', await readFans(page, 'Daily board'));
    const watch = await watchSlots(region);
    await checkPage(page, `daily-start-${name}-light`);
    // Up to the first redeal, then a resignation: the Resign button goes, the end is laid over the board.
    for (let action = driver.next(); action; action = driver.next()) {
      await driver.play(action, 'click');
      if (action.type === 'redeal') break;
    }
    if (!driver.position.status().over) {
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.getByRole('button', { name: 'Really resign?' }).click();
    }
    await page.getByTestId('daily-outcome').waitFor();
    expect(await watch.shifts()).toEqual([]);
    await setTheme(page, 'dark');
    await checkPage(page, `daily-over-${name}-dark`);
    await setTheme(page, 'light');
    await checkPage(page, `daily-over-${name}-light`);

    // The overlay's link is a link like any other: it opens the game's page.
    await page.getByRole('link', { name: 'Watch the replay' }).click();
    await page.waitForURL(/\/game\/\d+$/);
    await page.getByRole('region', { name: /board/i }).first().waitFor();
    await checkPage(page, `game-${name}-light`);
    await setTheme(page, 'dark');
    await checkPage(page, `game-${name}-dark`);
    await setTheme(page, 'light');
  });
});

describe('words that come after a page is drawn', () => {
  it('leave the page as it is: a name being typed when they come stays typed, settings another tab saved meanwhile stay saved', async () => {
    const browser = await openBrowser({ width: 1280, height: 900 });
    try {
      const { page } = browser;
      // The words the pages draw later wait until the name is typed, as on a slow network.
      let release = (): void => {};
      const typed = new Promise<void>((resolve) => (release = resolve));
      let held = 0;
      await page.route(/\/assets\/(start-)?later-[^/]*\.js$/, async (route) => {
        held++;
        await typed;
        await route.continue();
      });
      await page.goto(server.base);
      const name = page.getByLabel('Your name');
      await name.fill('Ana');
      expect(held).toBeGreaterThan(0);
      // Another tab changes a setting: this page's copy is older, and the words coming must not write it back.
      const newer = await page.evaluate(() => {
        const text = JSON.stringify({ ...JSON.parse(localStorage.getItem('lucie.settings')!), speed: 'off', autoPlayRanked: true });
        localStorage.setItem('lucie.settings', text);
        return text;
      });
      release();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise(requestAnimationFrame));
      expect(await name.inputValue()).toBe('Ana');
      expect(await page.evaluate(() => localStorage.getItem('lucie.settings'))).toBe(newer);
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByTestId('my-name').waitFor();
    } finally {
      await browser.close();
    }
  });
});
