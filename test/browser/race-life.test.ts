// A race's whole life with real browsers and a short grace period: the creator removes a racer
// (who joins again), closes the lobby browser and the next racer takes over and starts; a racer
// closes the browser mid-race and the others get the standings once the grace period is over;
// the race replay plays to the end at the standings; a rematch accepted by both starts a new
// race. Screenshots go to this run's screenshot folder as life-*.png (printed at the end of the run; look at them).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RaceAnswer } from '../../contract/index.js';
import { BoardDriver } from './board-driver.js';
import { openBrowser, readFans, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

/** Long enough for a loaded machine to show the countdown, short enough to wait for. */
const GRACE_SECONDS = 6;
/** A wait for something the server or the page does at once, given the time a loaded machine may take. */
const SOON = { timeout: 20_000 };
/** Waits that cover the grace period plus a slow machine's delays. */
const PAST_GRACE = { timeout: (GRACE_SECONDS + 30) * 1000 };

let server: RunningServer;
let ana: Browser;
let bo: Browser;
let cy: Browser;
let dee: Browser;

beforeAll(async () => {
  server = await startServer({ GRACE_SECONDS: String(GRACE_SECONDS), COUNTDOWN_MS: '500' });
  const size = { width: 1100, height: 800 };
  [ana, bo, cy, dee] = await Promise.all([openBrowser(size), openBrowser(size), openBrowser(size), openBrowser(size)]);
});

afterAll(async () => {
  // Ana's and Dee's browsers are closed by the test itself; closing twice is harmless.
  await Promise.all([ana, bo, cy, dee].map((browser) => browser?.close().catch(() => {})));
  await server?.stop();
});

const lobbyNames = (page: Page) => page.getByRole('list', { name: 'Racers in the lobby' }).locator('li');
const standingRows = (page: Page) => page.getByRole('region', { name: 'Final standings' }).locator('tbody tr');
const raceView = async (code: string) => ((await (await fetch(`${server.base}/api/races/${code}`)).json()) as RaceAnswer).race;

/** Notes in the page whether an element matching `selector` was ever shown, however briefly. */
async function watchFor(page: Page, selector: string): Promise<void> {
  await page.evaluate((wanted) => {
    const flags = window as unknown as { seen?: Record<string, boolean> };
    flags.seen ??= {};
    const check = (): void => {
      if (document.querySelector(wanted)) flags.seen![wanted] = true;
    };
    check();
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, selector);
}
const wasSeen = (page: Page, selector: string) =>
  page.evaluate((wanted) => (window as unknown as { seen?: Record<string, boolean> }).seen?.[wanted] === true, selector);

async function joinByLink(browser: Browser, link: string, name: string): Promise<void> {
  await browser.page.goto(link);
  await browser.page.getByLabel('Your name').fill(name);
  await browser.page.getByRole('button', { name: 'Join' }).click();
}

async function boardOf(page: Page): Promise<BoardDriver> {
  await page.getByRole('region', { name: 'Your board' }).waitFor();
  return new BoardDriver(page, 'Your board', 'strict', await readFans(page, 'Your board'));
}

describe('a race with people who leave', () => {
  let code = '';
  let link = '';

  it('lets the creator remove a racer, who can join again', async () => {
    await ana.page.goto(`${server.base}/`);
    await ana.page.getByLabel('Your name').fill('Ana');
    await ana.page.getByRole('button', { name: 'Save name' }).click();
    await ana.page.getByLabel('Seats').selectOption('4');
    await ana.page.getByRole('button', { name: 'Create race' }).click();
    await ana.page.waitForURL(/\/race\/[A-Z0-9]{6}$/);
    code = new URL(ana.page.url()).pathname.split('/')[2]!;
    link = `${server.base}/race/${code}`;
    for (const [browser, name] of [[bo, 'Bo'], [cy, 'Cy'], [dee, 'Dee']] as const) await joinByLink(browser, link, name);
    await expect.poll(() => lobbyNames(ana.page).count(), SOON).toBe(4);

    await ana.page.getByRole('button', { name: 'Remove Cy from the lobby' }).click();
    await cy.page.getByText('You were removed from the lobby by its creator.').waitFor();
    await expect.poll(() => lobbyNames(bo.page).count(), SOON).toBe(3);
    await screenshot(cy.page, 'life-1-removed');
    await cy.page.getByRole('button', { name: 'Join as Cy' }).click();
    await expect.poll(() => lobbyNames(ana.page).count(), SOON).toBe(4);
    await screenshot(ana.page, 'life-1-lobby-creator');
  });

  it('passes the lobby to the next racer when the creator closes the browser, and that racer starts', async () => {
    await watchFor(cy.page, '[data-presence="reconnecting"]');
    await ana.close();
    // Everyone sees Ana reconnecting, with the time left, then Bo (next in seat order) takes over.
    const anaAway = lobbyNames(cy.page).filter({ hasText: /reconnecting \(0:0\d left\)/ });
    if (await anaAway.waitFor({ timeout: GRACE_SECONDS * 1000 }).then(() => true, () => false)) await screenshot(cy.page, 'life-2-creator-reconnecting');
    await bo.page.getByText('You are now the creator of this lobby: you start the race.').waitFor(PAST_GRACE);
    await cy.page.getByText('Bo is now the creator of this lobby.').waitFor(PAST_GRACE);
    await expect.poll(() => lobbyNames(dee.page).allTextContents(), SOON).toEqual([
      expect.stringMatching(/^Bocreator/),
      expect.stringMatching(/^Dee/),
      expect.stringMatching(/^Cy/),
    ]);
    expect(await wasSeen(cy.page, '[data-presence="reconnecting"]')).toBe(true);
    await screenshot(bo.page, 'life-2-new-creator');
    await bo.page.getByRole('button', { name: 'Start the race' }).click();
    await Promise.all([bo, cy, dee].map((browser) => browser.page.getByRole('region', { name: 'Your board' }).waitFor()));
    // Cy joined again after being removed: a new seat after Dee's.
    expect((await raceView(code)).racers.map((racer) => racer.name)).toEqual(['Bo', 'Dee', 'Cy']);
  });

  it('gives the others the standings once a racer who closed the browser is past the grace period', async () => {
    const [boBoard, cyBoard, deeBoard] = await Promise.all([boardOf(bo.page), boardOf(cy.page), boardOf(dee.page)]);
    for (const [board, count] of [[boBoard, 4], [cyBoard, 2], [deeBoard, 3]] as const) {
      for (let i = 0; i < count; i++) {
        const action = board.next();
        if (action && action.type !== 'redeal') await board.play(action, 'click');
      }
    }
    // Nothing of the race is served before it is finished.
    expect((await fetch(`${server.base}/api/races/${code}/replay`)).status).toBe(409);
    for (const browser of [bo, cy]) {
      await browser.page.getByRole('button', { name: 'Resign' }).click();
      await browser.page.getByRole('button', { name: 'Really resign?' }).click();
    }
    await expect.poll(() => bo.page.getByTestId('waiting').textContent(), SOON).toContain('Waiting for 1 other racer to finish');
    await expect.poll(async () => (await raceView(code)).progress.find((racer) => racer.name === 'Dee')!.moves, SOON).toBe(deeBoard.moves);
    await watchFor(bo.page, '[data-testid="reconnecting"]');
    await dee.close();
    const deeAway = bo.page.getByTestId('reconnecting').filter({ hasText: 'Dee lost their connection' });
    if (await deeAway.waitFor({ timeout: GRACE_SECONDS * 1000 }).then(() => true, () => false)) await screenshot(bo.page, 'life-3-reconnecting');
    await expect.poll(() => standingRows(bo.page).count(), PAST_GRACE).toBe(3);
    expect(await wasSeen(bo.page, '[data-testid="reconnecting"]')).toBe(true);
    // Beside the progress, everyone sees where each racer is: Dee is gone for good.
    await expect.poll(() => bo.page.locator('.racer', { hasText: 'Dee' }).locator('[data-presence]').textContent(), SOON).toBe('gone');
    await expect.poll(() => standingRows(cy.page).count(), SOON).toBe(3);
    const race = await raceView(code);
    expect(race.state).toBe('finished');
    const dees = race.standings!.find((standing) => standing.name === 'Dee')!;
    expect(dees).toMatchObject({ state: 'abandoned', foundations: deeBoard.position.foundationCount() });
    // The name's cell also holds the result and presence a phone shows under the name: the name is its link's text.
    const cells = await standingRows(cy.page).evaluateAll((rows) => rows.map((row) => [...row.children].slice(0, 4).map((cell) => (cell.querySelector('a.name') ?? cell).textContent)));
    expect(cells.map(([rank, name, result, home]) => [rank, name!.replace(' (you)', ''), result, home])).toEqual(
      race.standings!.map((standing) => [String(standing.rank), standing.name, standing.state === 'abandoned' ? 'abandoned' : 'resigned', String(standing.foundations)]),
    );
    // The standings table itself says who is still there, as the server tells everyone.
    const presence = (page: Page, name: string) => standingRows(page).filter({ hasText: name }).locator('td[data-presence]').textContent();
    for (const page of [bo.page, cy.page]) {
      await expect.poll(() => presence(page, 'Dee'), SOON).toBe('gone');
      await expect.poll(() => presence(page, 'Bo'), SOON).toBe('online');
      await expect.poll(() => presence(page, 'Cy'), SOON).toBe('online');
    }
    await screenshot(bo.page, 'life-3-standings', true);
  });

  it('replays the finished race, every board side by side, to the final standings', async () => {
    await cy.page.getByRole('link', { name: 'Watch the race replay' }).click();
    await cy.page.waitForURL(`${server.base}/race/${code}/replay`);
    const boards = cy.page.locator('figure.seat');
    await expect.poll(() => boards.evaluateAll((seats) => seats.map((seat) => seat.getAttribute('data-player'))), SOON).toEqual(['Bo', 'Dee', 'Cy']);
    await expect.poll(() => cy.page.getByTestId('replay-home').allTextContents(), SOON).toEqual(['0/52 home', '0/52 home', '0/52 home']);
    await screenshot(cy.page, 'life-4-replay-start');
    await cy.page.getByLabel('Speed').selectOption({ label: '32×' });
    await cy.page.getByRole('button', { name: 'Play' }).click();
    // It plays on the race's clock and stops by itself at the end of the race.
    const clock = async () => (await cy.page.getByTestId('replay-clock').textContent())!.split(' / ');
    await expect.poll(async () => new Set(await clock()).size, { timeout: 60_000 }).toBe(1);
    await cy.page.getByRole('button', { name: 'Play', pressed: false }).waitFor();
    const race = await raceView(code);
    const home = race.racers.map((racer) => `${race.standings!.find((standing) => standing.playerId === racer.id)!.foundations}/52 home`);
    expect(await cy.page.getByTestId('replay-home').allTextContents()).toEqual(home);
    await expect.poll(() => standingRows(cy.page).count(), SOON).toBe(3);
    await screenshot(cy.page, 'life-4-replay-end', true);
  });

  it('starts a rematch accepted by both remaining racers as a new race', async () => {
    await cy.page.goto(link);
    await standingRows(cy.page).first().waitFor();
    await bo.page.getByRole('button', { name: 'Offer a rematch' }).click();
    await bo.page.waitForURL((url) => /^\/race\/[A-Z0-9]{6}$/.test(url.pathname) && !url.pathname.endsWith(code));
    const rematch = new URL(bo.page.url()).pathname.split('/')[2]!;
    await expect.poll(() => cy.page.getByRole('list', { name: 'Answers to the rematch' }).textContent(), SOON).toMatch(/Bo: accepted[\s\S]*Dee: has not answered[\s\S]*Cy \(you\): has not answered/);
    await screenshot(cy.page, 'life-5-rematch-offered', true);
    await cy.page.getByRole('button', { name: 'Accept the rematch' }).click();
    await cy.page.waitForURL(`${server.base}/race/${rematch}`);
    await expect.poll(() => lobbyNames(bo.page).count(), SOON).toBe(2);
    await screenshot(bo.page, 'life-5-rematch-lobby');
    const [first, next] = [await raceView(code), await raceView(rematch)];
    expect(first.rematch).toMatchObject({ code: rematch, declined: [] });
    expect(first.rematch!.accepted).toHaveLength(2);
    expect(next).toMatchObject({ variant: first.variant, seats: first.seats, timeLimitSeconds: first.timeLimitSeconds, rematchOf: code, creator: { name: 'Bo' } });
    await bo.page.getByRole('button', { name: 'Start the race' }).click();
    const [boFans, cyFans] = await Promise.all(
      [bo, cy].map(async (browser) => {
        await browser.page.getByRole('region', { name: 'Your board' }).waitFor();
        return readFans(browser.page, 'Your board');
      }),
    );
    expect(cyFans).toEqual(boFans);
    expect((await raceView(rematch)).state).toBe('running');
    await screenshot(cy.page, 'life-5-rematch-running');
  });

  it('keeps each racer’s record, linked from their name', async () => {
    await bo.page.locator('header').getByRole('link', { name: 'Bo' }).click();
    await bo.page.getByRole('heading', { name: 'Your record' }).waitFor();
    // The first race is finished (resigned); the rematch is still being played and not counted yet.
    const strict = bo.page.locator('tr[data-variant="strict"]');
    await expect.poll(() => strict.locator('td').allTextContents(), SOON).toEqual(['1', '0', '0.0%', expect.stringMatching(/^\d+\.0$/), '–', '0', '0']);
    await screenshot(bo.page, 'life-6-record');
  });
});
