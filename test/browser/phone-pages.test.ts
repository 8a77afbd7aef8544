// Every page of the route table on a 390×844 phone, in each of Lucie's four languages (the
// browser's own, set as the context's locale), with real content behind it: a finished race with
// its standings and replay, a series deal and today's daily in play, a stored game. No page may
// scroll sideways (the document wider than the window); no table breaks a word across lines or
// cuts a cell; every header link shows whole, inside the window, a target of 24 px or more; a
// board's status bar keeps its counts and its Redeal button on the lines it was sized for; the
// practice board (strict, and the merci's with its two-line bar) fits the screen. One context per
// language, its single tab walking every page. Screenshots: phone-LOCALE-ROUTE.png in
// this run's folder.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePlayerAnswer, DailyStartAnswer, GhostStartAnswer, RaceAnswer } from '../../contract/index.js';
import type { RouteName } from '../../client/src/lib/routes.js';
import { Client } from '../support/socket-client.js';
import { BAR_LINE, BAR_MORE } from '../../client/src/lib/board/layout.js';
import { openBrowser, screenshot, startServer, type RunningServer } from './helpers.js';
import { MIN_TARGET, textProblems } from './layout-checks.js';

let server: RunningServer;
let ana: CreatePlayerAnswer;
let raceCode = '';
let seriesCode = '';
let gameId = 0;
let bobGameId = 0;
let ghostId = 0;

beforeAll(async () => {
  server = await startServer({ COUNTDOWN_MS: '0' });

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
  // A series with its first deal dealt: a board in play (today's daily is begun as the walk reaches it).
  seriesCode = (await server.post<{ series: { code: string } }>('/api/series', { variant: 'strict' }, ana.token)).series.code;
  await server.post(`/api/series/${seriesCode}/deals/1`, {}, ana.token);
});

afterAll(async () => {
  await server?.stop();
});

/** A page's path with real content, what the server must hold before it opens, and what shows once the page has drawn it. */
interface Walked {
  path(): string;
  before?(): Promise<unknown>;
  ready: string;
}

/** Every route's page (a Record: a new route that is not walked does not compile). */
const PAGES: Record<RouteName, Walked> = {
  start: { path: () => '/', ready: 'main form' },
  race: { path: () => `/race/${raceCode}`, ready: '#results table' },
  raceReplay: { path: () => `/race/${raceCode}/replay`, ready: '.boards .seat .card' },
  series: { path: () => `/series/${seriesCode}`, ready: '.board ol.fans .card' },
  // Today's attempt begun just before: a walk that crosses midnight UTC meets a new day.
  daily: { path: () => '/daily', before: () => server.post<DailyStartAnswer>('/api/daily/start', {}, ana.token), ready: '.board ol.fans .card' },
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
/** Pages walked besides the route table's: the merci's practice board, whose status bar has a second line for the merci's state. */
const MORE: Record<string, Walked> = {
  practiceMerci: { path: () => '/practice?seed=phone&variant=merci', ready: '.board ol.fans .card' },
};

describe.each([
  { locale: 'en', browserLocale: 'en-GB' },
  { locale: 'es', browserLocale: 'es-ES' },
  { locale: 'fr', browserLocale: 'fr-FR' },
  { locale: 'it', browserLocale: 'it-IT' },
])('a 390 px phone in $browserLocale', ({ locale, browserLocale }) => {
  it('scrolls no page of the route table sideways, and cuts no word, header link or status bar', async () => {
    const { context, page, close } = await openBrowser({ width: 390, height: 844 }, { hasTouch: true, isMobile: true, locale: browserLocale, serviceWorkers: 'block' });
    await context.addInitScript((identity) => localStorage.setItem('lucie.identity', identity), JSON.stringify({ player: ana.player, token: ana.token }));
    const wide: string[] = [];
    const problems: string[] = [];
    try {
      for (const [name, { path, before, ready }] of Object.entries({ ...PAGES, ...MORE })) {
        await before?.();
        await page.goto(`${server.base}${path()}`);
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
        await screenshot(page, `phone-${locale}-${name}`, true);
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        if (scrollWidth > clientWidth) wide.push(`${name} (${path()}): ${scrollWidth} px wide in a ${clientWidth} px window`);
        const { broken, clipped } = await textProblems(page);
        problems.push(...broken.map((word) => `${name}: broken ${word}`), ...clipped.map((box) => `${name}: cut ${box}`));
        problems.push(...(await headerProblems(page)).map((link) => `${name}: header ${link}`));
        const bar = await barRows(page);
        if (bar && bar.rows > bar.lines) problems.push(`${name}: the status bar's ${bar.items} take ${bar.rows} lines, sized for ${bar.lines}`);
        if (name === 'practice' || name === 'practiceMerci') {
          // The practice board has its Redeal button, and the whole board (felt, piles, bar, fans) fits the screen at the top of the page.
          expect(bar?.items).toContain('button');
          const board = await page.locator('.board .table').boundingBox();
          if (!board || board.y < 0 || board.y + board.height > 844) problems.push(`${name}: the board spans ${board?.y}–${board && board.y + board.height} px of an 844 px screen`);
        }
      }
    } finally {
      await close();
    }
    expect(wide).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** The site header's links and settings that are cut, outside the window or the header, or smaller than a target must be. */
function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate((minimum) => {
    const header = document.querySelector('#app > header')!;
    const frame = header.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    return [...header.querySelectorAll('a, summary')]
      .filter((element) => element.checkVisibility())
      .flatMap((element) => {
        const box = element.getBoundingClientRect();
        const name = `"${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim()}" at ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)}`;
        const outside = box.left < -0.5 || box.right > width + 0.5 || box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5;
        const small = box.width < minimum - 0.5 || box.height < minimum - 0.5;
        return [...(outside ? [`${name}: outside the header or the window`] : []), ...(small ? [`${name}: smaller than ${minimum} px`] : [])];
      });
  }, MIN_TARGET);
}

/** How many lines the board's status bar is drawn on and how many it was sized for (none: no board). */
function barRows(page: Page): Promise<{ rows: number; lines: number; items: string } | null> {
  return page.evaluate(
    ({ line, more }) => {
      const bar = document.querySelector('.board .bar');
      if (!bar) return null;
      const items = [...bar.children].filter((item) => item.checkVisibility());
      // Items on one line share its middle (the bar centres them); a new line starts lower than the last item's bottom.
      let rows = 0;
      let bottom = -Infinity;
      for (const item of items) {
        const box = item.getBoundingClientRect();
        if (box.top + box.height / 2 > bottom) rows++;
        bottom = Math.max(bottom, box.bottom);
      }
      return { rows, lines: 1 + Math.round((bar.clientHeight - line) / more), items: items.map((item) => item.tagName.toLowerCase()).join(', ') };
    },
    { line: BAR_LINE, more: BAR_MORE },
  );
}
