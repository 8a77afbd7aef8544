// The practice page in a real browser: the board draws the engine's deal, offers the legal
// destinations (one click plays the sensible one; Shift+Enter lights them all up, Escape cancels), undo inside a deal, the legal-move aid, a
// confirmed redeal, reserve cells, and a phone-sized screen.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeKey, sourcePlace } from '../../client/src/lib/board/places.js';
import { dealLayout, Position, redealLayout, sourceOf, type Layout, problemText } from '../../shared/index.js';
import { BoardDriver } from './board-driver.js';
import { openBrowser, readFans, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser({ width: 390, height: 844 }, { hasTouch: true });
  page = browser.page;
  // These tests play every move themselves: no card goes home on its own (board.test.ts covers auto-play).
  await useSettings(page, server.base, { autoPlayPractice: false });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const board = () => page.getByRole('region', { name: 'Practice board' });
const card = (name: string) => board().getByRole('button', { name, exact: true });
const message = () => board().getByRole('status');
const targets = () => board().locator('.target').evaluateAll((found) => found.map((element) => element.getAttribute('data-target')));
const startOf = (layout: Layout): Position => {
  const start = Position.start('strict', layout);
  if (!start.ok) throw new Error(problemText(start.error));
  return start.value;
};

describe('practice on a phone-sized screen', () => {
  // Seed `abc` deals A♦ on top of fan 8 and 2♦ on top of fan 10: the Ace may go home or onto its 2.
  const seed = 'abc';

  it('draws the deal of the seed, all 18 fans on the screen width', async () => {
    await page.goto(`${server.base}/practice?seed=${seed}&variant=strict`);
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, 'practice-phone', true);
  });

  it('lights up every destination of a card picked with Shift+Enter, and Escape cancels', async () => {
    await card('Ace of diamonds').focus();
    await page.keyboard.press('Shift+Enter');
    await expect.poll(targets).toEqual(['foundation-1', 'fan-9']);
    expect(await message().textContent()).toBe('Choose where: its foundation or fan 10 (Escape cancels)');
    await screenshot(page, 'practice-choose-phone');
    await page.keyboard.press('Escape');
    await expect.poll(targets).toEqual([]);
    expect(await message().textContent()).toBe('Cancelled');
  });

  it('sends a card home with one click when it can go there, and undoes it', async () => {
    await card('Ace of diamonds').click();
    await expect.poll(() => board().getByRole('button', { name: /^diamonds foundation/ }).getAttribute('aria-label')).toBe(
      'diamonds foundation: Ace of diamonds, 1 card',
    );
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(dealLayout(seed, 'strict'));
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
  });

  it('marks every card that has a legal move when asked', async () => {
    await page.getByLabel('Show legal moves').check();
    const position = startOf(dealLayout(seed, 'strict'));
    const expected = new Set(position.legalActions().flatMap((action) => (sourceOf(action) ? [placeKey(sourcePlace(position, sourceOf(action)!)!)] : [])));
    await expect.poll(() => board().locator('.card.hint').evaluateAll((cards) => cards.map((element) => element.getAttribute('data-key')).sort())).toEqual(
      [...expected].sort(),
    );
    await page.getByLabel('Show legal moves').uncheck();
  });

  it('asks before a redeal while moves remain, then deals the seed’s next layout', async () => {
    await board().getByRole('button', { name: 'Redeal' }).click();
    expect(await message().textContent()).toBe('Legal moves remain: press Redeal again to gather the fans and deal again');
    await board().getByRole('button', { name: 'Redeal anyway' }).click();
    const gathered = startOf(dealLayout(seed, 'strict')).gatheredCards();
    await expect.poll(() => readFans(page, 'Practice board')).toEqual(redealLayout(seed, 1, gathered));
    expect(await board().locator('.bar').textContent()).toContain('Redeals left 1');
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
  });

  it('moves a card to a reserve cell in fan-reserve', async () => {
    await page.getByLabel('Variant').selectOption('fan-reserve');
    await expect.poll(() => board().getByRole('list', { name: 'Reserve cells' }).getByRole('button').count()).toBe(4);
    const fans = dealLayout(seed, 'fan-reserve');
    expect(await readFans(page, 'Practice board')).toEqual(fans);
    // The top of fan 2 has only the cells to go to: they are one destination, so a click plays it.
    await card('6 of clubs').click();
    await expect.poll(() => board().getByRole('button', { name: 'Cell 1: 6 of clubs' }).count()).toBe(1);
    // Picked to choose, the four cells light up and any one of them takes the card.
    await card('2 of spades').focus();
    await page.keyboard.press('Shift+Enter');
    await expect.poll(targets).toEqual(['cell-1', 'cell-2', 'cell-3']);
    await board().getByRole('button', { name: 'Cell 3: empty' }).click();
    await expect.poll(() => board().getByRole('button', { name: 'Cell 3: 2 of spades' }).count()).toBe(1);
    await screenshot(page, 'practice-reserve-phone', true);
  });

  it('offers the merci in the last deal when nothing else is legal, and plays it', async () => {
    // Seed m150 under this strategy runs out of moves in its last deal after 24 actions.
    await page.goto(`${server.base}/practice?seed=m150&variant=merci`);
    const driver = new BoardDriver(page, 'Practice board', 'merci', dealLayout('m150', 'merci'));
    await expect.poll(() => driver.fans()).toEqual(driver.position.fans); // drawn once the catalogue has loaded
    for (let action = driver.next(); action && action.type !== 'merci'; action = driver.next()) await driver.play(action, 'click');
    expect(await driver.region().locator('.bar').textContent()).toContain('Merci: available now: pick a covered card');

    const merci = driver.position.legalActions()[0]!;
    if (merci.type !== 'merci') throw new Error('the merci should be the only kind of action left');
    const covered = driver.card(merci.card);
    expect(await covered.getAttribute('tabindex')).toBe('0'); // covered cards join the tab order for the merci
    await screenshot(page, 'practice-merci-phone', true);
    await driver.play(merci, 'click');
    expect(await driver.region().locator('.bar').textContent()).toContain('Merci: used');
  });
});
