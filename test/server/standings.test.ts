import { describe, expect, it } from 'vitest';
import { competitionRanks, firstRankKey, rankKey, rankStandings, type Finisher } from '../../server/standings.js';

const finisher = (name: string, state: Finisher['state'], foundations: number, finishedAt: number | null): Finisher => ({
  playerId: name.charCodeAt(0),
  name,
  gameId: name.charCodeAt(0),
  state,
  foundations,
  finishedAt,
});

describe('race standings', () => {
  it('puts winners first by finish time, then the rest by cards home; losses with equal cards home tie, whenever they stopped', () => {
    const standings = rankStandings([
      finisher('Ann', 'out-of-moves', 30, 100),
      finisher('Bob', 'won', 52, 300),
      finisher('Cid', 'resigned', 30, 50),
      finisher('Dee', 'won', 52, 200),
      finisher('Eve', 'timed-out', 41, 900),
    ]);
    expect(standings.map(({ rank, name }) => [rank, name])).toEqual([
      [1, 'Dee'],
      [2, 'Bob'],
      [3, 'Eve'],
      [4, 'Ann'],
      [4, 'Cid'],
    ]);
  });

  it('ties a loss with no finish time with the losses of as many cards home, and never with a win', () => {
    const standings = rankStandings([
      finisher('Ann', 'abandoned', 25, null),
      finisher('Bob', 'resigned', 25, 4000),
      finisher('Cid', 'resigned', 26, 9000),
      finisher('Dee', 'won', 52, 9500),
      finisher('Eve', 'won', 52, 9500),
    ]);
    expect(standings.map(({ rank, name }) => [rank, name])).toEqual([
      [1, 'Dee'],
      [1, 'Eve'],
      [3, 'Cid'],
      [4, 'Ann'],
      [4, 'Bob'],
    ]);
  });

  it('gives ties the same rank and skips the next (1, 1, 3), keeping seat order', () => {
    const standings = rankStandings([
      finisher('Ann', 'timed-out', 20, 1000),
      finisher('Bob', 'resigned', 20, 400),
      finisher('Cid', 'timed-out', 12, 1000),
    ]);
    expect(standings.map(({ rank, name }) => [rank, name])).toEqual([
      [1, 'Ann'],
      [1, 'Bob'],
      [3, 'Cid'],
    ]);
  });
});

describe('the rank key', () => {
  it('orders by cards home (more first), then time (less first), a win before any loss', () => {
    const day = 86_400_000;
    expect(rankKey(52, day)).toBeLessThan(rankKey(51, 0));
    expect(rankKey(52, 1000)).toBeLessThan(rankKey(52, 1001));
    expect(rankKey(11, 10 * day)).toBeLessThan(rankKey(10, 0));
    expect(rankKey(10, 500)).toBe(rankKey(10, 500));
    expect(firstRankKey(10)).toBe(rankKey(10, 0));
    // Race finish times are epoch milliseconds: they fit below 2^53 with 0 cards home.
    const finish = Date.UTC(2026, 10, 29);
    expect(rankKey(0, finish)).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(rankKey(0, finish)).toBeLessThan(rankKey(0, finish + 1));
  });

  it('gives competition ranks (1, 2, 2, 4), also to a page that starts inside a tie', () => {
    expect(competitionRanks([3, 5, 5, 9])).toEqual([1, 2, 2, 4]);
    expect(competitionRanks([])).toEqual([]);
    // Places 3, 4, 5 of a board whose place 2 holds the same key as place 3 (rank 2).
    expect(competitionRanks([5, 5, 7], 2, 2)).toEqual([2, 2, 5]);
  });
});
