// Every page of the route table on a 390×844 phone, in each of Lucie's four languages (the
// browser's own, set as the context's locale), with real content behind it: a finished race with
// its standings and replay, a series deal and today's daily in play, a stored game. No page may
// scroll sideways (the document wider than the window). One browser; one context per language,
// its single tab walking every page. Screenshots: phone-LOCALE-ROUTE.png in this run's folder.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePlayerAnswer, DailyStartAnswer, GhostStartAnswer, RaceAnswer } from '../../contract/index.js';
import type { RouteName } from '../../client/src/lib/routes.js';
import { Client } from '../support/socket-client.js';
import { buildClient, screenshot, startServer, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let ana: CreatePlayerAnswer;
let raceCode = '';
let seriesCode = '';
let gameId = 0;
let bobGameId = 0;
let ghostId = 0;

beforeAll(async () => {
  buildClient();
  server = await startServer({ COUNTDOWN_MS: '0' });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });

  // A race of two, finished: both resign at once (the standings, their replay links, the rematch).
  ana = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Anastasia Bartholomew' });
  const bob = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Bob' });
  const { race } = await server.post<RaceAnswer>('/api/races', { seats: 2 }, ana.token);
  await server.post(`/api/races/${race.code}/join`, {}, bob.token);
  const wsBase = server.base.replace('http', 'ws');
  const clients = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob)];
  for (const client of clients) client.send({ type: 'watch', code: race.code });
  await server.post(`/api/races/${race.code}/start`, {}, ana.token);
  for (const client of clients) {
    const game = await client.next('game');
    client.send({ type: 'resign', gameId: game.gameId });
    await client.next('game-over');
    if (client === clients[0]) gameId = game.gameId;
    else bobGameId = game.gameId;
    client.close();
  }
  raceCode = race.code;
  // A ghost race against Bob's seat of it, begun.
  ghostId = (await server.post<GhostStartAnswer>(`/api/games/${bobGameId}/ghost`, {}, ana.token)).game.gameId;
  // A series with its first deal dealt, and today's daily begun: both show a board in play.
  seriesCode = (await server.post<{ series: { code: string } }>('/api/series', { variant: 'strict' }, ana.token)).series.code;
  await server.post(`/api/series/${seriesCode}/deals/1`, {}, ana.token);
  await server.post<DailyStartAnswer>('/api/daily/start', {}, ana.token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Each route's path with real content, and what shows once its page has drawn it (a Record: a new route that is not walked does not compile). */
const PAGES: Record<RouteName, { path: () => string; ready: string }> = {
  start: { path: () => '/', ready: 'main form' },
  race: { path: () => `/race/${raceCode}`, ready: '#results table' },
  raceReplay: { path: () => `/race/${raceCode}/replay`, ready: '.boards .seat .card' },
  series: { path: () => `/series/${seriesCode}`, ready: '.board ol.fans .card' },
  daily: { path: () => '/daily', ready: '.board ol.fans .card' },
  practice: { path: () => '/practice?seed=phone&variant=strict', ready: '.board ol.fans .card' },
  history: { path: () => '/history', ready: 'ul.games' },
  ghost: { path: () => `/ghost/${ghostId}`, ready: '.ghost-page .board ol.fans .card' },
  ratings: { path: () => '/ratings/strict', ready: '[data-testid="ratings-empty"]' },
  game: { path: () => `/game/${gameId}`, ready: '[data-testid="game-result"]' },
  player: { path: () => `/player/${ana.player.id}`, ready: '#record-title' },
  rules: { path: () => '/rules', ready: 'article.rules[aria-busy="false"]' },
  link: { path: () => '/link', ready: '#link-title' },
  operator: { path: () => '/operator', ready: 'form.sign-in' },
  openRecord: { path: () => '/replay', ready: '[data-testid="drop-zone"]' },
};

describe.each([
  { locale: 'en', browserLocale: 'en-GB' },
  { locale: 'es', browserLocale: 'es-ES' },
  { locale: 'fr', browserLocale: 'fr-FR' },
  { locale: 'it', browserLocale: 'it-IT' },
])('a 390 px phone in $browserLocale', ({ locale, browserLocale }) => {
  it('scrolls no page of the route table sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: browserLocale, serviceWorkers: 'block' });
    await context.addInitScript((identity) => localStorage.setItem('lucie.identity', identity), JSON.stringify({ player: ana.player, token: ana.token }));
    const page: Page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    const wide: string[] = [];
    try {
      for (const [name, { path, ready }] of Object.entries(PAGES)) {
        await page.goto(`${server.base}${path()}`);
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
        await screenshot(page, `phone-${locale}-${name}`, true);
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        if (scrollWidth > clientWidth) wide.push(`${name} (${path()}): ${scrollWidth} px wide in a ${clientWidth} px window`);
      }
    } finally {
      await context.close();
    }
    expect(wide).toEqual([]);
  });
});
