// Every page of the client under the server's Content-Security-Policy: no violation reported by
// the browser (securitypolicyviolation events and console errors alike) while pages load, a race
// is created and cards move with their animations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;
const consoleViolations: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser({ width: 1280, height: 900 });
  await browser.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  browser.page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const violations = () => browser.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

describe('the Content-Security-Policy', () => {
  it('is sent with the page and is strict: no inline code, no eval', async () => {
    const answer = await browser.page.goto(`${server.base}/`);
    const csp = answer?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-/);
  });

  it.each(['/', '/practice?seed=abc&variant=strict', '/daily', '/history', '/replay', '/race/ZZZZZZ', '/nowhere'])(
    '%s loads with no violation',
    async (path) => {
      await browser.page.goto(`${server.base}${path}`);
      // The page's own chunk has arrived and drawn something (each page is loaded lazily).
      await browser.page.locator('main > *').first().waitFor();
      await browser.page.waitForLoadState('networkidle');
      expect(await violations()).toEqual([]);
      expect(consoleViolations).toEqual([]);
    },
  );

  it('lets a race be created and a practice card move (styles set while playing) with no violation', async () => {
    const { page } = browser;
    await page.goto(`${server.base}/`);
    await page.getByLabel('Your name').fill('Csp');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Create race' }).click();
    await page.waitForURL(/\/race\/[A-Z0-9]{6}$/);
    await page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);

    // Seed `abc` has A♦ on top of a fan: a click sends it home, with the move's animation.
    await page.goto(`${server.base}/practice?seed=abc&variant=strict`);
    const board = page.getByRole('region', { name: 'Practice board' });
    await board.getByRole('button', { name: 'Ace of diamonds', exact: true }).click();
    await page.waitForTimeout(500);
    expect(await violations()).toEqual([]);
    expect(consoleViolations).toEqual([]);
  });
});
