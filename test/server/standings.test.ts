import { describe, expect, it } from 'vitest';
import { rankStandings, type Finisher } from '../../server/standings.js';

const finisher = (name: string, state: Finisher['state'], foundations: number, finishedAt: number | null): Finisher => ({
  playerId: name.charCodeAt(0),
  name,
  gameId: name.charCodeAt(0),
  state,
  foundations,
  finishedAt,
});

describe('race standings', () => {
  it('puts winners first by finish time, then the rest by cards home, then finish time', () => {
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
      [4, 'Cid'],
      [5, 'Ann'],
    ]);
  });

  it('gives exact ties the same rank and skips the next (1, 1, 3), keeping seat order', () => {
    const standings = rankStandings([
      finisher('Ann', 'timed-out', 20, 1000),
      finisher('Bob', 'timed-out', 20, 1000),
      finisher('Cid', 'timed-out', 12, 1000),
    ]);
    expect(standings.map(({ rank, name }) => [rank, name])).toEqual([
      [1, 'Ann'],
      [1, 'Bob'],
      [3, 'Cid'],
    ]);
  });
});
