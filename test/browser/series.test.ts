// The 100-deal series in real browsers against a real server: Ana starts a series from the start
// page, plays deal 1 (a reload resumes it), resigns it and goes on to deal 2; her identity on a
// second device (the same token) resumes deal 2 where she left it; Bo, on a phone with his own
// identity, opens the share link, gets the same first layout for deal 1 and sees both in the
// table. Screenshots go to this run's screenshot folder (printed at the end of the run; look at them).
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../shared/index.js';
import { BoardDriver } from './board-driver.js';
import { openBrowser, readFans, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let ana: Browser;
/** Ana's identity on another device. */
let anaElsewhere: Browser;
let bo: Browser;

beforeAll(async () => {
  server = await startServer();
  [ana, anaElsewhere, bo] = await Promise.all([
    openBrowser({ width: 1280, height: 900 }),
    openBrowser({ width: 1024, height: 768 }),
    openBrowser({ width: 390, height: 844 }, { hasTouch: true }),
  ]);
});

afterAll(async () => {
  await Promise.all([ana?.close(), anaElsewhere?.close(), bo?.close()]);
  await server?.stop();
});

const BOARD = 'Series board';
/** A text as read aloud: white space collapsed. */
const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const field = (browser: Browser, name: string) => text(browser.page.locator(`[data-field="${name}"]`));
const tableRows = (browser: Browser, testId: string) =>
  browser.page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent!.trim())));

describe('a 100-deal series', () => {
  let link = '';
  let firstDeal: Card[][];
  let driver: BoardDriver;
  /** Cards home when Ana resigned deal 1. */
  let deal1Cards = 0;

  it('starts from the start page and deals deal 1 when Ana asks; a reload resumes it', async () => {
    const { page } = ana;
    await page.goto(server.base);
    await page.getByLabel('Your name').fill('Ana');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Start a series' }).click();
    await page.waitForURL(/\/series\/[A-Z0-9]{6}$/);
    link = page.url();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Series ${link.slice(-6)}`);
    expect(await text(page.getByTestId('benchmark'))).toContain('5.0%–7.0% over 100 deals');
    expect(await field(ana, 'played')).toBe('0 of 100');
    await screenshot(page, 'series-1-new');

    await page.getByRole('button', { name: 'Play deal 1' }).click();
    await page.getByRole('region', { name: BOARD }).waitFor();
    firstDeal = await readFans(page, BOARD);
    expect(firstDeal.flat()).toHaveLength(52);
    driver = new BoardDriver(page, BOARD, 'strict', firstDeal);
    for (const how of ['click', 'drag', 'click'] as const) await driver.play(driver.next()!, how);
    await page.getByText(/^Moves 3$/).waitFor();
    await page.reload();
    await page.getByRole('region', { name: BOARD }).waitFor();
    await expect.poll(() => readFans(page, BOARD)).toEqual(driver.position.fans);
    expect(await page.getByTestId('series-deal').textContent()).toBe('1');
    await screenshot(page, 'series-2-deal-1-resumed');
  });

  it('counts a resigned deal and goes on to deal 2', async () => {
    const { page } = ana;
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Really resign?' }).click();
    const cards = driver.position.foundationCount();
    deal1Cards = cards;
    await expect.poll(() => text(page.getByTestId('series-outcome'))).toContain(`Deal 1: resigned, ${cards} ${cards === 1 ? 'card' : 'cards'} home.`);
    await expect.poll(() => field(ana, 'played')).toBe('1 of 100');
    expect(await field(ana, 'win-rate')).toBe('0.0%');
    expect(await field(ana, 'average')).toBe(cards.toFixed(1));
    expect(await tableRows(ana, 'series-deals')).toEqual([['1', 'resigned', String(cards), expect.stringMatching(/^\d+:\d\d$/), '3']]);
    await screenshot(page, 'series-3-deal-1-over', true);
    // Its line to share, with no link: a series deal's seed is never public.
    await ana.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    await page.getByTestId('copy-result').click();
    await page.getByText('Result copied').waitFor();
    const time = (await tableRows(ana, 'series-deals'))[0]![3];
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`Lucie series ${link.slice(-6)} deal 1 · ${cards}/52 · ${time} · par ? · ${cards > 0 ? '🟨' : '🟥'}⬜⬜`);

    await page.getByRole('button', { name: 'Deal 2' }).click();
    await expect.poll(() => page.getByTestId('series-deal').textContent()).toBe('2');
    const second = await readFans(page, BOARD);
    expect(second).not.toEqual(firstDeal);
    driver = new BoardDriver(page, BOARD, 'strict', second);
    await driver.play(driver.next()!, 'click');
    await page.getByText(/^Moves 1$/).waitFor();
  });

  it('resumes deal 2 on another device with the same identity', async () => {
    const identity = await ana.page.evaluate(() => localStorage.getItem('lucie.identity'));
    const { page } = anaElsewhere;
    await page.goto(server.base);
    await page.evaluate((saved) => localStorage.setItem('lucie.identity', saved!), identity);
    await page.goto(link);
    await page.getByRole('region', { name: BOARD }).waitFor();
    expect(await page.getByTestId('series-deal').textContent()).toBe('2');
    await expect.poll(() => readFans(page, BOARD)).toEqual(driver.position.fans);
    expect(await field(anaElsewhere, 'played')).toBe('1 of 100');
    await screenshot(page, 'series-4-other-device');
  });

  it('gives Bo, with the share link, the same deal 1 and the table of everyone’s results', async () => {
    const { page } = bo;
    await page.goto(link);
    await expect.poll(() => tableRows(bo, 'series-players')).toEqual([['Ana', '1', '0', '0.0%', deal1Cards.toFixed(1), '2']]);
    await page.getByLabel('Your name').fill('Bo');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Play deal 1' }).click();
    await page.getByRole('region', { name: BOARD }).waitFor();
    expect(await readFans(page, BOARD)).toEqual(firstDeal);
    await expect.poll(async () => (await tableRows(bo, 'series-players')).map((row) => [row[0], row[1], row[5]])).toEqual([
      ['Ana', '1', '2'],
      ['Bo (you)', '0', '1'],
    ]);
    await screenshot(page, 'series-5-friend-phone', true);
  });
});
