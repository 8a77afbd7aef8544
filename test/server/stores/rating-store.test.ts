// RatingStore's contract, on SQLite and on PostgreSQL: a finished rated race is applied once, with
// each ranked racer's rating and change; the leaderboard's filters; a variant replaced whole.
import { describe, expect, it } from 'vitest';
import type { RankedRacer, RatingStep, Storage } from '../../../server/stores.js';
import { addPlayer, addRace, DATABASES, storageFor } from './databases.js';

/** A rated race of `players` (seated in order), finished at `finishedAt` with `ranks`. */
async function finishedRace(s: Storage, players: readonly { id: number }[], ranks: readonly number[], finishedAt: number, rated = true, variant: 'strict' | 'merci' = 'strict') {
  const { id } = await addRace(s, players[0]!.id, { rated, variant, state: 'running' });
  for (const [i, player] of players.entries()) if (i > 0) await s.races.seat(id, player.id, i + 1, 6);
  expect(await s.races.finish(id, players.map((player, i) => ({ playerId: player.id, rank: ranks[i]! })), finishedAt)).toBe(true);
  return id;
}

/** A model that adds 10 per place ahead of last, and takes 1 off sigma, from mu 25 sigma 8. */
function plainModel(seen: RankedRacer[][]) {
  return (racers: readonly RankedRacer[]): RatingStep[] => {
    seen.push([...racers]);
    const last = Math.max(...racers.map((racer) => racer.rank));
    return racers.map(({ rank, before }) => {
      const was = before ?? { mu: 25, sigma: 8 };
      return { before: { mu: was.mu, sigma: was.sigma }, after: { mu: was.mu + 10 * (last - rank), sigma: was.sigma - 1 } };
    });
  };
}

describe.each(DATABASES)('RatingStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('applies a finished rated race once: its racers in seat order with their ranks and ratings, the change of each, and lists it unapplied until then', async () => {
    const s = storage();
    const [ana, bo, cy] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    const first = await finishedRace(s, [ana, bo, cy], [2, 1, 2], 1000);
    const unrated = await finishedRace(s, [ana, bo], [1, 2], 1500, false);
    const second = await finishedRace(s, [cy, ana], [1, 2], 2000);
    expect((await s.ratings.unapplied()).filter((race) => [first, second, unrated].includes(race.id))).toEqual([
      { id: first, finishedAt: 1000 },
      { id: second, finishedAt: 2000 },
    ]);

    const seen: RankedRacer[][] = [];
    expect(await s.ratings.apply(first, 1100, plainModel(seen))).toBe(true);
    expect(seen).toEqual([
      [
        { playerId: ana.id, rank: 2, before: undefined },
        { playerId: bo.id, rank: 1, before: undefined },
        { playerId: cy.id, rank: 2, before: undefined },
      ],
    ]);
    // Again, or an unrated race: nothing is asked of the model, nothing changes.
    expect(await s.ratings.apply(first, 1200, plainModel(seen))).toBe(false);
    expect(await s.ratings.apply(unrated, 1200, plainModel(seen))).toBe(false);
    expect(seen).toHaveLength(1);
    expect((await s.ratings.unapplied()).map((race) => race.id)).not.toContain(first);

    expect(await s.ratings.apply(second, 2100, plainModel(seen))).toBe(true);
    expect(seen[1]).toEqual([
      { playerId: cy.id, rank: 1, before: { playerId: cy.id, variant: 'strict', mu: 25, sigma: 7, games: 1, updatedAt: 1000 } },
      { playerId: ana.id, rank: 2, before: { playerId: ana.id, variant: 'strict', mu: 25, sigma: 7, games: 1, updatedAt: 1000 } },
    ]);
    expect(await s.ratings.ofPlayer(ana.id)).toEqual([{ playerId: ana.id, variant: 'strict', mu: 25, sigma: 6, games: 2, updatedAt: 2000 }]);
    expect(await s.ratings.ofPlayer(cy.id)).toEqual([{ playerId: cy.id, variant: 'strict', mu: 35, sigma: 6, games: 2, updatedAt: 2000 }]);
    expect(await s.ratings.changesOfRace(first)).toEqual([
      { raceId: first, playerId: ana.id, variant: 'strict', muBefore: 25, sigmaBefore: 8, muAfter: 25, sigmaAfter: 7, at: 1000 },
      { raceId: first, playerId: bo.id, variant: 'strict', muBefore: 25, sigmaBefore: 8, muAfter: 35, sigmaAfter: 7, at: 1000 },
      { raceId: first, playerId: cy.id, variant: 'strict', muBefore: 25, sigmaBefore: 8, muAfter: 25, sigmaAfter: 7, at: 1000 },
    ]);
    expect((await s.ratings.changesOfPlayer(cy.id)).map((change) => [change.raceId, change.muAfter, typeof change.code])).toEqual([
      [first, 25, 'string'],
      [second, 35, 'string'],
    ]);
    expect(await s.ratings.appliedRaces('strict')).toEqual([
      { raceId: first, finishedAt: 1000, playerId: ana.id, rank: 2 },
      { raceId: first, finishedAt: 1000, playerId: bo.id, rank: 1 },
      { raceId: first, finishedAt: 1000, playerId: cy.id, rank: 2 },
      { raceId: second, finishedAt: 2000, playerId: cy.id, rank: 1 },
      { raceId: second, finishedAt: 2000, playerId: ana.id, rank: 2 },
    ]);
  });

  it('answers the leaderboard: one variant, sigma at most the bound, active since the day given, best mu first', async () => {
    const s = storage();
    const [a, b, c, d] = [await addPlayer(s, 'A'), await addPlayer(s, 'B'), await addPlayer(s, 'C'), await addPlayer(s, 'D')];
    const row = (playerId: number, mu: number, sigma: number, updatedAt: number) => ({ playerId, variant: 'merci' as const, mu, sigma, games: 9, updatedAt });
    await s.ratings.replace('merci', [row(a.id, 30, 5, 5000), row(b.id, 40, 5, 5000), row(c.id, 50, 8, 5000), row(d.id, 45, 5, 100)], []);
    expect((await s.ratings.board('merci', 1000, 7.5, 10)).map((entry) => [entry.name, entry.mu])).toEqual([
      ['B', 40],
      ['A', 30],
    ]);
    expect(await s.ratings.board('merci', 1000, 7.5, 1)).toHaveLength(1);
    expect(await s.ratings.board('strict', 0, 7.5, 10)).toEqual(expect.not.arrayContaining([expect.objectContaining({ variant: 'merci' })]));
  });

  it('replaces a variant whole, leaving the other variants alone', async () => {
    const s = storage();
    const [ana, bo] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo')];
    const strictRace = await finishedRace(s, [ana, bo], [1, 2], 3000);
    const merciRace = await finishedRace(s, [ana, bo], [2, 1], 3000, true, 'merci');
    await s.ratings.apply(strictRace, 3000, plainModel([]));
    await s.ratings.apply(merciRace, 3000, plainModel([]));
    const rating = { playerId: bo.id, variant: 'strict' as const, mu: 20, sigma: 8, games: 1, updatedAt: 3000 };
    const change = { raceId: strictRace, playerId: bo.id, variant: 'strict' as const, muBefore: 25, sigmaBefore: 8, muAfter: 20, sigmaAfter: 8, at: 3000 };
    await s.ratings.replace('strict', [rating], [change]);
    expect(await s.ratings.ofPlayer(ana.id)).toEqual([expect.objectContaining({ variant: 'merci' })]);
    expect(await s.ratings.ofPlayer(bo.id)).toEqual([expect.objectContaining({ variant: 'merci', mu: 35 }), rating]);
    expect(await s.ratings.changesOfRace(strictRace)).toEqual([change]);
    expect(await s.ratings.changesOfRace(merciRace)).toHaveLength(2);
  });

  it('names the variants of the applied races a player was ranked in, even once a recomputation took their changes out', async () => {
    const s = storage();
    const [ana, bo, cy] = [await addPlayer(s, 'Ana'), await addPlayer(s, 'Bo'), await addPlayer(s, 'Cy')];
    const merciRace = await finishedRace(s, [ana, bo], [1, 2], 4000, true, 'merci');
    const strictRace = await finishedRace(s, [bo, cy], [1, 2], 4000);
    await finishedRace(s, [ana, cy], [1, 2], 4000, false); // unrated: never applied
    await s.ratings.apply(merciRace, 4000, plainModel([]));
    await s.ratings.apply(strictRace, 4000, plainModel([]));
    await finishedRace(s, [ana, cy], [2, 1], 4500, true, 'merci'); // rated, not applied yet
    expect(await s.ratings.variantsRacedBy(ana.id)).toEqual(['merci']);
    expect(await s.ratings.variantsRacedBy(bo.id)).toEqual(['merci', 'strict']);
    expect(await s.ratings.variantsRacedBy(cy.id)).toEqual(['strict']);
    // Bo rated out of strict (a ban): the race still names them.
    await s.ratings.replace('strict', [], []);
    expect(await s.ratings.variantsRacedBy(bo.id)).toEqual(['merci', 'strict']);
  });
});
