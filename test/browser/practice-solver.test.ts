// Practice's solver in a real browser (a Web Worker, loaded on first use): "Hint" names par's next
// action from the current position, "Solve from here" plays the deal solver's line to its maximum.
// Screenshots go to this run's screenshot folder (printed at the end of the run).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { describeAction } from '../../client/src/lib/moves.js';
import { dealLayout, Position, problemText } from '../../shared/index.js';
import { seedDealer, solveDeal, solvePar } from '../../solver/index.js';
import { openBrowser, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await setLocale('en', [], 'every'); // the page's language, for the move described here
  server = await startServer();
  browser = await openBrowser({ width: 1280, height: 900 });
  page = browser.page;
  await useSettings(page, server.base, { autoPlayPractice: false });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const SEED = 's0';
const start = (): Position => {
  const position = Position.start('strict', dealLayout(SEED, 'strict'));
  if (!position.ok) throw new Error(problemText(position.error));
  return position.value;
};

describe('the practice solver', () => {
  it('gives par’s next action as a hint', async () => {
    await page.goto(`${server.base}/practice?seed=${SEED}&variant=strict`);
    const par = solvePar(start(), seedDealer(SEED));
    expect(par.par).toBe(46);
    await page.getByRole('button', { name: 'Hint' }).click();
    await expect.poll(() => page.getByTestId('advice').textContent(), { timeout: 30_000 }).toBe(`Hint: ${describeAction(start(), par.actions[0]!)} (par from here: 46 cards home).`);
  });

  it('plays the deal solver’s line from here to the deal’s maximum', async () => {
    const best = solveDeal(start());
    expect(best.max).toBe(24);
    await page.getByRole('button', { name: 'Solve from here' }).click();
    const foundations = page.getByRole('region', { name: 'Practice board' }).getByText(/^Foundations/);
    await expect.poll(() => foundations.textContent(), { timeout: 60_000 }).toContain('24/52');
    expect(await page.getByTestId('advice').textContent()).toBe('Playing the solver’s line: 24 cards home in this deal.');
    // The line plays on past the maximum to the end of the deal (solver/playout.ts): wait for its last move.
    await expect.poll(() => page.locator('details.moves summary').textContent(), { timeout: 30_000 }).toContain(`${best.line.length} moves`);
    await screenshot(page, 'practice-solved');
  });
});
