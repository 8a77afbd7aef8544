// Ratings (server/ratings/): a rated race's standings move its racers' OpenSkill ratings exactly
// as openskill's own rate() does for those ranks (ties included), once per race whatever is
// delivered twice, after a restart for a race finished but not applied; an unrated race moves
// none. What players read of them: the race view's changes, the record, the history, the board.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { rate, rating as newRating, type Rating } from 'openskill';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RaceView } from '../../contract/index.js';
import { api, autoplay, Client, createPlayer, createRace, setSeed, startServer, type TestPlayer } from './helpers.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Each app's websocket address: a rated race is dealt only to racers who are there (a socket open). */
const sockets = new WeakMap<FastifyInstance, string>();

async function server(options: Parameters<typeof startServer>[0] = {}): Promise<FastifyInstance> {
  const { app, wsBase } = await startServer({ rateLimits: false, ...options });
  sockets.set(app, wsBase);
  cleanups.push(() => app.close());
  return app;
}

/**
 * Every race here deals this seed: homeFirst plays 30 moves on it before any redeal, and each
 * number of moves a racer plays below puts more cards home than the smaller ones of its race (a
 * random deal may end out of moves first, or leave two racers level).
 */
const SEED = 'ratings-12';

const view = async (app: FastifyInstance, code: string): Promise<RaceView> => (await api(app, 'GET', `/api/races/${code}`)).body.race;

/**
 * Races `racers` (the first creates it): each plays `moves[i]` of homeFirst's moves, then resigns.
 * Resolves once finished and, unless told otherwise for a rated race, once its rating changes are in its view.
 */
async function race(app: FastifyInstance, racers: readonly TestPlayer[], moves: readonly number[], rated: boolean, applied = rated): Promise<RaceView> {
  const { code } = await createRace(app, racers[0]!, { seats: racers.length, rated });
  setSeed(app, code, SEED);
  for (const racer of racers.slice(1)) expect((await api(app, 'POST', `/api/races/${code}/join`, racer)).status).toBe(200);
  const tabs = await Promise.all(racers.map((racer) => Client.connect(sockets.get(app)!, racer)));
  cleanups.push(() => tabs.forEach((tab) => tab.close()));
  expect((await api(app, 'POST', `/api/races/${code}/start`, racers[0]!)).status).toBe(200);
  await vi.waitFor(async () => expect((await view(app, code)).progress).toHaveLength(racers.length), { timeout: 10_000, interval: 10 });
  const { progress } = await view(app, code);
  for (const [i, racer] of racers.entries()) {
    const gameId = progress.find((row) => row.playerId === racer.id)!.gameId;
    await autoplay(app, racer, gameId, moves[i]!);
    expect(await app.games.resign(racer, gameId)).toBeUndefined();
  }
  await vi.waitFor(
    async () => {
      const race = await view(app, code);
      expect(race.state).toBe('finished');
      if (applied) expect(race.ratingChanges).not.toBeNull();
    },
    { timeout: 10_000, interval: 10 },
  );
  return view(app, code);
}

/** openskill's own answer for a race's standings, racer by racer, from the ratings they had. */
function expected(race: RaceView, before: ReadonlyMap<number, Rating>): Map<number, Rating> {
  const standings = race.standings!;
  const after = rate(
    standings.map((standing) => [before.get(standing.playerId) ?? newRating()]),
    { rank: standings.map((standing) => standing.rank) },
  );
  return new Map(standings.map((standing, i) => [standing.playerId, after[i]![0]!]));
}

async function stored(app: FastifyInstance, players: readonly TestPlayer[]): Promise<Map<number, Rating>> {
  const rows = await Promise.all(players.map(async (player) => [player.id, (await app.storage.ratings.ofPlayer(player.id)).find((row) => row.variant === 'strict')] as const));
  return new Map(rows.flatMap(([id, row]) => (row ? [[id, { mu: row.mu, sigma: row.sigma }] as const] : [])));
}

describe('ratings', () => {
  it("after each rated race, every racer's stored rating is openskill's rate() for the standings' ranks, a tie included", async () => {
    const app = await server();
    const players = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cy'), await createPlayer(app, 'Dee')];

    // Ana plays furthest; Bob and Cy resign at once with the same cards home: a tie.
    const first = await race(app, players, [30, 0, 0, 8], true);
    const ranks = new Map(first.standings!.map((standing) => [standing.playerId, standing.rank]));
    expect(ranks.get(players[1]!.id)).toBe(ranks.get(players[2]!.id));
    expect(new Set(ranks.values()).size).toBe(3);
    const afterFirst = expected(first, new Map());
    expect(await stored(app, players)).toEqual(afterFirst);
    // The tie moved Bob and Cy alike.
    expect(afterFirst.get(players[1]!.id)).toEqual(afterFirst.get(players[2]!.id));

    // A second race starts from the ratings the first left.
    const second = await race(app, [players[3]!, players[1]!], [0, 12], true);
    const afterSecond = new Map([...afterFirst, ...expected(second, afterFirst)]);
    expect(await stored(app, players)).toEqual(afterSecond);
    expect((await app.storage.ratings.ofPlayer(players[1]!.id))[0]).toMatchObject({ games: 2 });

    // The race view shows each racer's displayed rating before and after, in seat order.
    const shown = (mu: number) => Math.round(1500 + 20 * (mu - 25));
    expect(second.ratingChanges).toEqual(
      [players[3]!, players[1]!].map((player) => ({
        playerId: player.id,
        before: shown(afterFirst.get(player.id)!.mu),
        after: shown(afterSecond.get(player.id)!.mu),
        provisional: afterSecond.get(player.id)!.sigma > 7.5,
      })),
    );
    expect(second.rated).toBe(true);

    // The record carries the rating with the model's parameters; the history one point per race.
    const { body } = await api(app, 'GET', `/api/players/${players[1]!.id}/stats`);
    const bob = afterSecond.get(players[1]!.id)!;
    expect(body.stats.variants[0].rating).toEqual({ rating: shown(bob.mu), provisional: true, games: 2, mu: bob.mu, sigma: bob.sigma });
    const history = (await api(app, 'GET', `/api/players/${players[1]!.id}/ratings`)).body;
    expect(history.variants).toEqual([
      {
        variant: 'strict',
        points: [
          { race: first.code, at: first.finishedAt, before: 1500, after: shown(afterFirst.get(players[1]!.id)!.mu), provisional: true },
          { race: second.code, at: second.finishedAt, before: shown(afterFirst.get(players[1]!.id)!.mu), after: shown(bob.mu), provisional: true },
        ],
      },
    ]);
    // Nobody is settled after two races: the board is empty.
    expect((await api(app, 'GET', '/api/ratings/strict')).body.entries).toEqual([]);
    expect((await api(app, 'GET', '/api/ratings/nope')).status).toBe(400);
    expect((await api(app, 'GET', '/api/players/99999/ratings')).body.code).toBe('unknown-player');
  });

  it('applies a race once: a second race-finished, a second application and a rescan change nothing', async () => {
    const app = await server();
    const players = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
    const finished = await race(app, players, [10, 0], true);
    const ratings = await stored(app, players);
    const raceId = (await app.storage.races.byCode(finished.code))!.id;
    const changes = await app.storage.ratings.changesOfRace(raceId);
    expect(changes).toHaveLength(2);

    app.events.emit({ type: 'race-finished', raceId, code: finished.code, finishedAt: finished.finishedAt!, standings: finished.standings!, rated: true });
    expect(await app.ratings.apply(raceId)).toBe(false);
    await app.scheduler.rescan();
    // Whatever the scheduler still had to run has run.
    await vi.waitFor(() => expect(app.scheduler.has('race-rating', String(raceId))).toBe(false), { timeout: 5000, interval: 10 });
    expect(await stored(app, players)).toEqual(ratings);
    expect(await app.storage.ratings.changesOfRace(raceId)).toEqual(changes);
    expect((await app.storage.ratings.ofPlayer(players[0]!.id))[0]!.games).toBe(1);
  });

  it('moves no rating for an unrated race', async () => {
    const app = await server();
    const players = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
    const finished = await race(app, players, [10, 0], false);
    expect(finished).toMatchObject({ rated: false, ratingChanges: null });
    await app.scheduler.rescan();
    expect(await stored(app, players)).toEqual(new Map());
    expect((await api(app, 'GET', `/api/players/${players[0]!.id}/stats`)).body.stats.variants[0].rating).toBeNull();
  });

  it('applies, once restarted, a rated race stored finished whose ratings were not (the instance died in between), once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lucie-ratings-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServer({ dataDir, rateLimits: false });
    sockets.set(first.app, first.wsBase);
    const players = [await createPlayer(first.app, 'Ana'), await createPlayer(first.app, 'Bob'), await createPlayer(first.app, 'Cy')];
    // As if the instance died right after storing the standings: nothing applies the ratings here.
    first.app.scheduler.handle('race-rating', { due: () => undefined, stored: () => [] });
    const finished = await race(first.app, players, [15, 3, 0], true, false);
    const raceId = (await first.app.storage.races.byCode(finished.code))!.id;
    expect(await stored(first.app, players)).toEqual(new Map());
    expect((await first.app.storage.ratings.unapplied()).map((row) => row.id)).toEqual([raceId]);
    await first.app.close();

    const second = await startServer({ dataDir, rateLimits: false });
    cleanups.push(() => second.app.close());
    await vi.waitFor(async () => expect(await second.app.storage.ratings.changesOfRace(raceId)).toHaveLength(3), { timeout: 10_000, interval: 10 });
    expect(await stored(second.app, players)).toEqual(expected(finished, new Map()));
    await second.app.scheduler.rescan();
    expect(await second.app.storage.ratings.unapplied()).toEqual([]);
    expect(await second.app.storage.ratings.changesOfRace(raceId)).toHaveLength(3);
  });

  it('recomputes a variant as if the excluded players had never raced, the others keeping their order', async () => {
    const app = await server();
    const players = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cy')];
    const first = await race(app, players, [20, 0, 6], true);
    const second = await race(app, [players[2]!, players[0]!], [0, 9], true);
    await app.ratings.recompute('strict', new Set([players[1]!.id]));

    // Without Bob: the first race is Ana and Cy alone, in their order, then the second as it was.
    const withoutBob = (race: RaceView): RaceView => {
      const left = race.standings!.filter((standing) => standing.playerId !== players[1]!.id);
      return { ...race, standings: left.map((standing) => ({ ...standing, rank: 1 + left.filter((other) => other.rank < standing.rank).length })) };
    };
    const afterFirst = expected(withoutBob(first), new Map());
    const afterSecond = new Map([...afterFirst, ...expected(second, afterFirst)]);
    expect(await stored(app, players)).toEqual(afterSecond);
    expect(await app.storage.ratings.changesOfPlayer(players[1]!.id)).toEqual([]);
    expect((await app.storage.ratings.changesOfPlayer(players[0]!.id)).map((change) => change.code)).toEqual([first.code, second.code]);
  });

  it('rates every race again without a player an operator bans, and with them again once the ban is lifted', async () => {
    const admin = 'operator-token-for-the-ratings-suite';
    const app = await server({ adminToken: admin });
    const operator = async (url: string) => (await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${admin}` }, payload: { operator: 'eve' } })).statusCode;
    const players = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cy')];
    const first = await race(app, players, [20, 0, 6], true);
    const rated = await stored(app, players);
    // Bob raced in strict only: that variant alone is rated again (a ban rated all eight before).
    const recomputed = vi.spyOn(app.ratings, 'recompute');

    expect(await operator(`/api/operator/players/${players[1]!.id}/ban`)).toBe(200);
    const left = first.standings!.filter((standing) => standing.playerId !== players[1]!.id);
    const withoutBob = expected({ ...first, standings: left.map((standing) => ({ ...standing, rank: 1 + left.filter((other) => other.rank < standing.rank).length })) }, new Map());
    await vi.waitFor(async () => expect(await stored(app, players)).toEqual(withoutBob), { timeout: 10_000, interval: 20 });

    expect(await operator(`/api/operator/players/${players[1]!.id}/unban`)).toBe(200);
    await vi.waitFor(async () => expect(await stored(app, players)).toEqual(rated), { timeout: 10_000, interval: 20 });
    expect(recomputed.mock.calls.map(([variant]) => variant)).toEqual(['strict', 'strict']);
  });
});
