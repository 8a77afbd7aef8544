// fan-reserve: 4 reserve cells of one card each; any top card to an empty cell; a cell's card to
// its foundation or onto a fan by the building rule; no cell-to-cell; a redeal gathers the cells.
import { describe, expect, it } from 'vitest';
import { makeBoard, parseAction } from '../../shared/index.js';
import { DEAD, changedFans, fansOf, legal, play, start, swap, why, cardNamed } from './helpers.js';

describe('fan-reserve', () => {
  it('starts with 4 empty cells; any top card may go to any empty cell', () => {
    const dealt = start('fan-reserve', DEAD);
    expect(dealt.cells).toEqual([null, null, null, null]);
    const actions = legal(dealt);
    expect(actions).toHaveLength(18 * 4 + 1);
    expect(actions.slice(0, 5)).toEqual(['1>C1', '1>C2', '1>C3', '1>C4', '2>C1']);
    expect(actions.at(-1)).toBe('R');
    const moved = play(dealt, ['1>C1']);
    expect(changedFans(dealt, moved)).toEqual({ 1: 'AC AD' });
    expect(makeBoard(moved).split('\n')[1]).toBe('Freecells: KC - - -');
    // AD is now on top of fan 1 and may go home.
    expect(legal(moved).slice(0, 4)).toEqual(['1>F', '1>C2', '1>C3', '1>C4']);
    expect(legal(moved)).toHaveLength(1 + 18 * 3 + 1);
  });

  it('holds one card per cell', () => {
    const moved = play(start('fan-reserve', DEAD), ['1>C1']);
    expect(why(moved, '2>C1')).toEqual({ code: 'cell-full', cell: 1, card: cardNamed('KC') });
    expect(why(moved, '2>C2')).toBeUndefined();
    expect(why(moved, 'C2>F')).toEqual({ code: 'cell-empty', cell: 2 });
    expect(why(moved, 'C2>1')).toEqual({ code: 'cell-empty', cell: 2 });
    expect(moved.problem({ type: 'fan-to-cell', from: 0, cell: 4 })).toEqual({ code: 'no-such-cell', cell: 5 });
    expect(moved.problem({ type: 'cell-to-foundation', cell: -1 })).toEqual({ code: 'no-such-cell', cell: 0 });
  });

  it('plays a cell\'s card to its foundation', () => {
    const position = play(start('fan-reserve', DEAD), ['1>C1', '1>C2']);
    expect(position.cells.map((card) => card !== null)).toEqual([true, true, false, false]);
    expect(why(position, 'C1>F')).toEqual({ code: 'foundation-starts', card: cardNamed('KC'), needed: cardNamed('AC') });
    const home = play(position, ['C2>F']);
    expect(home.foundations).toEqual([0, 1, 0, 0]);
    expect(home.cells[1]).toBeNull();
    expect(legal(home)).toContain('1>F');
  });

  it('plays a cell\'s card onto a fan by the building rule, never onto an empty fan', () => {
    // QC on top of fan 15 goes to a cell, then onto KC.
    const dealt = start('fan-reserve', swap(DEAD, ['QC', '7H']));
    const inCell = play(dealt, ['15>C3']);
    expect(why(inCell, 'C3>2')).toEqual({ code: 'cannot-build', card: cardNamed('QC'), target: cardNamed('KD'), rule: 'same-suit-down' });
    const built = play(inCell, ['C3>1']);
    expect(changedFans(dealt, built)).toEqual({ 1: 'AC AD KC QC', 15: '7H QD' });
    expect(built.cells).toEqual([null, null, null, null]);
    const emptied = play(start('fan-reserve', DEAD), ['18>C1']);
    expect(fansOf(emptied)[17]).toBe('');
    expect(why(emptied, 'C1>18')).toEqual({ code: 'empty-fan-stays-empty', fan: 18 });
  });

  it('has no cell-to-cell action', () => {
    expect(parseAction('C1>C2').ok).toBe(false);
    const position = play(start('fan-reserve', DEAD), ['1>C1']);
    expect(legal(position).filter((text) => text.startsWith('C1>'))).toEqual([]);
  });

  it('gathers the cells\' cards in a redeal', () => {
    const position = play(start('fan-reserve', DEAD), ['1>C1', '2>C4']);
    expect(position.gatheredCards()).toHaveLength(52);
    expect(why(position, 'R', DEAD.slice(0, 17))).toEqual({ code: 'redeal-layout', redeal: 1, problem: { code: 'cards-missing', cards: [cardNamed('5D')] } });
    const redealt = play(position, ['R'], [DEAD]);
    expect(redealt.cells).toEqual([null, null, null, null]);
    expect(fansOf(redealt)).toEqual(DEAD);
  });

  it('can cycle: a card to a cell and back onto the card it came from', () => {
    const dealt = start('fan-reserve', swap(DEAD, ['QC', '7H']));
    const built = play(dealt, ['15>1']);
    const back = play(built, ['1>C1', 'C1>1']);
    expect(fansOf(back)).toEqual(fansOf(built));
  });

  it('is over only when no card can move, with every cell full', () => {
    const dead = play(start('fan-reserve', DEAD), ['R', 'R'], [DEAD, DEAD]);
    expect(dead.status().over).toBe(false);
    // JC JD 5C 5D go to the cells: 3D 3S 5S come to the top, fan 18 empties, and nothing fits anywhere.
    const full = play(dead, ['5>C1', '6>C2', '17>C3', '18>C4']);
    expect(legal(full)).toEqual([]);
    expect(full.status()).toEqual({ foundations: 0, won: false, over: true, redealsUsed: 2, redealsLeft: 0, merciUsed: false });
  });
});
