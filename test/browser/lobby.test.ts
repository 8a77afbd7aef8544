// The start page's live lobby and the quick-race pool against a real server: a listed race
// appears, fills and starts without a reload; three strangers (three browsers, no shared link)
// press Quick race and land in one race; the featured race is watchable; one who waits alone is
// offered a ghost race and plays it against a stored race game. Screenshots of the lobby
// and the pool (desktop and phone, light and dark) go to this run's screenshot folder; axe runs on both.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/socket-client.js';
import { axeViolations, openBrowser, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let eve: Browser;
let strangers: Browser[] = [];

beforeAll(async () => {
  // Offered a ghost race after 2 s alone in the pool rather than 30 (the journey below).
  server = await startServer({ POOL_GHOST_AFTER_MS: '2000' });
  [eve, ...strangers] = await Promise.all([
    openBrowser({ width: 1280, height: 900 }),
    openBrowser({ width: 1280, height: 900 }),
    openBrowser({ width: 390, height: 844 }, { hasTouch: true }),
    openBrowser({ width: 1024, height: 768 }),
  ]);
});

afterAll(async () => {
  await Promise.all([eve, ...strangers].map((browser) => browser?.close()));
  await server?.stop();
});

type Created = { player: { id: number; name: string }; token: string };
const create = (name: string) => server.post<Created>('/api/players', { name });

async function openLobby(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await useSettings(page, server.base, { theme, speed: 'off' });
  await page.goto(`${server.base}/`);
  await page.getByRole('heading', { name: 'Race someone now' }).waitFor();
}

async function name(page: Page, text: string): Promise<void> {
  await page.getByLabel('Your name').fill(text);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect.poll(() => page.getByTestId('my-name').textContent()).toBe(text);
}

describe('the live lobby', () => {
  it('shows a listed race appear, fill and start without a reload, telling apart two players of one name', async () => {
    await openLobby(eve.page, 'light');
    const open = eve.page.getByTestId('open-races');
    const ana = await create('Ana');
    const twin = await create('Ana');
    const { race } = await server.post<{ race: { code: string } }>('/api/races', { seats: 2, listed: true, timeLimitSeconds: 600 }, ana.token);
    await expect.poll(() => open.textContent(), { timeout: 5000 }).toContain('1 of 2 seats');
    expect(await open.textContent()).toContain('10 minutes');
    await server.post(`/api/races/${race.code}/join`, {}, twin.token);
    await expect.poll(() => open.textContent(), { timeout: 5000 }).toContain('2 of 2 seats');
    await server.post(`/api/races/${race.code}/start`, {}, ana.token);
    const featured = eve.page.getByTestId('featured-race');
    await expect.poll(() => featured.textContent(), { timeout: 8000 }).toMatch(/Ana #\w{4}, Ana #\w{4}/);
    const tags = (await featured.textContent())!.match(/Ana #(\w{4})/g)!;
    expect(new Set(tags).size).toBe(2);
    await screenshot(eve.page, 'lobby-desktop-light', true);
    expect(await axeViolations(eve.page)).toEqual([]);
  });
});

describe('the quick-race pool', () => {
  it('seats three strangers who each press Quick race in one race within 15 s', async () => {
    const names = ['Sol', 'Tam', 'Uma'];
    const themes = ['light', 'dark', 'light'] as const;
    for (const [i, browser] of strangers.entries()) {
      await openLobby(browser.page, themes[i]!);
      await name(browser.page, names[i]!);
    }
    const pressed = Date.now();
    for (const browser of strangers) await browser.page.getByRole('button', { name: 'Quick race' }).click();
    // Waiting: the count and the way out (desktop light, phone dark).
    await strangers[1]!.page.getByRole('button', { name: 'Leave the pool' }).waitFor();
    await expect.poll(() => strangers[1]!.page.getByTestId('pool-status').textContent()).toMatch(/[2-3] waiting/);
    await screenshot(strangers[1]!.page, 'pool-phone-dark', true);
    await screenshot(strangers[0]!.page, 'pool-desktop-light', true);
    expect(await axeViolations(strangers[1]!.page)).toEqual([]);
    for (const browser of strangers) await browser.page.waitForURL(/\/race\/[A-Z0-9]{6}$/, { timeout: 15_000 - (Date.now() - pressed) });
    expect(Date.now() - pressed).toBeLessThan(15_000);
    const codes = new Set(strangers.map((browser) => new URL(browser.page.url()).pathname.split('/')[2]));
    expect(codes.size).toBe(1);
  });

  it('features the quick race in the lobby, watchable in one click, on a phone and in the dark too', async () => {
    const code = new URL(strangers[0]!.page.url()).pathname.split('/')[2]!;
    await openLobby(eve.page, 'dark');
    await expect.poll(() => eve.page.getByTestId('featured-race').textContent(), { timeout: 8000 }).toMatch(/Sol #\w{4}/);
    await screenshot(eve.page, 'lobby-desktop-dark', true);
    expect(await axeViolations(eve.page)).toEqual([]);
    await eve.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(eve.page, 'lobby-phone-dark', true);
    await useSettings(eve.page, server.base, { theme: 'light', speed: 'off' });
    await eve.page.reload();
    await eve.page.getByTestId('featured-race').waitFor();
    await screenshot(eve.page, 'lobby-phone-light', true);
    expect(await axeViolations(eve.page)).toEqual([]);
    await eve.page.getByTestId('featured-race').getByRole('link', { name: 'Watch' }).click();
    await eve.page.waitForURL(`${server.base}/race/${code}`);
    await expect.poll(() => eve.page.getByTestId('race-code').or(eve.page.locator('main')).first().textContent(), { timeout: 8000 }).toContain('Sol');
  });

  it('offers one who waits alone a ghost race, which plays against a stored race game', async () => {
    // A finished race of two: its games' seed is public now, so either may be raced as a ghost.
    const [kim, lou] = [await create('Kim'), await create('Lou')];
    const { race } = await server.post<{ race: { code: string } }>('/api/races', { seats: 2 }, kim.token);
    await server.post(`/api/races/${race.code}/join`, {}, lou.token);
    const wsBase = server.base.replace('http', 'ws');
    const tabs = [await Client.connect(wsBase, kim), await Client.connect(wsBase, lou)];
    for (const tab of tabs) tab.send({ type: 'watch', code: race.code });
    await server.post(`/api/races/${race.code}/start`, {}, kim.token);
    for (const tab of tabs) {
      const game = await tab.next('game');
      tab.send({ type: 'resign', gameId: game.gameId });
      await tab.next('game-over');
      tab.close();
    }

    await openLobby(eve.page, 'light');
    await name(eve.page, 'Eve');
    await eve.page.getByRole('button', { name: 'Quick race' }).click();
    await eve.page.getByText('Nobody else is waiting: you may race a ghost meanwhile.').waitFor({ timeout: 10_000 });
    await eve.page.getByRole('button', { name: 'Race a ghost' }).click();
    await eve.page.waitForURL(/\/ghost\/\d+$/, { timeout: 10_000 });
    await eve.page.locator('.ghost-page .board ol.fans .card').first().waitFor({ timeout: 10_000 });
    await expect.poll(() => eve.page.locator('.ghost-page').textContent(), { timeout: 8000 }).toMatch(/Kim|Lou/);
    await screenshot(eve.page, 'pool-ghost-offer-taken', true);
  });
});
