// Positions as Freecell Solver / PySolFC boards.
import { describe, expect, it } from 'vitest';
import { makeBoard } from '../../shared/index.js';
import { DEAD, DEAD_TREFOIL, WINNABLE, WINNING_ACTIONS, play, start, swap } from './helpers.js';

const fanLines = (fans: readonly string[]) => fans.map((fan) => (fan === '' ? ':' : `: ${fan}`));

describe('makeBoard', () => {
  it('writes a Foundations line, then one line per fan, bottom card first', () => {
    expect(makeBoard(start('strict', DEAD))).toBe(['Foundations: C-0 D-0 H-0 S-0', ...fanLines(DEAD), ''].join('\n'));
  });

  it('writes each foundation\'s top rank, and a lone colon for an emptied fan', () => {
    const worked = play(start('strict', swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H'])), ['2>F', '4>9', '4>F', '4>2']);
    const lines = makeBoard(worked).split('\n');
    expect(lines[0]).toBe('Foundations: C-0 D-0 H-0 S-2');
    expect(lines.slice(1, 5)).toEqual([': AC AD KC', ': AH KD QD', ': 2C 2D KH', ':']);
    expect(lines[9]).toBe(': 6C 6D 9C 8C');
    expect(lines).toHaveLength(1 + 18 + 1);
    const tens = play(start('strict', WINNABLE), WINNING_ACTIONS.slice(0, 10));
    expect(makeBoard(tens).split('\n')[0]).toBe('Foundations: C-T D-0 H-0 S-0');
    const won = play(start('strict', WINNABLE), WINNING_ACTIONS);
    expect(makeBoard(won)).toBe(['Foundations: C-K D-K H-K S-K', ...Array(18).fill(':'), ''].join('\n'));
  });

  it('starts trefoil with the Aces home', () => {
    expect(makeBoard(start('trefoil', DEAD_TREFOIL))).toBe(['Foundations: C-A D-A H-A S-A', ...fanLines(DEAD_TREFOIL), ''].join('\n'));
  });

  it('adds a Freecells line in fan-reserve, - for an empty cell', () => {
    expect(makeBoard(start('fan-reserve', DEAD)).split('\n').slice(0, 3)).toEqual([
      'Foundations: C-0 D-0 H-0 S-0',
      'Freecells: - - - -',
      ': AC AD KC',
    ]);
    const cells = play(start('fan-reserve', DEAD), ['1>C2', '18>C4']);
    expect(makeBoard(cells).split('\n').slice(0, 3)).toEqual(['Foundations: C-0 D-0 H-0 S-0', 'Freecells: - KC - 5D', ': AC AD']);
    expect(makeBoard(cells).split('\n')[19]).toBe(':');
  });
});
