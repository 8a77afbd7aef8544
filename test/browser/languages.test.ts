// Lucie in four languages, with a context of the shared Chromium per visitor:
// - the pseudo-locale en-XA (every catalogue message marked ⟦…⟧) walks every page of the route
//   table with real content (a finished race and its replay, a series, a daily attempt on its
//   board, practice, history, a game, a player, the rules, an opened record file, an ended ghost
//   race and its replay, the rating board, a device link, the operator's page signed in, a page
//   that does not exist) and finds no
//   visible text, aria-label, title or placeholder outside the catalogue;
// - a Spanish, French or Italian browser gets its language on the start, race, daily, replay and
//   rules pages and the settings, with no English sentence of the catalogue left, <html lang> set,
//   nothing wider than 1280 or 390 px; screenshots go to this run's folder as lang-*.png (look at
//   them); the language chosen in Settings is kept, and any other browser language gets English;
// - a screen reader hears an opponent's lost connection once, their return once and another's
//   abandonment once, over a short grace period (GRACE_SECONDS), never the countdown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { CreatePlayerAnswer, DailyStartAnswer, GameSummary, GhostStartAnswer, LinkAnswer, RaceAnswer, SeriesAnswer } from '../../contract/index.js';
import { dealLayout, makeRecord, recordOf } from '../../shared/index.js';
import { readCatalogue } from '../../vite-messages.js';
import { openBrowser, screenshot, shotsDir, startServer, type RunningServer } from './helpers.js';

const catalogue = (locale: string): Record<string, string> => readCatalogue(locale);
/** Short, so the abandonment comes within the test; long enough for a loaded machine to see the loss first. */
const GRACE_SECONDS = 4;
/** The operator page is walked signed in, with a report to list. */
const ADMIN_TOKEN = 'languages-suite-operator-token';
const SOON = { timeout: 20_000 };

let server: RunningServer;
let ana: CreatePlayerAnswer;
let bo: CreatePlayerAnswer;
let cy: CreatePlayerAnswer;
let raceCode: string;
let seriesCode: string;
let gameId: number;
let ghostId: number;
/** A device link Bo made: the link page asks "Continue as Bo?" (checked, never claimed). */
let linkCode: string;
const sockets: WebSocket[] = [];
const recordFile = join(shotsDir(), 'languages-record.json');

const raceView = async (code: string) => ((await (await fetch(`${server.base}/api/races/${code}`)).json()) as RaceAnswer).race;

/** Waits until `check` holds (polled: the server settles a race on its own time), at most 30 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await check()); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
  }
}

/** A racer on a socket of their own, watching `code` (so the server counts them connected). */
async function racerSocket(code: string, token: string): Promise<WebSocket> {
  const socket = new WebSocket(`${server.base.replace('http', 'ws')}/ws?token=${token}`);
  sockets.push(socket);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'watch', code }));
  return socket;
}

/** A started race of `racers`, once running: its code and each racer's game. */
async function runningRace(racers: readonly CreatePlayerAnswer[]): Promise<{ code: string; games: Map<number, number> }> {
  const { race } = await server.post<RaceAnswer>('/api/races', { variant: 'strict', seats: racers.length }, racers[0]!.token);
  for (const racer of racers.slice(1)) await server.post(`/api/races/${race.code}/join`, {}, racer.token);
  await server.post(`/api/races/${race.code}/start`, {}, racers[0]!.token);
  await until('the race to run', async () => (await raceView(race.code)).state === 'running');
  const view = await raceView(race.code);
  return { code: race.code, games: new Map(view.progress.map((row) => [row.playerId, row.gameId])) };
}

beforeAll(async () => {
  server = await startServer({ GRACE_SECONDS: String(GRACE_SECONDS), COUNTDOWN_MS: '300', ADMIN_TOKEN });
  ana = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Ana' });
  bo = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Bo' });
  cy = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Cy' });
  // A finished race (both resign at once), with its standings and replay.
  const finished = await runningRace([ana, bo]);
  raceCode = finished.code;
  const resigning = await Promise.all([ana, bo].map((racer) => racerSocket(raceCode, racer.token)));
  resigning.forEach((socket, i) => socket.send(JSON.stringify({ type: 'resign', gameId: finished.games.get([ana, bo][i]!.player.id) })));
  await until('the race to finish', async () => (await raceView(raceCode)).state === 'finished');
  // Gone again, so that in the next race Bo's only connection is the one the test drops.
  for (const socket of resigning) socket.close();
  // Ana races Bo's game as a ghost and resigns at once: the ended ghost race, its results and replay.
  ghostId = (await server.post<GhostStartAnswer>(`/api/games/${finished.games.get(bo.player.id)}/ghost`, {}, ana.token)).game.gameId;
  const ghostSocket = await racerSocket(raceCode, ana.token);
  ghostSocket.send(JSON.stringify({ type: 'resign', gameId: ghostId }));
  await until('the ghost race to end', async () => ((await (await fetch(`${server.base}/api/games/${ghostId}`)).json()) as { game: GameSummary }).game.result.state !== 'playing');
  ghostSocket.close();
  linkCode = (await server.post<LinkAnswer>('/api/me/links', {}, bo.token)).code;
  await server.post(`/api/players/${cy.player.id}/report`, { reason: 'name' }, bo.token);
  seriesCode = (await server.post<SeriesAnswer>('/api/series', {}, ana.token)).series.code;
  gameId = (await server.post<DailyStartAnswer>('/api/daily/start', {}, ana.token)).game.gameId;
  // A record whose meta claims a win the moves never reach: the verdict, the claims and the replayer all show.
  writeFileSync(recordFile, JSON.stringify(makeRecord(recordOf('strict', [dealLayout('lingua', 'strict')], [], { seed: 'lingua', meta: { player: 'Ana', state: 'won' } }))));
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
});

/** Every page of the route table (client/src/lib/routes.ts), each ready when `ready` shows. */
const PAGES = [
  { name: 'start', path: () => '/', ready: 'main form' },
  { name: 'race', path: () => `/race/${raceCode}`, ready: '#results' },
  { name: 'replay', path: () => `/race/${raceCode}/replay`, ready: '[data-testid="replay-clock"]' },
  { name: 'series', path: () => `/series/${seriesCode}`, ready: '[data-testid="benchmark"]' },
  // Ana's attempt of today begun just before (as for phone-pages.test): a walk that crosses midnight UTC meets a new day.
  { name: 'daily', path: () => '/daily', before: () => server.post<DailyStartAnswer>('/api/daily/start', {}, ana.token), ready: '.board .fans' },
  { name: 'practice', path: () => '/practice', ready: '.board .fans' },
  { name: 'history', path: () => '/history', ready: 'ul.games' },
  { name: 'game', path: () => `/game/${gameId}`, ready: '[data-testid="game-result"]' },
  { name: 'player', path: () => `/player/${ana.player.id}`, ready: '#record-title' },
  { name: 'rules', path: () => '/rules', ready: '#rules-title' },
  { name: 'open-record', path: () => '/replay', ready: '[data-testid="drop-zone"]' },
  { name: 'ghost', path: () => `/ghost/${ghostId}`, ready: '[data-testid="replay-clock"]' },
  { name: 'ratings', path: () => '/ratings', ready: '#ratings-title' },
  { name: 'link', path: () => `/link#${linkCode}`, ready: '[data-testid="continue-as"]' },
  { name: 'operator', path: () => '/operator', ready: '.operator table' },
  { name: 'not-found', path: () => '/no/such/page', ready: 'main h1' },
] as const;
type PageName = (typeof PAGES)[number]['name'];

async function open(page: Page, name: PageName): Promise<void> {
  const entry = PAGES.find((each) => each.name === name)!;
  if ('before' in entry) await entry.before();
  await page.goto(`${server.base}${entry.path()}`);
  await page.locator(entry.ready).first().waitFor(SOON);
  if (name === 'open-record') {
    await page.locator('input[type="file"]').setInputFiles(recordFile);
    await page.getByTestId('claims').waitFor();
  }
  if (name === 'rules') await page.locator('#rules-title').filter({ hasText: /./ }).waitFor();
}

/** Starts every context as Ana, in `locale`'s settings when given, the operator's token in the tab (before any script of the page runs). */
async function asAna(page: Page, locale?: string): Promise<void> {
  await page.context().addInitScript(
    ([identity, settings, adminToken]) => {
      localStorage.setItem('lucie.identity', identity!);
      if (settings) localStorage.setItem('lucie.settings', settings);
      sessionStorage.setItem('lucie.operator-token', adminToken!);
    },
    [JSON.stringify({ player: ana.player, token: ana.token }), locale ? JSON.stringify({ locale }) : '', ADMIN_TOKEN],
  );
}

/**
 * Every visible text and accessible label of the page. Excepted by rule, as data rather than words:
 * card faces (`.card`'s rank and suit glyphs; their accessible names are checked), `<code>` (seeds,
 * record text) and what is hidden.
 */
async function wordsOnPage(page: Page): Promise<{ texts: string[]; labels: string[] }> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      if (!node.textContent!.trim() || parent.closest('[aria-hidden="true"], code, .card, script, style, option:not(:checked)')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true }) && !parent.closest('.visually-hidden')) continue;
      texts.push(node.textContent!);
    }
    const labels = [...document.body.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((labelled) =>
      ['aria-label', 'title', 'placeholder'].map((name) => labelled.getAttribute(name) ?? '').filter(Boolean),
    );
    return { texts, labels: [...labels, document.title] };
  });
}

/**
 * What is left of `text` once every ⟦…⟧ (nested ones too) is taken out: words outside the
 * catalogue. Allowed: numbers and signs (no letters), race and series codes (six capitals or
 * digits), player names, the brand, and what Intl writes (month and day names).
 */
function unmarked(text: string, allowed: ReadonlySet<string>): string[] {
  let rest = text;
  for (let before = ''; before !== rest; ) [before, rest] = [rest, rest.replace(/⟦[^⟦⟧]*⟧/g, ' ')];
  rest = rest.replace(/\b[A-Z0-9]{6}\b/g, ' ');
  return (rest.match(/\p{L}[\p{L}'’-]*/gu) ?? []).filter((word) => !allowed.has(word));
}

describe('the pseudo-locale', () => {
  it('finds no text or label outside the catalogue on any page, in the header or in the settings', async () => {
    const { page, close } = await openBrowser({ width: 1280, height: 900 });
    try {
      await asAna(page, 'en-XA');
      await page.goto(`${server.base}/`);
      const months = await page.evaluate(() => {
        const names: string[] = [];
        // Every month, and every day of the week (the first seven days of a month are each weekday once).
        for (let month = 0; month < 12; month++) {
          for (const style of ['long', 'short'] as const) names.push(new Date(Date.UTC(2026, month, 15)).toLocaleDateString('en', { month: style }));
        }
        for (let date = 1; date <= 7; date++) {
          for (const style of ['long', 'short'] as const) names.push(new Date(Date.UTC(2026, 0, date)).toLocaleDateString('en', { weekday: style }));
        }
        return names.flatMap((name) => name.split(/\W+/));
      });
      // The site's name, the players' names, the record format's name and the record file's name are not messages.
      const allowed = new Set(['Lucie', 'Ana', 'Bo', 'Cy', 'AM', 'PM', 'lucie-record', 'languages-record', 'json', 'UTC', ...months]);
      for (const { name } of PAGES) {
        await open(page, name);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
        const { texts, labels } = await wordsOnPage(page);
        // The marks are really there: a page without them would pass the checks below for nothing.
        expect(texts.join(' '), name).toContain('⟦');
        expect(unmarked(texts.join('\n'), allowed), `${name}: visible text`).toEqual([]);
        expect(labels.flatMap((label) => unmarked(label, allowed)), `${name}: labels and title`).toEqual([]);
      }
      await page.locator('details.settings > summary').click();
      // The languages are named in themselves on purpose, in every locale.
      const own = new Set([...allowed, 'English', 'Español', 'Français', 'Italiano']);
      const settings = await wordsOnPage(page);
      expect(unmarked(settings.texts.join('\n'), own), 'settings').toEqual([]);
    } finally {
      await close();
    }
  });
});

const LANGUAGES = [
  { locale: 'es', browser: 'es-ES' },
  { locale: 'fr', browser: 'fr-FR' },
  { locale: 'it', browser: 'it-IT' },
] as const;
const SHOWN: readonly PageName[] = ['start', 'race', 'daily', 'replay', 'rules', 'ghost', 'operator'];

/** English sentences that must not show in another language: every English message of some length that this language writes differently. */
function englishOnly(locale: string): string[] {
  const english = catalogue('en');
  const other = catalogue(locale);
  return Object.entries(english)
    .filter(([key, text]) => !text.includes('{') && text.length >= 12 && other[key] !== text)
    .map(([, text]) => text);
}

describe.each(LANGUAGES)('a browser in $browser', ({ locale, browser: language }) => {
  it('shows its language on every page with no English left, fits 1280 and 390 px, and keeps a change of language', async () => {
    const english = englishOnly(locale);
    for (const width of [1280, 390]) {
      const { page, close } = await openBrowser({ width, height: 844 }, { locale: language, hasTouch: width === 390 });
      try {
        await asAna(page);
        for (const name of SHOWN) {
          await open(page, name);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
          const text = await page.locator('body').innerText();
          expect(english.filter((sentence) => text.includes(sentence)), `${name} in ${locale}`).toEqual([]);
          await screenshot(page, `lang-${locale}-${width}-${name}`, true);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
        }
        await open(page, 'start');
        await page.locator('details.settings > summary').click();
        await screenshot(page, `lang-${locale}-${width}-settings`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        if (width === 390) continue;
        // Each language is named in itself, and the one chosen is kept for the next visit.
        const select = page.getByTestId('language');
        expect(await select.locator('option').allTextContents()).toEqual(['English', 'Español', 'Français', 'Italiano']);
        expect(await select.inputValue()).toBe(locale);
        await select.selectOption('en');
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
        expect(await page.locator('h1').textContent()).toBe(catalogue('en')['start.title']);
        await page.reload();
        await page.locator('main form').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      } finally {
        await close();
      }
    }
  });
});

describe('a browser in another language', () => {
  it('gets English', async () => {
    const { page, close } = await openBrowser({ width: 1280, height: 844 }, { locale: 'de-DE' });
    try {
      await open(page, 'start');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await page.locator('h1').textContent()).toBe(catalogue('en')['start.title']);
    } finally {
      await close();
    }
  });
});

describe('what a screen reader hears when opponents drop', () => {
  it('says a lost connection once, a return once and an abandonment once, never the countdown', async () => {
    const race = await runningRace([ana, bo, cy]);
    const boSocket = await racerSocket(race.code, bo.token);
    const cySocket = await racerSocket(race.code, cy.token);
    const { page, close } = await openBrowser({ width: 1280, height: 844 }, { locale: 'en-GB' });
    try {
      await asAna(page);
      await page.goto(`${server.base}/race/${race.code}`);
      await page.getByRole('region', { name: 'Your board' }).waitFor(SOON);
      // Every text a live region takes on, in order, as an assistive technology would be told.
      await page.evaluate(() => {
        const heard: string[] = [];
        const last = new Map<Element, string>();
        const listen = (): void => {
          for (const region of document.querySelectorAll('[role="status"], [role="alert"], [role="timer"], [aria-live]:not([aria-live="off"])')) {
            const text = region.textContent?.trim() ?? '';
            if (text !== (last.get(region) ?? '')) {
              last.set(region, text);
              if (text) heard.push(text);
            }
          }
        };
        listen();
        new MutationObserver(listen).observe(document.body, { childList: true, subtree: true, characterData: true });
        (window as unknown as { heard: string[] }).heard = heard;
      });
      const heard = () => page.evaluate(() => (window as unknown as { heard: string[] }).heard);
      const times = async (words: string) => (await heard()).filter((text) => text.includes(words)).length;

      boSocket.close();
      await page.getByTestId('reconnecting').filter({ hasText: 'Bo' }).waitFor(SOON);
      // The countdown ticks on screen for a few seconds while Bo is away.
      await page.waitForFunction(() => /0:0[0-2]/.test(document.querySelector('[data-testid="reconnecting"]')?.textContent ?? ''), null, SOON);
      await racerSocket(race.code, bo.token);
      await page.getByTestId('reconnecting').waitFor({ state: 'detached', ...SOON });
      cySocket.close();
      await page.getByTestId('race-event').filter({ hasText: 'Cy did not come back in time' }).waitFor({ timeout: (GRACE_SECONDS + 20) * 1000 });
      await expect.poll(() => times('Bo is back.'), SOON).toBe(1);
      await expect.poll(() => times('Cy lost their connection.'), SOON).toBe(1);
      expect(await times('Bo lost their connection.')).toBe(1);
      expect(await times('Cy did not come back in time')).toBe(1);
      expect(await times('finished (abandoned)')).toBe(0);
      expect((await heard()).filter((text) => /back within|\d:\d\d left/.test(text))).toEqual([]);
    } finally {
      await close();
    }
  });
});
