// The rating chart on a player page, in real browsers against a real server: Ana and Bob race
// four rated races (scripted over the socket, each resigning after some moves), then Bob's page
// is read on a desktop and a 390 px phone, light and dark: the chart with its title and values
// on both axes, its table of the same points, axe clean. Screenshots go to this run's folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerView, RaceView } from '../../contract/index.js';
import { Client } from '../support/socket-client.js';
import { Mirror, play } from '../support/mirror.js';
import { axeViolations, openBrowser, screenshot, startServer, useSettings, type Browser, type RunningServer } from './helpers.js';

let server: RunningServer;
let desktop: Browser;
let phone: Browser;
type Racer = PlayerView & { token: string };
let bob: Racer;

/** A rated race of two: each plays `moves[i]` of the policy's moves, then resigns. */
async function ratedRace(racers: readonly [Racer, Racer], moves: readonly [number, number]): Promise<string> {
  const { race } = await server.post<{ race: RaceView }>('/api/races', { seats: 2, rated: true }, racers[0].token);
  await server.post(`/api/races/${race.code}/join`, {}, racers[1].token);
  const sockets = await Promise.all(racers.map((racer) => Client.connect(server.base.replace('http', 'ws'), racer)));
  await server.post(`/api/races/${race.code}/start`, {}, racers[0].token);
  for (const [i, socket] of sockets.entries()) {
    const mirror = Mirror.of(await socket.next('game', (game) => game.raceCode === race.code, 10_000));
    for (let move = 0; move < moves[i]! && !mirror.position.status().over; move++) await play(socket, mirror, mirror.choose()!);
    socket.send({ type: 'resign', gameId: mirror.gameId });
    await socket.next('game-over', (over) => over.gameId === mirror.gameId);
  }
  for (const socket of sockets) socket.close();
  return race.code;
}

beforeAll(async () => {
  server = await startServer({ COUNTDOWN_MS: '0' });
  const player = async (name: string): Promise<Racer> => {
    const { player, token } = await server.post<{ player: PlayerView; token: string }>('/api/players', { name });
    return { ...player, token };
  };
  const ana = await player('Ana');
  bob = await player('Bob');
  for (const moves of [[12, 0], [0, 12], [0, 16], [10, 0]] as const) await ratedRace([ana, bob], moves);
  [desktop, phone] = await Promise.all([openBrowser({ width: 1280, height: 900 }), openBrowser({ width: 390, height: 844 }, { hasTouch: true })]);
});

afterAll(async () => {
  await Promise.all([desktop?.close(), phone?.close()]);
  await server?.stop();
});

describe("a player's rating chart", () => {
  for (const [device, width] of [['desktop', 1280], ['phone', 390]] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`shows the history on a ${device}, ${theme}: values on both axes, a title, a table of the points, axe clean`, async () => {
        const { page } = device === 'desktop' ? desktop : phone;
        await useSettings(page, server.base, { theme });
        await page.goto(`${server.base}/player/${bob.id}`);
        const chart = page.getByTestId('rating-chart');
        await chart.waitFor();
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);

        // The image is named by its title and described; its axes carry numbers.
        const image = chart.getByRole('img', { name: 'Rating in Strict' });
        expect(await image.count()).toBe(1);
        const ticks = await chart.locator('text.axis').allTextContents();
        expect(ticks.filter((tick) => /^1[0-9]{3}$/.test(tick)).length).toBeGreaterThanOrEqual(2);
        expect(ticks).toEqual(expect.arrayContaining(['0', '4']));
        expect(await chart.locator('desc').textContent()).toMatch(/^4 races: from 1500 to 1[0-9]{3}\??, between 1[0-9]{3} and 1[0-9]{3}\.$/);
        // Five dots: before the first race, then after each.
        expect(await chart.locator('circle.dot').count()).toBe(5);

        // The same points as a table: four races, each with its rating and change.
        await chart.getByText('As a table').click();
        const rows = await chart.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent!.trim())));
        expect(rows).toHaveLength(4);
        for (const row of rows) {
          expect(row[1]).toMatch(/^1[0-9]{3}\??$/);
          expect(row[2]).toMatch(/^(\+[0-9]+|−[0-9]+|±0)$/);
        }
        // The record's table shows the current rating, as the last point has it.
        expect(await page.locator('[data-field="rating"]').textContent()).toBe(rows[3]![1]);

        // Nothing wider than the window.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `rating-chart-${device}-${theme}`, true);
      });
    }
  }
});
