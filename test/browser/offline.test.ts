// Lucie with the network cut, after one visit (issue 23's offline test): the service worker has
// kept the build, so practice deals, plays and undoes, a record file opens and a replay already
// seen plays again; pages that need the server say so; and a replay kept for one identity is
// never shown to another. The network is cut twice over: the server is stopped, and the
// browser is set offline. Before that, a server that accepts but does not answer (frozen) gets
// the cached page after the worker's wait.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePlayerAnswer, DailyStartAnswer } from '../../contract/index.js';
import { dealLayout } from '../../shared/index.js';
import { layoutOf, Mirror, playToEnd } from '../support/mirror.js';
import { Client } from '../support/socket-client.js';
import { openBrowser, readFans, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser({ width: 390, height: 844 }, { hasTouch: true });
  page = browser.page;
  await useSettings(page, server.base, { autoPlayPractice: false });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});


/** Makes the browser play as `player` from its next page load (the client keeps its identity in localStorage). */
const becomes = (player: CreatePlayerAnswer | null) =>
  page.evaluate((saved) => (saved ? localStorage.setItem('lucie.identity', saved) : localStorage.removeItem('lucie.identity')), player && JSON.stringify(player));

const board = () => page.getByRole('region', { name: 'Practice board' });

describe('after one visit, with the network cut', () => {
  const seed = 'abc';
  let ana: CreatePlayerAnswer;
  let bo: CreatePlayerAnswer;
  let daily: DailyStartAnswer['game'];
  let recordText = '';

  it('installs the service worker on the first visit, which then controls the page', async () => {
    await page.goto(`${server.base}/practice?seed=${seed}&variant=strict`);
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
    // The worker activates once it has cached every file of the build, then claims the page.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000 }).toBe(`${server.base}/sw.js`);
  });

  it("opens Ana's own daily replay while online (her day is still on: nobody else may see it)", async () => {
    ana = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Ana' });
    bo = await server.post<CreatePlayerAnswer>('/api/players', { name: 'Bo' });
    ({ game: daily } = await server.post<DailyStartAnswer>('/api/daily/start', {}, ana.token));
    const client = await Client.connect(server.base.replace('http', 'ws'), { token: ana.token });
    await playToEnd(client, Mirror.of(daily));
    client.close();
    const record = await fetch(`${server.base}/api/games/${daily.gameId}/record`, { headers: { authorization: `Bearer ${ana.token}` } });
    recordText = await record.text();
    expect((await fetch(`${server.base}/api/games/${daily.gameId}/record`, { headers: { authorization: `Bearer ${bo.token}` } })).status).toBe(403);

    await becomes(ana);
    await page.goto(`${server.base}/game/${daily.gameId}`);
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(layoutOf(daily.deals[0]!));
  });

  it('shows the cached page when the server takes too long to answer', async () => {
    server.pause();
    try {
      const started = Date.now();
      await page.goto(`${server.base}/practice?seed=${seed}&variant=strict`);
      await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
      // The worker waited its 4 s for the network, not the browser's own minute-long timeout.
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      server.resume();
    }
  });

  it('deals, plays and undoes in practice with the server stopped and the browser offline', async () => {
    await server.stop();
    await browser.context.setOffline(true);
    await page.goto(`${server.base}/practice?seed=${seed}&variant=strict`);
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
    // Practice needs no server: no notice says otherwise.
    expect(await page.getByTestId('offline-notice').count()).toBe(0);

    // Seed `abc` deals the Ace of diamonds on top of fan 8: one tap sends it home.
    await board().getByRole('button', { name: 'Ace of diamonds', exact: true }).click();
    await expect.poll(() => board().getByRole('button', { name: /^diamonds foundation/ }).getAttribute('aria-label')).toBe('diamonds foundation: Ace of diamonds, 1 card');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);

    // A new deal from another seed, made in the page.
    await page.getByLabel('Seed').fill('offline');
    await page.getByLabel('Seed').press('Enter');
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout('offline', 'strict'));
    await screenshot(page, 'offline-practice-phone', true);
  });

  it('opens and verifies a record file offline', async () => {
    await page.goto(`${server.base}/replay`);
    await page.getByLabel('Choose a record file').setInputFiles({ name: 'ana.json', mimeType: 'application/json', buffer: Buffer.from(recordText) });
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('The moves are legal.');
    expect(await page.getByTestId('offline-notice').count()).toBe(0);
  });

  it('plays the replay Ana already saw, for Ana only', async () => {
    await page.goto(`${server.base}/game/${daily.gameId}`);
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(layoutOf(daily.deals[0]!));
    await page.getByRole('button', { name: 'Last position' }).click();
    expect(await page.getByTestId('offline-notice').count()).toBe(1);

    // Bo, on the same browser, finds nothing kept for him: neither Ana's record nor its summary.
    await becomes(bo);
    await page.goto(`${server.base}/game/${daily.gameId}`);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('The server cannot be reached');
    expect(await page.getByRole('region', { name: 'Replay board' }).count()).toBe(0);
    await becomes(null);
    await page.reload();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('The server cannot be reached');
    expect(await page.getByRole('region', { name: 'Replay board' }).count()).toBe(0);
  });

  it('says what needs the network on the pages that need the server', async () => {
    for (const path of ['/', '/daily', '/history']) {
      await page.goto(`${server.base}${path}`);
      await expect.poll(() => page.getByTestId('offline-notice').textContent(), { message: path }).toContain('This page needs the network.');
    }
    await screenshot(page, 'offline-notice-phone', true);
    // Back online, the notice goes.
    await browser.context.setOffline(false);
    await expect.poll(() => page.getByTestId('offline-notice').count()).toBe(0);
  });
});
