// The operator page: asks for ADMIN_TOKEN (kept in sessionStorage, never in the URL), lists the
// open reports, and bans from there; the ban shows in the banned list and the action log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

const ADMIN_TOKEN = 'browser-suite-operator-token';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ ADMIN_TOKEN });
  browser = await openBrowser({ width: 1280, height: 900 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the operator page', () => {
  it('opens with the token, lists a report, bans from it, and keeps the token out of the URL and of localStorage', async () => {
    type Created = { player: { id: number; name: string }; token: string };
    const ana = await server.post<Created>('/api/players', { name: 'Ana' });
    const bob = await server.post<Created>('/api/players', { name: 'Bob' });
    await server.post(`/api/players/${ana.player.id}/report`, { reason: 'name' }, bob.token);

    const { page } = browser;
    await page.goto(`${server.base}/operator`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByLabel('Your name, for the action log').fill('Eve');
    await page.getByRole('button', { name: 'Open' }).click();
    const reports = page.getByRole('table').first();
    await reports.getByText('name 1, play 0').waitFor();
    expect(page.url()).toBe(`${server.base}/operator`);
    expect(await page.evaluate(() => [sessionStorage.getItem('lucie.operator-token'), JSON.stringify(localStorage)])).toEqual([ADMIN_TOKEN, expect.not.stringContaining(ADMIN_TOKEN)]);
    await screenshot(page, 'operator-reports', true);
    expect(await axeViolations(page)).toEqual([]);

    await reports.getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('status').getByText('Ban: done for Ana.').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Ana' }).getByRole('button', { name: 'Lift ban' }).waitFor();
    // The reports were closed by the ban; the log says who did what.
    await page.getByText('No open reports.').waitFor();
    const log = page.getByRole('table').last();
    expect(await log.getByRole('row').nth(1).getByRole('cell').allInnerTexts()).toEqual([expect.any(String), 'Eve', 'Ban', `#${ana.player.id}`, '']);
    await screenshot(page, 'operator-banned', true);
    expect(await axeViolations(page)).toEqual([]);
    const me = await fetch(`${server.base}/api/me`, { headers: { authorization: `Bearer ${ana.token}` } });
    expect(me.status).toBe(403);
  });
});
