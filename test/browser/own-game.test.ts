// OwnGame around a race board: auto-play follows the ranked setting (not practice's), each card it
// sends home is an ordinary move the server acknowledges, and a player without the setting gets
// exactly the move they made. One known deal (seed abc): A♦ on fan 8 goes home with one click and
// safe cards follow it. Screenshots go to /tmp/lucie-shots/ (look at them).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAction, dealLayout, makeAction, Position, safeHomeAction } from '../../shared/index.js';
import { unwrap } from '../support/mirror.js';
import { openBrowser, readFans, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let ana: Browser;
let bo: Browser;

beforeAll(async () => {
  server = await startServer();
  [ana, bo] = await Promise.all([openBrowser({ width: 1280, height: 900 }), openBrowser({ width: 390, height: 844 }, { hasTouch: true })]);
});

afterAll(async () => {
  await Promise.all([ana?.close(), bo?.close()]);
  await server?.stop();
});

const BOARD = 'Your board';
const SEED = 'abc';
const racerField = (page: Page, name: string, field: string) =>
  page.locator('.racer', { has: page.getByText(new RegExp(`^${name}( \\(you\\))?$`)) }).locator(`[data-field="${field}"]`).textContent();

describe('auto-play in a race', () => {
  it('follows the ranked setting: Ana’s safe cards go home by themselves, Bo’s do not', async () => {
    // Ana wants auto-play in ranked games only; Bo keeps the defaults (on in practice, off in races).
    await useSettings(ana.page, server.base, { speed: 'off', autoPlayRanked: true, autoPlayPractice: false });
    await useSettings(bo.page, server.base, { speed: 'off' });
    await ana.page.goto(`${server.base}/`);
    await ana.page.getByLabel('Your name').fill('Ana');
    await ana.page.getByRole('button', { name: 'Save name' }).click();
    await ana.page.getByTestId('my-name').waitFor();
    await ana.page.getByLabel('Seats').selectOption('2');
    await ana.page.getByRole('button', { name: 'Create race' }).click();
    await ana.page.waitForURL(/\/race\/[A-Z0-9]{6}$/);
    const code = new URL(ana.page.url()).pathname.split('/')[2]!;
    server.setRaceSeed(code, SEED);
    await bo.page.goto(`${server.base}/race/${code}`);
    await bo.page.getByLabel('Your name').fill('Bo');
    await bo.page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => ana.page.getByRole('list', { name: 'Racers in the lobby' }).textContent()).toContain('Bo');
    await ana.page.getByRole('button', { name: 'Start the race' }).click();
    await Promise.all([ana.page.getByRole('region', { name: BOARD }).waitFor(), bo.page.getByRole('region', { name: BOARD }).waitFor()]);

    const start = unwrap(Position.start('strict', dealLayout(SEED, 'strict')));
    expect(await readFans(ana.page, BOARD)).toEqual(start.fans);
    const clicked = unwrap(applyAction(start, { type: 'fan-to-foundation', from: 7 }));
    let expected = clicked;
    const played = ['8>F'];
    for (let safe = safeHomeAction(expected, expected.legalActions()); safe; safe = safeHomeAction(expected, expected.legalActions())) {
      expected = unwrap(applyAction(expected, safe));
      played.push(makeAction(safe));
    }
    expect(played.length).toBeGreaterThan(1);

    for (const { page } of [ana, bo]) await page.getByRole('region', { name: BOARD }).getByRole('button', { name: 'Ace of diamonds', exact: true }).click();
    await expect.poll(() => readFans(ana.page, BOARD)).toEqual(expected.fans);
    // Every auto-played card is a move the server holds: the others see Ana's count.
    await expect.poll(() => racerField(bo.page, 'Ana', 'moves')).toBe(String(played.length));
    await expect.poll(() => racerField(bo.page, 'Ana', 'foundations')).toBe(`${expected.foundationCount()}/52`);
    // Bo made one move and nothing followed it.
    await expect.poll(() => racerField(ana.page, 'Bo', 'moves')).toBe('1');
    expect(await readFans(bo.page, BOARD)).toEqual(clicked.fans);
    await screenshot(ana.page, 'own-game-autoplay-desktop');
    await screenshot(bo.page, 'own-game-no-autoplay-phone');
  });
});
