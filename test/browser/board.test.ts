// The board's feel in a real browser at three window sizes, each in light and dark: fan slots that
// never move over a whole game, nothing overflowing or overlapping, targets of 24 px or more, the
// merci picker on a phone, one-click and auto-play, fast drags during animations, settings that
// survive a reload, and axe checks (names, contrast, target sizes). Screenshots: this run's screenshot folder (printed at the end of the run).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAction, dealLayout, makeAction, Position, safeHomeAction, sourceOf, targetOf, type Action, type VariantId } from '../../shared/index.js';
import { unwrap } from '../support/mirror.js';
import { BoardDriver } from './board-driver.js';
import { layoutProblems, MIN_TARGET } from './layout-checks.js';
import { axeViolations, openBrowser, readFans, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

const BOARD = 'Practice board';
const slots = (page: Page) =>
  page
    .getByRole('region', { name: BOARD })
    .locator('ol.fans > li')
    .evaluateAll((fans) => fans.map((fan) => [Math.round(fan.getBoundingClientRect().left), Math.round(fan.getBoundingClientRect().top + window.scrollY)]));

/** Plays a practice game to its end through the UI; returns the fan slots seen after every action. */
async function playToTheEnd(page: Page, seed: string, variant: VariantId): Promise<{ moves: number; slots: number[][][]; pickerTargets: number[] }> {
  await page.goto(`${server.base}/practice?seed=${seed}&variant=${variant}`);
  const driver = new BoardDriver(page, BOARD, variant, dealLayout(seed, variant));
  // The page mounts once its language is loaded (main.ts): wait for the deal to be drawn.
  await expect.poll(() => driver.fans()).toEqual(driver.position.fans);
  const seen = [await slots(page)];
  for (let action = driver.next(); action; action = driver.next()) {
    await driver.play(action, action.type === 'fan-to-fan' ? 'drag' : 'click');
    seen.push(await slots(page));
  }
  return { moves: driver.moves, slots: seen, pickerTargets: driver.pickerTargets };
}

const VIEWPORTS = [
  { name: 'desktop', width: 1920, height: 1080, variant: 'strict', fans: 18 },
  { name: 'laptop', width: 1280, height: 800, variant: 'trefoil', fans: 16 },
  // The merci variant: its last deal's covered cards are picked through the merci picker on a phone.
  { name: 'phone', width: 390, height: 844, variant: 'merci', fans: 18 },
] as const;
const THEMES = ['light', 'dark'] as const;

describe.each(VIEWPORTS)('the board at $width×$height', ({ name, width, height, variant, fans }) => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser({ width, height }, { hasTouch: name === 'phone' });
    page = browser.page;
  });
  afterAll(async () => browser?.close());

  // The slots depend on the window only; the theme changes colours, checked below in both.
  it('keeps every fan in its slot for a whole game played to the end', async () => {
    await useSettings(page, server.base, { theme: 'light', speed: 'off', autoPlayPractice: false });
    const game = await playToTheEnd(page, 'slots7', variant);
    expect(game.moves).toBeGreaterThan(20);
    expect(game.slots[0]).toHaveLength(fans);
    // Each slot stays put; a redeal leaves fewer fans, in the first slots.
    for (const after of game.slots) expect(after).toEqual(game.slots[0]!.slice(0, after.length));
    if (variant === 'merci') {
      // The game ends with the merci: its covered card was picked from the picker, each card there a large target.
      expect(game.pickerTargets.length).toBeGreaterThan(0);
      expect(Math.min(...game.pickerTargets)).toBeGreaterThanOrEqual(MIN_TARGET * 2);
    }
    await screenshot(page, `board-end-${name}`);
  });

  it.each(THEMES)('draws the deal within the window, nothing overflowing or overlapping, every target large enough, axe clean (%s)', async (theme) => {
    await useSettings(page, server.base, { theme, speed: 'off', autoPlayPractice: false });
    await page.goto(`${server.base}/practice?seed=abc&variant=${variant}`);
    await expect.poll(() => readFans(page, BOARD)).toEqual(dealLayout('abc', variant));
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    const table = await page.locator('.board .table').evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    const card = await page.locator('.fan .card').first().evaluate((element) => element.getBoundingClientRect().width);
    expect(table.right).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The whole board, from the foundations to the last fan's number, is in the first screen.
    expect(table.bottom).toBeLessThanOrEqual(height);
    if (name === 'desktop') {
      expect(table.width).toBeGreaterThan(width * 0.85); // the board uses the width
      expect(card).toBeGreaterThan(110);
    }
    expect(card).toBeGreaterThanOrEqual(26);
    // Every header link shows whole: none is cut by the header's edge.
    const nav = await page.getByRole('navigation', { name: 'Main' }).evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    for (const link of await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all()) {
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(nav.left - 0.5);
      expect(box.x + box.width).toBeLessThanOrEqual(nav.right + 0.5);
    }
    expect(await layoutProblems(page)).toEqual({ overflow: [], overlaps: [], small: [] });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `board-deal-${name}-${theme}`);
  });
});

describe('fewer clicks', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser({ width: 1280, height: 800 });
    page = browser.page;
  });
  afterAll(async () => browser?.close());

  it('auto-plays safe cards in practice after one click, each as an ordinary action', async () => {
    // Seed abc: A♦ (fan 8) goes home with one click; 2♦ on top of fan 10 follows by itself.
    await page.goto(`${server.base}/practice?seed=abc&variant=strict`);
    let expected = unwrap(applyAction(unwrap(Position.start('strict', dealLayout('abc', 'strict'))), { type: 'fan-to-foundation', from: 7 }));
    const played = ['8>F'];
    for (let safe = safeHomeAction(expected, expected.legalActions()); safe; safe = safeHomeAction(expected, expected.legalActions())) {
      expected = unwrap(applyAction(expected, safe));
      played.push(makeAction(safe));
    }
    expect(played.length).toBeGreaterThan(1);
    await page.getByRole('region', { name: BOARD }).getByRole('button', { name: 'Ace of diamonds', exact: true }).click();
    await expect.poll(() => readFans(page, BOARD)).toEqual(expected.fans);
    await page.getByText(/moves? \(lucie-record\/1 notation\)/).click();
    expect(await page.locator('.moves p').textContent()).toBe(played.join(' '));
    await screenshot(page, 'board-autoplay');
  });

  it('keeps settings across a reload: deck, theme, speed, sound, auto-play', async () => {
    await page.getByText('Settings').click();
    await page.getByLabel('Four-colour deck').check();
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByLabel('Card animation').selectOption('fast');
    await page.getByLabel('Sounds').check();
    await page.getByLabel('Auto-play safe cards in practice').uncheck();
    await page.reload();
    await page.getByText('Settings').click();
    expect(await page.getByLabel('Four-colour deck').isChecked()).toBe(true);
    expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
    expect(await page.getByLabel('Card animation').inputValue()).toBe('fast');
    expect(await page.getByLabel('Sounds').isChecked()).toBe(true);
    expect(await page.getByLabel('Auto-play safe cards in practice').isChecked()).toBe(false);
    expect(await page.getByLabel('Auto-play safe cards in races and daily games').isChecked()).toBe(false);
    expect(await page.evaluate(() => [document.documentElement.dataset.theme, document.documentElement.dataset.deck])).toEqual(['dark', 'four']);
    const diamond = page.getByRole('region', { name: BOARD }).getByRole('button', { name: 'Ace of diamonds', exact: true });
    expect(await diamond.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(20, 70, 160)');
    await screenshot(page, 'board-settings-dark');
    // Auto-play is now off: A♦ goes home alone.
    await page.getByText('Settings').click();
    await diamond.click();
    await expect.poll(() => page.getByRole('button', { name: /^diamonds foundation/ }).getAttribute('aria-label')).toBe('diamonds foundation: Ace of diamonds, 1 card');
    expect(await page.getByRole('region', { name: BOARD }).getByRole('button', { name: '2 of diamonds', exact: true }).count()).toBe(1);
    await useSettings(page, server.base, {});
  });
});

describe('keyboard and double-click', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser({ width: 1280, height: 800 });
    page = browser.page;
    await useSettings(page, server.base, { autoPlayPractice: false });
  });
  afterAll(async () => browser?.close());

  it('skips to the board from the first Tab, and sends a card home by double-click and by H', async () => {
    await page.goto(`${server.base}/practice?seed=abc&variant=strict`);
    const board = page.getByRole('region', { name: BOARD });
    await board.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the board');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(BOARD);

    // Seed abc: A♦ is on top of fan 8, then 2♦ on top of fan 10.
    const diamonds = () => page.getByRole('button', { name: /^diamonds foundation/ }).getAttribute('aria-label');
    await board.getByRole('button', { name: 'Ace of diamonds', exact: true }).dblclick();
    await expect.poll(diamonds, { timeout: 20_000 }).toBe('diamonds foundation: Ace of diamonds, 1 card');
    await board.getByRole('button', { name: '2 of diamonds', exact: true }).focus();
    await page.keyboard.press('h');
    await expect.poll(diamonds, { timeout: 20_000 }).toBe('diamonds foundation: 2 of diamonds, 2 cards');
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await useSettings(page, server.base, {});
  });
});

describe('input during animations', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser({ width: 1280, height: 800 });
    page = browser.page;
    await useSettings(page, server.base, { speed: 'normal', autoPlayPractice: false });
  });
  afterAll(async () => browser?.close());

  it('lands 50 fast drags where they were aimed, each started while the last move still flies', async () => {
    let drags = 0;
    let duringAnimation = 0;
    for (let game = 0; drags < 50 && game < 10; game++) {
      const seed = `fast${game}`;
      await page.goto(`${server.base}/practice?seed=${seed}&variant=strict`);
      const region = page.getByRole('region', { name: BOARD });
      let position = unwrap(Position.start('strict', dealLayout(seed, 'strict')));
      await expect.poll(() => readFans(page, BOARD)).toEqual(position.fans);
      await region.evaluate((board) => board.scrollIntoView({ block: 'start' }));
      for (;;) {
        const action: Action | undefined = position.legalActions().find((candidate) => candidate.type === 'fan-to-fan' || candidate.type === 'fan-to-foundation');
        if (!action || drags >= 50) break;
        const source = sourceOf(action)!;
        const target = targetOf(action)!;
        if (source.kind !== 'fan') break;
        const card = position.topCard(source.fan)!;
        // Aimed at the card as it shows now, flying or not.
        const from = (await region.locator(`[data-card="${card}"]`).boundingBox())!;
        if (await page.evaluate(() => document.getAnimations().length > 0)) duringAnimation++;
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 2 });
        // The player looks at the destination while dragging: it sits where it rests.
        const destination =
          target.kind === 'foundation' ? region.locator('.foundations > li').nth(Math.floor(card / 13)) : region.locator('ol.fans > li').nth(target.kind === 'fan' ? target.fan : 0).locator('.card').last();
        const to = (await destination.boundingBox())!;
        await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 3 });
        await page.mouse.up();
        position = unwrap(applyAction(position, action));
        drags++;
        await expect.poll(() => readFans(page, BOARD), { timeout: 3000 }).toEqual(position.fans);
        expect(await region.locator('.message.problem').count()).toBe(0);
      }
    }
    expect(drags).toBe(50);
    expect(duringAnimation).toBeGreaterThanOrEqual(25);
  });
});
