// A full race on a phone, in the dark theme: with every seat taken (MAX_SEATS), the whole race
// board, its foundations and the ticker of the seven others fit a 390×844 screen with no
// vertical scrolling, axe finds nothing, and when the race ends the board stays where it was. The seven others join over HTTP and stay connected on a socket each (so
// none shows as disconnected); only the phone is a browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEATS } from '../../contract/index.js';
import { Client } from '../support/socket-client.js';
import type { RaceAnswer } from '../../contract/index.js';
import { axeViolations, openBrowser, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let phone: Browser;
const others: Client[] = [];

beforeAll(async () => {
  server = await startServer();
  phone = await openBrowser({ width: 390, height: 844 }, { hasTouch: true });
});

afterAll(async () => {
  for (const other of others) other.socket.close();
  await phone?.close();
  await server?.stop();
});


describe('a race with every seat taken, on a phone', () => {
  it('fits the board, the foundations and the ticker of all the others without scrolling', async () => {
    // Long names and a time limit (its clock takes room in the head): the worst case.
    const names = ['Alexandrine', 'Bartholomew', 'Clementine', 'Desdemona', 'Evangeline', 'Florentino', 'Guinevere'];
    const tokens: string[] = [];
    for (const name of names) tokens.push((await server.post<{ token: string }>('/api/players', { name })).token);
    const { race } = await server.post<{ race: { code: string } }>('/api/races', { seats: MAX_SEATS, timeLimitSeconds: 1800 }, tokens[0]);
    for (const token of tokens.slice(1)) await server.post(`/api/races/${race.code}/join`, {}, token);
    const wsBase = server.base.replace(/^http/, 'ws');
    for (const token of tokens) {
      const other = await Client.connect(wsBase, { token });
      other.send({ type: 'watch', code: race.code });
      others.push(other);
    }

    const { page } = phone;
    await useSettings(page, server.base, { theme: 'dark' });
    await page.goto(`${server.base}/race/${race.code}`);
    await page.getByLabel('Your name').fill('Hortensia');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Racers in the lobby' }).getByRole('listitem').count()).toBe(MAX_SEATS);
    await server.post(`/api/races/${race.code}/start`, {}, tokens[0]);
    await page.getByRole('region', { name: 'Your board' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.ticker > span').count()).toBe(MAX_SEATS - 1);

    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (selector: string) => page.locator(selector).first().evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    const [table, ticker, foundations] = [await box('.board .table'), await box('.ticker'), await box('.foundations')];
    await screenshot(page, 'ticker-full-race-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(table.bottom).toBeLessThanOrEqual(844);
    expect(table.right).toBeLessThanOrEqual(390);
    expect(foundations.top).toBeGreaterThanOrEqual(0);
    expect(ticker.top).toBeGreaterThanOrEqual(0);
    expect(ticker.bottom).toBeLessThanOrEqual(table.top);
    expect(ticker.right).toBeLessThanOrEqual(390);
    // Every other racer is in the ticker, by name, with their cards home.
    const entries = await page.locator('.ticker > span').allTextContents();
    expect(entries.map((entry) => entry.replace(/\s+/g, ' ').trim())).toEqual(names.map((name) => `${name} 0/52`));
    expect(await axeViolations(page)).toEqual([]);

    // Everyone resigns (the phone through its button): the finished race keeps the board in place.
    const boardPlace = () => page.locator('.board .table').evaluate((table) => {
      const { left, top, width, height } = table.getBoundingClientRect();
      return { left, top: top + window.scrollY, width, height };
    });
    const before = await boardPlace();
    const answer = (await (await fetch(`${server.base}/api/races/${race.code}`)).json()) as RaceAnswer;
    const games = new Map(answer.race.progress.map((progress) => [progress.name, progress.gameId]));
    others.forEach((other, index) => other.send({ type: 'resign', gameId: games.get(names[index]!)! }));
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Really resign?' }).click();
    await page.getByRole('region', { name: 'Final standings' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByRole('region', { name: 'Final standings' }).locator('tbody tr').count()).toBe(MAX_SEATS);
    expect(await boardPlace()).toEqual(before);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'ticker-full-race-finished-phone');
    expect(await axeViolations(page)).toEqual([]);
  });
});
