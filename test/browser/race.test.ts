// Two browsers race one seed to the end against a real server: same first layout, moves by
// click, drag and keyboard, each other's live progress, a dropped socket that comes back, and
// the final standings. Screenshots go to this run's screenshot folder (printed at the end of the run; look at them).
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptProblem, stuckReason } from '../../client/src/lib/moves.js';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import type { RaceAnswer } from '../../contract/index.js';
import { destinations } from '../../shared/index.js';
import { BoardDriver } from './board-driver.js';
import { openBrowser, readFans, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let ana: Browser;
let bo: Browser;
/** Opens the race link without a name: a spectator. */
let eve: Browser;
/** Ana's websockets, routed through the test so one can be cut. */
const anaSockets: WebSocketRoute[] = [];
let anaOffline = false;

beforeAll(async () => {
  // The reasons expected below are written by the client's own code, in English as the pages are.
  await setLocale('en', ['en-GB'], 'every');
  server = await startServer();
  [ana, bo, eve] = await Promise.all([
    openBrowser({ width: 1280, height: 900 }),
    openBrowser({ width: 390, height: 844 }, { hasTouch: true }),
    openBrowser({ width: 1024, height: 700 }),
  ]);
  await ana.context.routeWebSocket(/\/ws/, (socket) => {
    if (anaOffline) return void socket.close({ code: 1006, reason: 'offline' });
    socket.connectToServer();
    anaSockets.push(socket);
  });
});

afterAll(async () => {
  await Promise.all([ana?.close(), bo?.close(), eve?.close()]);
  await server?.stop();
});

async function racerField(page: Page, name: string, field: string): Promise<string | null> {
  return page.locator('.racer', { has: page.getByText(new RegExp(`^${name}( \\(you\\))?$`)) }).locator(`[data-field="${field}"]`).textContent();
}

describe('two browsers race one seed', () => {
  let code = '';
  let anaBoard: BoardDriver;
  let boBoard: BoardDriver;

  it('names the players, creates a race, joins by its link and starts it', async () => {
    await ana.page.goto(`${server.base}/`);
    await ana.page.getByLabel('Your name').fill('Ana');
    await ana.page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => ana.page.getByTestId('my-name').textContent()).toBe('Ana');
    await ana.page.getByLabel('Seats').selectOption('2');
    await expect.poll(() => ana.page.getByRole('form', { name: 'Create a race' }).getByLabel('Variant').inputValue()).toBe('strict');
    await ana.page.getByRole('button', { name: 'Create race' }).click();
    await ana.page.waitForURL(/\/race\/[A-Z0-9]{6}$/);
    code = new URL(ana.page.url()).pathname.split('/')[2]!;
    const link = await ana.page.getByLabel('Share this link with the other racers').inputValue();
    expect(link).toBe(`${server.base}/race/${code}`);

    await bo.page.goto(link);
    await bo.page.getByLabel('Your name').fill('Bo');
    await bo.page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => ana.page.getByRole('list', { name: 'Racers in the lobby' }).textContent()).toContain('Bo');
    await screenshot(ana.page, '1-lobby-desktop');
    await screenshot(bo.page, '1-lobby-phone');

    await ana.page.getByRole('button', { name: 'Start the race' }).click();
    await bo.page.getByRole('timer').waitFor();
    await screenshot(bo.page, '1-countdown-phone');
  });

  it('deals the same first layout to both at the same moment', async () => {
    const board = (page: Page) => page.getByRole('region', { name: 'Your board' });
    await Promise.all([board(ana.page).waitFor(), board(bo.page).waitFor()]);
    const [anaFans, boFans] = await Promise.all([readFans(ana.page, 'Your board'), readFans(bo.page, 'Your board')]);
    expect(anaFans).toHaveLength(18);
    expect(anaFans.flat()).toHaveLength(52);
    expect(boFans).toEqual(anaFans);
    anaBoard = new BoardDriver(ana.page, 'Your board', 'strict', anaFans);
    boBoard = new BoardDriver(bo.page, 'Your board', 'strict', boFans);
    await screenshot(ana.page, '2-first-layout-desktop');
    await screenshot(bo.page, '2-first-layout-phone', true);
  });

  it('fits the whole race board, foundations and the opponent ticker on the phone without scrolling', async () => {
    const box = (selector: string) => bo.page.locator(selector).first().evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    await bo.page.evaluate(() => window.scrollTo(0, 0));
    const table = await box('.board .table');
    const ticker = await box('.ticker');
    const foundations = await box('.foundations');
    expect(table.bottom).toBeLessThanOrEqual(844);
    expect(table.right).toBeLessThanOrEqual(390);
    expect(foundations.top).toBeGreaterThanOrEqual(0);
    expect(ticker.top).toBeGreaterThanOrEqual(0);
    expect(ticker.bottom).toBeLessThanOrEqual(table.top);
    expect(await bo.page.locator('.ticker').textContent()).toContain('Ana 0/52');
    expect(await bo.page.title()).toBe(`Race ${code} · Lucie`);
  });

  it('explains a refused attempt in the engine’s words', async () => {
    const { position } = anaBoard;
    const legal = position.legalActions();
    const stuck = position.fans.findIndex((_, fan) => destinations(legal, { kind: 'fan', fan }).length === 0);
    await anaBoard.card(position.topCard(stuck)!).click();
    await expect.poll(() => anaBoard.message()).toBe(stuckReason(position, { kind: 'fan', fan: stuck }));

    // A drag onto a fan that does not take the card snaps back and says why.
    const other = position.fans.findIndex((cards, fan) => fan !== stuck && cards.length > 0);
    await anaBoard.drag(anaBoard.card(position.topCard(stuck)!), anaBoard.fan(other).locator('.card').last());
    await expect.poll(() => anaBoard.message()).toBe(attemptProblem(position, { kind: 'fan', fan: stuck }, { kind: 'fan', fan: other }));
    await expect.poll(() => anaBoard.fans()).toEqual(position.fans);
    await screenshot(ana.page, '3-refused-desktop');
  });

  it('lets someone without a seat watch the racers’ progress, never a layout', async () => {
    await eve.page.goto(`${server.base}/race/${code}`);
    await eve.page.getByText('You are watching this race').waitFor();
    expect(await eve.page.getByRole('region', { name: 'Your board' }).count()).toBe(0);
    expect(await eve.page.locator('.card').count()).toBe(0);
    await expect.poll(() => eve.page.locator('.racer .name').allTextContents()).toEqual(['Ana', 'Bo']);
  });

  it('plays by click, by drag and by keyboard, and each sees the other’s progress', async () => {
    for (const how of ['click', 'keyboard', 'click'] as const) {
      const action = anaBoard.next();
      if (action) await anaBoard.play(action, how);
    }
    for (const how of ['drag', 'click', 'drag'] as const) {
      const action = boBoard.next();
      if (action) await boBoard.play(action, how);
    }
    await expect.poll(() => racerField(bo.page, 'Ana', 'moves')).toBe(String(anaBoard.moves));
    await expect.poll(() => racerField(eve.page, 'Ana', 'moves')).toBe(String(anaBoard.moves));
    await expect.poll(() => racerField(eve.page, 'Bo', 'foundations')).toBe(`${boBoard.position.foundationCount()}/52`);
    await expect.poll(() => racerField(bo.page, 'Ana', 'foundations')).toBe(`${anaBoard.position.foundationCount()}/52`);
    await expect.poll(() => racerField(ana.page, 'Bo', 'moves')).toBe(String(boBoard.moves));
    await expect.poll(() => racerField(ana.page, 'Bo', 'cards-left')).toBe(String(52 - boBoard.position.foundationCount()));
    await screenshot(ana.page, '4-racing-desktop');
    await screenshot(bo.page, '4-racing-phone', true);
    await screenshot(eve.page, '4-spectator');
  });

  it('keeps moves made while the socket is down and sends them once it is back', async () => {
    anaOffline = true;
    await anaSockets.at(-1)!.close({ code: 1006, reason: 'cut by the test' });
    await ana.page.getByText('Connection lost: reconnecting…').waitFor();
    const action = anaBoard.next();
    if (action && action.type !== 'redeal') await anaBoard.play(action, 'click');
    anaOffline = false;
    await ana.page.getByText('Connection lost: reconnecting…').waitFor({ state: 'hidden', timeout: 10_000 });
    await expect.poll(() => racerField(bo.page, 'Ana', 'moves'), { timeout: 10_000 }).toBe(String(anaBoard.moves));
  });

  it('plays to the end, resigns the other, and both see the same final standings', async () => {
    let i = 0;
    for (let action = anaBoard.next(); action; action = anaBoard.next()) {
      await anaBoard.play(action, i++ % 5 === 0 ? 'drag' : 'click');
    }
    const outcome = anaBoard.position.isWon() ? 'You won' : 'Game over (out of moves)';
    await ana.page.getByText(outcome).waitFor();
    // Where each board is on the page before the race ends (clicking Resign scrolls): the results must not move it.
    const boardBox = (page: Page) =>
      page.getByRole('region', { name: 'Your board' }).evaluate((board) => {
        // The board's corner and width, and the last fan's slot (a squeezed board would move it).
        const { left, top, width } = board.getBoundingClientRect();
        const fan = board.querySelectorAll('.fan');
        const last = fan[fan.length - 1]!.getBoundingClientRect();
        return { left, top: top + window.scrollY, width, lastFan: [last.left, last.top + window.scrollY, last.width, last.height] };
      });
    const anaBefore = await boardBox(ana.page);
    const boBefore = await boardBox(bo.page);

    await bo.page.getByRole('button', { name: 'Resign' }).click();
    await bo.page.getByRole('button', { name: 'Really resign?' }).click();

    const standings = (page: Page) => page.getByRole('region', { name: 'Final standings' }).locator('tbody tr');
    await expect.poll(() => standings(ana.page).count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => standings(bo.page).count(), { timeout: 10_000 }).toBe(2);
    // The name's cell also holds the result, shown under the name on a phone: the name is its link's text.
    const rows = (page: Page) => standings(page).evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((td) => (td.querySelector('a.name') ?? td).textContent)));
    const anaRows = await rows(ana.page);
    const { race } = (await (await fetch(`${server.base}/api/races/${code}`)).json()) as RaceAnswer;
    const expected = race.standings!.map((standing) => [
      String(standing.rank),
      standing.name,
      standing.state === 'won' ? 'won' : standing.state === 'resigned' ? 'resigned' : 'out of moves',
      String(standing.foundations),
    ]);
    expect(anaRows.map((row) => [row[0], row[1]!.replace(' (you)', '').trim(), row[2], row[3]])).toEqual(expected);
    expect((await rows(bo.page)).map((row) => [row[0], row[1]!.replace(' (you)', '').trim()])).toEqual(expected.map((row) => [row[0], row[1]]));
    expect(race.standings!.find((standing) => standing.name === 'Ana')!.foundations).toBe(anaBoard.position.foundationCount());
    expect(race.standings!.find((standing) => standing.name === 'Bo')!.foundations).toBe(boBoard.position.foundationCount());
    await screenshot(ana.page, '5-finished-board-desktop');
    await screenshot(bo.page, '5-finished-board-phone');
    expect(await boardBox(ana.page)).toEqual(anaBefore);
    expect(await boardBox(bo.page)).toEqual(boBefore);
    await screenshot(ana.page, '5-standings-desktop', true);
    await screenshot(bo.page, '5-standings-phone', true);
    await expect.poll(() => standings(eve.page).count()).toBe(2);
    await screenshot(eve.page, '5-standings-spectator', true);
  });

  it('copies Ana’s spoiler-free result line, par in it once the solver has the deal', async () => {
    await ana.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    const { race } = (await (await fetch(`${server.base}/api/races/${code}`)).json()) as RaceAnswer;
    const mine = race.standings!.find((standing) => standing.name === 'Ana')!;
    const copied = async (): Promise<string> => {
      await ana.page.getByTestId('copy-result').click();
      return ana.page.evaluate(() => navigator.clipboard.readText());
    };
    // The analysis runs after the race: par reads `?` until then, a number after.
    await expect.poll(copied, { timeout: 30_000 }).toMatch(/ · par \d+ · /);
    const line = await copied();
    expect(line).toMatch(new RegExp(`^Lucie race ${code} · ${mine.foundations}/52 · \\d+:\\d\\d · par \\d+ · [🟩🟨🟥⬜]{3}\\n${server.base}/game/${mine.gameId}$`, 'u'));
    expect(line).not.toContain(race.seed!);
  });
});
