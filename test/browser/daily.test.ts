// The daily deal and replays in a real browser against a real server: fifty scripted players
// finish the day's deal first, then Ana plays her one ranked attempt through the UI (a reload
// continues it, a second attempt is refused) and resigns when her first deal is played out, so she
// ranks last and finds herself on the leaderboard off the first page, replays her game to the same final position, downloads its record and opens the file
// again to verify it, tampered too. Screenshots go to this run's screenshot folder (printed at the end of the run; look at them).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { problemWords } from '../../client/src/lib/moves.js';
import { buildReplay } from '../../client/src/lib/replay.js';
import { LEADERBOARD_PAGE, type CreatePlayerAnswer, type DailyStartAnswer, type GameSummaryAnswer } from '../../contract/index.js';
import { parseRecord, problemText, verifyRecord, type Card } from '../../shared/index.js';
import { Client } from '../support/socket-client.js';
import { Mirror, playToEnd } from '../support/mirror.js';
import { BoardDriver } from './board-driver.js';
import { openBrowser, readFans, screenshot, shotsDir, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let ana: Browser;
/** A phone without a name: it watches. */
let bo: Browser;

beforeAll(async () => {
  server = await startServer();
  [ana, bo] = await Promise.all([openBrowser({ width: 1280, height: 900 }), openBrowser({ width: 390, height: 844 }, { hasTouch: true })]);
});

afterAll(async () => {
  await Promise.all([ana?.close(), bo?.close()]);
  await server?.stop();
});


/** A scripted player: takes today's attempt and plays it over the websocket with the tests' policy, as fast as acks come. */
/** The day's deal decides how many cards go home before a resignation, so the words follow the number. */
function resignedWords(home: number): string {
  return `Your attempt is over (resigned): ${home} ${home === 1 ? 'card' : 'cards'} on the foundations.`;
}

async function scriptedDaily(name: string): Promise<{ foundations: number; gameId: number; firstLayout: readonly string[] }> {
  const { token } = await server.post<CreatePlayerAnswer>('/api/players', { name });
  const { game } = await server.post<DailyStartAnswer>('/api/daily/start', {}, token);
  const client = await Client.connect(server.base.replace('http', 'ws'), { token });
  const mirror = Mirror.of(game);
  await playToEnd(client, mirror);
  client.close();
  return { foundations: mirror.position.foundationCount(), gameId: game.gameId, firstLayout: game.deals[0]! };
}

const tableRows = (page: Page) =>
  page
    .getByRole('region', { name: 'Leaderboard' })
    .locator('tbody tr:not(.gap)')
    .evaluateAll((rows) => rows.map((row) => ({ cells: [...row.children].map((cell) => cell.textContent!.trim()), me: row.classList.contains('me') })));

describe('the daily deal, its leaderboard and its replays', () => {
  let scripted: Awaited<ReturnType<typeof scriptedDaily>>[] = [];
  let driver: BoardDriver;
  let first: Card[][];
  /** The board as the live game ended, read from the page. */
  let finalFans: Card[][];
  let gameId = 0;

  it('lets fifty scripted players finish the deal first', async () => {
    scripted = await Promise.all(Array.from({ length: LEADERBOARD_PAGE }, (_, i) => scriptedDaily(`Bot ${i + 1}`)));
    // One first layout for everyone; each attempt's redeals come from its own stream, so results may differ.
    expect(new Set(scripted.map((bot) => bot.firstLayout.join(' '))).size).toBe(1);
  });

  it('deals Ana her one ranked attempt: no undo, no aid, and a reload continues it', async () => {
    const { page } = ana;
    await page.goto(`${server.base}/daily`);
    await page.getByLabel('Your name').fill('Ana');
    await page.getByRole('button', { name: 'Save name' }).click();
    // A second tab still offering the start: it will try a second attempt later.
    const stale = await ana.context.newPage();
    await stale.goto(`${server.base}/daily`);
    await stale.getByRole('button', { name: 'Start today’s attempt' }).waitFor();
    await page.bringToFront(); // a background tab gets no animation frames

    await page.getByRole('button', { name: 'Start today’s attempt' }).click();
    await page.getByRole('region', { name: 'Daily board' }).waitFor();
    first = await readFans(page, 'Daily board');
    expect(first.flat()).toHaveLength(52);
    driver = new BoardDriver(page, 'Daily board', 'strict', first);
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(await page.getByLabel('Show legal moves').count()).toBe(0);
    await screenshot(page, 'daily-1-start-desktop');

    for (const how of ['click', 'drag', 'click', 'keyboard'] as const) await driver.play(driver.next()!, how);
    // Only acknowledged moves survive a reload: wait for the server to hold all four.
    await page.getByText(/^Moves 4$/).waitFor();
    await page.reload();
    await page.getByRole('region', { name: 'Daily board' }).waitFor();
    await expect.poll(() => readFans(page, 'Daily board')).toEqual(driver.position.fans);

    // Ana plays her first deal out, then resigns rather than redeal: cards home never go back, so
    // every scripted player (same first deal, same policy, redeals after) has at least as many.
    let i = 0;
    for (let action = driver.next(); action && action.type !== 'redeal'; action = driver.next()) await driver.play(action, i++ % 7 === 3 ? 'drag' : 'click');
    if (!driver.position.isWon()) {
      await page.getByRole('button', { name: 'Resign' }).click();
      await page.getByRole('button', { name: 'Really resign?' }).click();
    }
    const outcome = driver.position.isWon() ? 'You won' : resignedWords(driver.position.foundationCount());
    await expect.poll(() => page.getByTestId('daily-outcome').textContent()).toContain(outcome);
    expect(scripted.every((bot) => bot.foundations >= driver.position.foundationCount())).toBe(true);
    // Ties on cards home go by time: the scripted players were faster, so Ana is last.
    await expect.poll(() => page.getByTestId('daily-outcome').textContent()).toContain(`Rank ${LEADERBOARD_PAGE + 1} of ${LEADERBOARD_PAGE + 1}`);
    finalFans = await readFans(page, 'Daily board');
    expect(finalFans).toEqual(driver.position.fans);
    await screenshot(page, 'daily-2-over-desktop');

    await stale.bringToFront();
    await stale.getByRole('button', { name: 'Start today’s attempt' }).click();
    await expect.poll(() => stale.getByTestId('start-error').textContent()).toBe('You have already played today’s deal: come back tomorrow.'); // the refusal written from its code, daily-played
    await expect.poll(() => stale.getByTestId('daily-outcome').textContent()).toContain('You have played today’s deal');
    await screenshot(stale, 'daily-3-second-attempt-refused');
    await stale.close();
    await page.bringToFront();
  });

  it('shows Ana on the leaderboard, off the first page, and hides the others’ moves while the day is open', async () => {
    const { page } = ana;
    const board = page.getByRole('region', { name: 'Leaderboard' });
    await board.getByTestId('my-row-off-page').waitFor();
    const rows = await tableRows(page);
    expect(rows).toHaveLength(LEADERBOARD_PAGE + 1);
    const result = driver.position.isWon() ? 'won' : 'resigned';
    const cards = String(driver.position.foundationCount());
    const best = Math.max(...scripted.map((bot) => bot.foundations));
    expect(rows[0]!.cells.slice(0, 4)).toEqual(['1', expect.stringMatching(/^Bot \d+$/), best === 52 ? 'won' : expect.any(String), String(best)]);
    expect(rows.at(-1)).toEqual({ cells: [String(LEADERBOARD_PAGE + 1), 'Ana (you)', result, cards, expect.stringMatching(/^\d+:\d\d\.\d$/), 'Replay'], me: true });
    expect(rows.slice(0, -1).every((row) => !row.me && row.cells[5] === 'hidden')).toBe(true);
    await board.getByTestId('moves-hidden').waitFor();
    await screenshot(page, 'daily-4-leaderboard-desktop', true);

    await board.getByRole('button', { name: 'Show my place' }).click();
    await expect.poll(() => board.getByText(`Places ${LEADERBOARD_PAGE + 1}–${LEADERBOARD_PAGE + 1} of ${LEADERBOARD_PAGE + 1}`).count()).toBe(1);
    expect((await tableRows(page)).map((row) => [row.cells[0], row.cells[1], row.me])).toEqual([[String(LEADERBOARD_PAGE + 1), 'Ana (you)', true]]);

    // A phone without a name sees the same board, and no one's moves.
    await bo.page.goto(`${server.base}/daily`);
    await bo.page.getByRole('region', { name: 'Leaderboard' }).getByTestId('moves-hidden').waitFor();
    await expect.poll(() => tableRows(bo.page).then((found) => found.length)).toBe(LEADERBOARD_PAGE);
    await screenshot(bo.page, 'daily-5-leaderboard-phone');

    // Yesterday is over: its seed is out, and nobody played it here.
    await bo.page.getByRole('link', { name: '← Previous day' }).click();
    await bo.page.waitForURL(/\/daily\/\d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => bo.page.getByText('This day is over.').count()).toBe(1);
    expect(await bo.page.getByRole('link', { name: 'practice this deal' }).getAttribute('href')).toMatch(/^\/practice\?seed=daily-\d{4}-\d{2}-\d{2}-/);
    await bo.page.getByText('No finished attempt yet.').waitFor();
    expect(await bo.page.getByTestId('moves-hidden').count()).toBe(0);
    await screenshot(bo.page, 'daily-5b-yesterday-phone');
    await bo.page.goto(`${server.base}/game/${scripted[0]!.gameId}`);
    await bo.page.getByTestId('record-hidden').waitFor();
    expect(await bo.page.getByRole('region', { name: 'Replay board' }).count()).toBe(0);
    await screenshot(bo.page, 'daily-6-replay-hidden-phone');
  });

  it('replays Ana’s game from its page to the same final position', async () => {
    const { page } = ana;
    await page.getByRole('region', { name: 'Leaderboard' }).getByRole('link', { name: 'Replay' }).click();
    await page.waitForURL(/\/game\/\d+$/);
    gameId = Number(new URL(page.url()).pathname.split('/')[2]);
    const replayBoard = page.getByRole('region', { name: 'Replay board' });
    await replayBoard.waitFor();
    expect(await page.getByTestId('game-result').textContent()).toContain(`${driver.position.foundationCount()}/52`);
    expect(await readFans(page, 'Replay board')).toEqual(first);

    const steps = driver.actions.length;
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toMatch(new RegExp(`^Step 1 of ${steps}: `));
    await page.keyboard.press('End');
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(finalFans);
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toMatch(new RegExp(`^Step ${steps} of ${steps}`));
    await screenshot(page, 'replay-1-end-desktop', true);

    // Back one step with the arrow key, and a jump from the list of actions, each against the engine.
    const record = await (await fetch(`${server.base}/api/games/${gameId}/record`, { headers: { authorization: `Bearer ${await token(page)}` } })).json();
    const parsed = parseRecord(record);
    if (!parsed.ok) throw new Error(problemText(parsed.error));
    expect(parsed.value.actions).toEqual(driver.actions);
    const { positions } = buildReplay(parsed.value);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(positions[steps - 1]!.fans);
    const jump = Math.ceil(steps / 3);
    await page.getByRole('region', { name: 'Actions' }).getByRole('button', { name: `Step ${jump}: ${driver.actions[jump - 1]}, `, exact: false }).click();
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(positions[jump]!.fans);
    const scrub = Math.ceil((2 * steps) / 3);
    await page.getByLabel('Step', { exact: true }).fill(String(scrub));
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(positions[scrub]!.fans);
    await page.keyboard.press('Home');
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(positions[0]!.fans);

    // Autoplay walks forward by itself.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const shown = async (): Promise<number> => Number(/^Step (\d+)/.exec((await page.getByTestId('replay-step').textContent())!)![1]);
    await expect.poll(shown, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    const phone = await ana.context.newPage();
    await phone.bringToFront();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(page.url());
    await phone.getByRole('region', { name: 'Replay board' }).waitFor();
    await phone.getByRole('button', { name: 'Last position' }).click();
    await expect.poll(() => readFans(phone, 'Replay board')).toEqual(finalFans);
    // The controls stick to the bottom of the screen while the board scrolls under them.
    await screenshot(phone, 'replay-2-end-phone');
    const controls = await phone.getByRole('group', { name: 'Replay controls' }).boundingBox();
    expect(controls!.y + controls!.height).toBeLessThanOrEqual(844);
    await phone.getByRole('region', { name: 'Actions' }).scrollIntoViewIfNeeded();
    await screenshot(phone, 'replay-3-actions-phone');
    await phone.close();
    await page.bringToFront();
  });

  it('downloads the record, opens the file again and verifies it, and shows where a tampered copy breaks', async () => {
    const { page } = ana;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the record (.json)' }).click()]);
    const { game } = (await (await fetch(`${server.base}/api/games/${gameId}`)).json()) as GameSummaryAnswer;
    expect(download.suggestedFilename()).toBe(`lucie-daily-${game.day}-ana-game-${gameId}.json`);
    const path = join(shotsDir(), 'downloaded-record.json');
    await download.saveAs(path);
    const downloaded = readFileSync(path, 'utf8');
    const record = parseRecord(downloaded);
    if (!record.ok) throw new Error(problemText(record.error));
    expect(record.value.actions).toEqual(driver.actions);
    const replayed = buildReplay(record.value);
    const verdict = verifyRecord(downloaded);
    expect(verdict).toEqual({ ok: true, foundations: driver.position.foundationCount(), won: driver.position.isWon(), over: !driver.position.hasLegalAction(), redealsUsed: 0 });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Open a record file' }).click();
    await page.getByLabel('Choose a record file').setInputFiles(path);
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('The moves are legal.');
    expect(await page.getByTestId('verdict').textContent()).toContain(`${driver.position.foundationCount()}/52 cards home`);
    await page.getByRole('button', { name: 'Last position' }).click();
    await expect.poll(() => readFans(page, 'Replay board')).toEqual(finalFans);
    await screenshot(page, 'record-1-verified-desktop', true);

    // One action changed: the fifth becomes a move from fan 18 onto itself, never legal.
    const json = JSON.parse(downloaded) as { actions: string[] };
    expect(json.actions.length).toBeGreaterThan(4);
    json.actions[4] = '18>18';
    const tampered = join(shotsDir(), 'tampered-record.json');
    writeFileSync(tampered, JSON.stringify(json, null, 2));
    const broken = verifyRecord(readFileSync(tampered, 'utf8'));
    expect(broken).toMatchObject({ ok: false, index: 4, action: '18>18' });
    // Dropped on the page this time.
    const transfer = await page.evaluateHandle((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'tampered-record.json', { type: 'application/json' }));
      return data;
    }, readFileSync(tampered, 'utf8'));
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('The record breaks at action 5 (index 4) 18>18');
    await setLocale('en', [], 'every'); // the page's language, for the engine's reason written here
    expect(await page.getByTestId('break-reason').textContent()).toBe(broken.ok ? '' : problemWords(broken.problem));
    // The replay opens where the record breaks: after the four legal actions.
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toMatch(/^Step 4 of 4/);
    expect(await readFans(page, 'Replay board')).toEqual(replayed.positions[4]!.fans);
    await screenshot(page, 'record-2-tampered-desktop', true);
  });

  it('lists Ana’s game in her history, linking to its replay', async () => {
    const { page } = ana;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    const games = page.getByRole('list', { name: 'Your games' }).getByRole('listitem');
    await expect.poll(() => games.count()).toBe(1);
    expect(await games.first().textContent()).toContain(`${driver.position.foundationCount()}/52`);
    await screenshot(page, 'history-desktop');
    await games.first().getByRole('link', { name: `Replay of game ${gameId}` }).click();
    await page.waitForURL(`${server.base}/game/${gameId}`);
    await page.getByRole('region', { name: 'Replay board' }).waitFor();
  });

  it('lets Bo play his attempt on a phone and resign it', async () => {
    const { page } = bo;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Daily' }).click();
    await page.getByLabel('Your name').fill('Bo');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: 'Start today’s attempt' }).click();
    await page.getByRole('region', { name: 'Daily board' }).waitFor();
    const phone = new BoardDriver(page, 'Daily board', 'strict', await readFans(page, 'Daily board'));
    expect(phone.position.fans).toEqual(first); // the day's one deal
    for (let i = 0; i < 3; i++) await phone.play(phone.next()!, 'click');
    await screenshot(page, 'daily-7-playing-phone');
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Really resign?' }).click();
    await expect.poll(() => page.getByTestId('daily-outcome').textContent()).toContain(resignedWords(phone.position.foundationCount()));
    await expect.poll(() => page.getByTestId('daily-outcome').textContent()).toMatch(/Rank \d+ of 52\./);
    await screenshot(page, 'daily-8-resigned-phone', true);
  });
});

async function token(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('lucie.identity')!) as { token: string }).token);
}
