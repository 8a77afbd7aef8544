// Fair play: accuracy (moves that kept the deal's best reachable count) and move times, from a
// game's analysis curve and its stored move times; pinned on a known deal through the real
// analysis worker; shown in the analysis answer and the player's stats.
import { afterEach, describe, expect, it } from 'vitest';
import { accuracyOf, fairPlayOf, moveTimesOf } from '../../server/fair-play.js';
import { api, autoplay, Client, createPlayer, createRace, ManualClock, settledAnalysis, setSeed, startServer, type TestServer } from './helpers.js';

const point = (deal: number, dealMax: number, exact = true) => ({ deal, dealMax, exact });

describe('accuracy', () => {
  it('counts the moves judged within a deal with exact counts, and those that kept the best', () => {
    const curve = [point(0, 30), point(0, 30), point(0, 28), point(0, 28), point(1, 40), point(1, 40, false), point(1, 39), point(1, 39)];
    // Judged: 0→1 kept, 1→2 lost, 2→3 kept, (3→4 a redeal), (4→5, 5→6 inexact), 6→7 kept.
    expect(accuracyOf(curve)).toEqual({ judged: 4, kept: 3, accuracy: 0.75 });
    expect(accuracyOf([point(0, 24)])).toEqual({ judged: 0, kept: 0, accuracy: null });
  });

  it('sums move times up by their median and median absolute deviation, from the second action on', () => {
    expect(moveTimesOf([1000, 1500, 2500, 3000, 3600, 13_600])).toEqual({ medianMs: 600, spreadMs: 100 });
    expect(moveTimesOf([1000, 1400, 2000])).toEqual({ medianMs: 500, spreadMs: 100 });
    expect(moveTimesOf([1000])).toEqual({ medianMs: null, spreadMs: null });
    expect(fairPlayOf([point(0, 5), point(0, 5)], [0, 250])).toEqual({ judged: 1, kept: 1, accuracy: 1, medianMs: 250, spreadMs: 0 });
  });
});

let server: TestServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server?.app.close();
  server = undefined;
});

describe('a race game once analysed', () => {
  it('gets its accuracy (pinned on seed s0) and move times, in its analysis answer and its player’s stats', async () => {
    const clock = new ManualClock();
    server = await startServer({ clock });
    const { app, wsBase } = server;
    const [ana, bob] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
    const race = await createRace(app, ana, { seats: 2 });
    setSeed(app, race.code, 's0');
    await api(app, 'POST', `/api/races/${race.code}/join`, bob);
    const [a, b] = [await Client.connect(wsBase, ana), await Client.connect(wsBase, bob)];
    clients.push(a, b);
    await api(app, 'POST', `/api/races/${race.code}/start`, ana);
    clock.advance(0);
    const [gameA, gameB] = [await a.next('game'), await b.next('game')];
    // Ana's moves 400, 400, 1000, 400, 400, 400, 400 ms apart.
    for (const gap of [0, 400, 400, 1000, 400, 400, 400, 400]) {
      clock.jump(gap);
      await autoplay(app, ana, gameA.gameId, 1);
    }
    for (const [client, game] of [[a, gameA], [b, gameB]] as const) {
      client.send({ type: 'resign', gameId: game.gameId });
      await client.next('game-over');
    }
    const answer = await settledAnalysis(app, gameA.gameId);
    // The curve on s0 along the helpers' strategy: all 8 moves judged (exact, one deal), one of them lowered the deal's best.
    const { judged, kept } = accuracyOf(answer.analysis!.points);
    expect([judged, kept]).toEqual([8, 7]);
    expect(answer.fairPlay).toEqual({ judged: 8, kept: 7, accuracy: 7 / 8, medianMs: 400, spreadMs: 0 });
    const stats = (await api(app, 'GET', `/api/players/${ana.id}/stats`)).body.stats;
    expect(stats.fairPlay).toEqual({ games: 1, accuracy: 7 / 8, medianMs: 400 });
  });
});
