// The analysis of a finished race game in a real browser: the player's result beside par, the
// chart of cards home and the most still reachable with the moves that lost cards, and par's
// and the clairvoyant's lines played in the same replayer. Screenshots go to this run's screenshot folder (printed at the end of the run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealLayout, makeLayout } from '../../shared/index.js';
import type { AnalysisAnswer, CreatePlayerAnswer, RaceAnswer } from '../../contract/index.js';
import { Client } from '../support/socket-client.js';
import { Mirror, playToEnd, randomMove } from '../support/mirror.js';
import { axeViolations, openBrowser, screenshot, startServer, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let ana: Browser;

beforeAll(async () => {
  server = await startServer({ COUNTDOWN_MS: '0' });
  ana = await openBrowser({ width: 1280, height: 1000 });
});

afterAll(async () => {
  await ana?.close();
  await server?.stop();
});

async function call<T>(method: 'GET' | 'POST', path: string, token?: string, body: object = {}): Promise<T> {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: { ...(method === 'POST' && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    ...(method === 'POST' && { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The race's deal, on which the careless moves below lose cards the deal could have brought home. */
const DEAL_SEED = 'analysis-1';

/** A fixed sequence in [0, 1): the same careless moves on every run of one deal. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
}

describe('the analysis of a finished game', () => {
  let gameId = 0;
  let finalCount = 0;
  let code = '';

  it('is made once the race is finished', async () => {
    const [a, b] = [await call<CreatePlayerAnswer>('POST', '/api/players', undefined, { name: 'Ana' }), await call<CreatePlayerAnswer>('POST', '/api/players', undefined, { name: 'Bob' })];
    const { race } = await call<RaceAnswer>('POST', '/api/races', a.token, { seats: 2 });
    await call('POST', `/api/races/${race.code}/join`, b.token);
    // One known deal: on some random deals these careless moves lose no card the deal could still bring home.
    server.setRaceSeed(race.code, DEAL_SEED);
    const wsBase = server.base.replace('http', 'ws');
    const [ca, cb] = [await Client.connect(wsBase, a), await Client.connect(wsBase, b)];
    for (const client of [ca, cb]) client.send({ type: 'watch', code: race.code });
    await call('POST', `/api/races/${race.code}/start`, a.token);
    const [gameA, gameB] = [await ca.next('game'), await cb.next('game')];
    expect(gameA.deals[0]).toEqual(makeLayout(dealLayout(DEAL_SEED, 'strict')));
    const mirror = Mirror.of(gameA);
    await playToEnd(ca, mirror, randomMove(lcg(12)));
    cb.send({ type: 'resign', gameId: gameB.gameId });
    await cb.next('game-over');
    ca.close();
    cb.close();
    gameId = gameA.gameId;
    code = race.code;
    finalCount = mirror.position.foundationCount();
  });

  it('shows the result beside par, the chart and the moves that lost cards', async () => {
    const { page } = ana;
    await page.goto(`${server.base}/game/${gameId}`);
    await page.locator('[data-testid="analysis"][data-status="done"]').waitFor({ timeout: 60_000 });
    const answer = await call<AnalysisAnswer>('GET', `/api/games/${gameId}/analysis`);
    const analysis = answer.analysis!;
    await expect.poll(() => page.getByTestId('analysis-par').locator('dd').textContent()).toBe(String(analysis.par.count));
    expect(await page.getByTestId('analysis-result').locator('dd').textContent()).toContain(String(finalCount));
    expect(await page.getByTestId('analysis-first-deal').locator('dd').textContent()).toBe(String(analysis.firstDeal.max));
    const drops = analysis.points.filter((point, i) => i > 0 && point.deal === analysis.points[i - 1]!.deal && point.dealMax < analysis.points[i - 1]!.dealMax);
    expect(drops.length).toBeGreaterThan(0);
    expect(await page.locator('.chart .loss').count()).toBe(drops.length);
    // Values on both axes, and the same said to a screen reader through the chart's description.
    const moves = analysis.points.length - 1;
    expect(await page.locator('.ticks.y li').allTextContents()).toEqual(['0', '13', '26', '39', '52']);
    const steps = (await page.locator('.ticks.x li').allTextContents()).map(Number);
    expect(steps[0]).toBe(0);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(steps.at(-1)).toBeLessThanOrEqual(moves);
    expect(await page.getByRole('img', { name: 'Cards home and the most still reachable after each move' }).getAttribute('aria-describedby')).toBe('analysis-axes');
    expect(await page.locator('#analysis-axes').textContent()).toContain(`the moves from 0 to ${moves}`);
    await screenshot(page, 'analysis-chart', true);
    expect(await axeViolations(page)).toEqual([]);

    // A loss jumps the replayer to just after that move.
    await page.getByTestId('analysis-losses').getByRole('button').first().click();
    const firstDrop = analysis.points.indexOf(drops[0]!);
    await expect.poll(() => page.locator('input[type="range"]').inputValue()).toBe(String(firstDrop));
  });

  it('plays par’s line and the clairvoyant line in the same replayer', async () => {
    const { page } = ana;
    const analysis = (await call<AnalysisAnswer>('GET', `/api/games/${gameId}/analysis`)).analysis!;
    await page.getByRole('button', { name: 'Replay the clairvoyant line' }).click();
    await page.getByTestId('line-shown').waitFor();
    expect(await page.getByTestId('line-shown').textContent()).toContain('clairvoyant line');
    await page.getByRole('region', { name: 'Clairvoyant line' }).waitFor();
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('input[type="range"]').inputValue()).toBe(String(analysis.clairvoyant.line.actions.length));
    await screenshot(page, 'analysis-clairvoyant-line', true);
    await page.getByRole('button', { name: "Replay par's line" }).click();
    await page.getByRole('region', { name: "Par's line" }).waitFor();
  });

  it('puts par beside the results in the race standings', async () => {
    const { page } = ana;
    const par = (await call<AnalysisAnswer>('GET', `/api/games/${gameId}/analysis`)).analysis!.par.count!;
    await page.goto(`${server.base}/race/${code}`);
    await expect.poll(() => page.getByTestId('standings-par').textContent(), { timeout: 30_000 }).toBe(`Par ${par}`);
    const rows = await page.locator('.standings tbody tr').evaluateAll((found) => found.map((row) => [...row.children].map((cell) => cell.textContent!.trim())));
    const anaRow = rows.find((cells) => cells[1]!.startsWith('Ana'))!;
    expect(anaRow[4]).toBe(finalCount === par ? 'par' : finalCount > par ? `+${finalCount - par}` : `−${par - finalCount}`);
    await screenshot(page, 'analysis-standings', true);
  });
});
