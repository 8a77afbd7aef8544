// An identity moving between browsers: Ana names herself in browser A, links browser B, which
// asks "Continue as Ana?" and then shows her series and history; A signs B out, and B's open race
// socket closes and its token gets a 401. Then passkeys through Chromium's virtual authenticator
// (DevTools WebAuthn domain): one added in A signs a fresh browser C in. The player page's
// identity panel is screenshotted (1280 and 390 px, light and dark) and checked with axe.
// Served on `localhost`: WebAuthn refuses an IP address as the relying party.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let base: string;
let a: Browser;
let b: Browser;

beforeAll(async () => {
  server = await startServer();
  base = server.base.replace('127.0.0.1', 'localhost');
  [a, b] = await Promise.all([openBrowser({ width: 1280, height: 900 }), openBrowser({ width: 390, height: 844 }, { hasTouch: true })]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await server?.stop();
});

const tokenOf = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('lucie.identity') ?? 'null') as { token: string } | null)?.token ?? null);
const historyText = async (page: Page) => {
  await page.goto(`${base}/history`);
  return page.getByRole('list', { name: 'Your games' }).textContent();
};

/** A WebAuthn authenticator on the page, as a phone's screen lock would be: resident keys, user verification. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

let ana: { id: number; token: string };

describe('a device link', () => {
  it('brings Ana to browser B after "Continue as Ana?": same series and history; signed out from A, B’s race socket closes and its token gets 401', async () => {
    await a.page.goto(`${base}/`);
    await a.page.getByLabel('Your name').fill('Ana');
    await a.page.getByRole('button', { name: 'Save name' }).click();
    await a.page.getByTestId('my-name').waitFor();
    const player = await a.page.evaluate(() => (JSON.parse(localStorage.getItem('lucie.identity')!) as { player: { id: number } }).player);
    ana = { id: player.id, token: (await tokenOf(a.page))! };
    // A series deal being played: it shows in the history and on the record.
    const { series } = await server.post<{ series: { code: string } }>('/api/series', {}, ana.token);
    await server.post(`/api/series/${series.code}/deals/1`, {}, ana.token);

    await a.page.goto(`${base}/player/${ana.id}`);
    await a.page.getByTestId('make-link').click();
    const url = (await a.page.getByTestId('link-url').getAttribute('href'))!;
    expect(url).toMatch(new RegExp(`^${base}/link#[0-9A-Z]{5}-[0-9A-Z]{5}$`));
    expect(url).not.toContain(ana.token);
    await a.page.getByRole('img', { name: 'QR code of the link to this identity' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await a.page.emulateMedia({ colorScheme: scheme });
      await screenshot(a.page, `devices-1280-${scheme}`, true);
    }
    await a.page.emulateMedia({ colorScheme: 'light' });
    expect(await axeViolations(a.page)).toEqual([]);

    // B opens the link: asked first, the code gone from the address bar.
    await b.page.goto(url);
    await expect.poll(() => b.page.getByTestId('continue-as').textContent()).toBe('Continue as Ana?');
    expect(new URL(b.page.url()).hash).toBe('');
    expect(await axeViolations(b.page)).toEqual([]);
    await b.page.getByTestId('accept-link').click();
    await b.page.getByTestId('identity-panel').waitFor();
    expect(new URL(b.page.url()).pathname).toBe(`/player/${ana.id}`);
    const bToken = (await tokenOf(b.page))!;
    expect(bToken).not.toBe(ana.token);
    await b.page.getByTestId('make-link').click();
    await b.page.getByTestId('link-code').waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await b.page.emulateMedia({ colorScheme: scheme });
      await screenshot(b.page, `devices-390-${scheme}`, true);
    }
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await historyText(b.page)).toBe(await historyText(a.page));
    // The series knows B as Ana, playing deal 1.
    const mine = await b.page.evaluate(
      async ([code, token]) => (await (await fetch(`/api/series/${code}`, { headers: { authorization: `Bearer ${token}` } })).json()).series.me,
      [series.code, bToken] as const,
    );
    expect(mine).toMatchObject({ next: 1, playing: expect.any(Number) });

    // B watches a race of Ana's: its socket is open.
    const { race } = await server.post<{ race: { code: string } }>('/api/races', {}, ana.token);
    const closed = new Promise<void>((resolve) => b.page.on('websocket', (socket) => socket.on('close', () => resolve())));
    await b.page.goto(`${base}/race/${race.code}`);
    await b.page.getByRole('button', { name: 'Start the race' }).waitFor();

    // A signs B out from the devices list.
    await a.page.goto(`${base}/player/${ana.id}`);
    const other = a.page.locator('[data-testid="devices"] li[data-current="false"]');
    await other.getByRole('button').click();
    await expect.poll(() => other.count()).toBe(0);
    await closed;
    const status = await b.page.evaluate(async (token) => (await fetch('/api/me', { headers: { authorization: `Bearer ${token}` } })).status, bToken);
    expect(status).toBe(401);
    await expect.poll(() => tokenOf(b.page)).toBeNull();
  });
});

describe('passkeys', () => {
  it('adds a passkey in A, and signs a fresh browser C in with it', async () => {
    const inA = await virtualAuthenticator(a.page);
    await a.page.goto(`${base}/player/${ana.id}`);
    await a.page.getByTestId('add-passkey').click();
    await expect.poll(() => a.page.locator('[data-testid="passkeys"] li').count()).toBe(1);
    const { credentials } = await inA.cdp.send('WebAuthn.getCredentials', { authenticatorId: inA.authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // C: a browser that has never seen Ana, holding the same passkey (as a synced one would be).
    const c = await openBrowser({ width: 1280, height: 900 });
    try {
      const inC = await virtualAuthenticator(c.page);
      await inC.cdp.send('WebAuthn.addCredential', { authenticatorId: inC.authenticatorId, credential: credentials[0]! });
      await c.page.goto(`${base}/`);
      await c.page.getByTestId('passkey-sign-in').click();
      await expect.poll(() => c.page.getByTestId('my-name').textContent()).toBe('Ana');
      const token = await tokenOf(c.page);
      expect(token).not.toBeNull();
      expect(token).not.toBe(ana.token);
      // A sees C among the devices.
      await a.page.reload();
      await expect.poll(() => a.page.locator('[data-testid="devices"] li').count()).toBe(2);
    } finally {
      await c.close();
    }
  });
});
