// Boards read back: parseBoard(makeBoard(p)) is p, and the plain one-fan-a-line form reads too.
import { describe, expect, it } from 'vitest';
import { VARIANT_IDS, dealLayout, makeBoard, parseBoard, Position, problemText } from '../../shared/index.js';
import { DEAD, WINNABLE, WINNING_ACTIONS, cardNamed, play, snapshot, start } from './helpers.js';

describe('parseBoard', () => {
  it.each(VARIANT_IDS)('%s: a board read back is the same position', (variant) => {
    const first = Position.start(variant, dealLayout('board', variant));
    if (!first.ok) throw new Error(problemText(first.error));
    const position = first.value.clone();
    // Play a few moves so foundations, emptied fans and cells show.
    for (let i = 0; i < 12; i++) {
      const action = position.legalActions().find((candidate) => candidate.type !== 'redeal' && candidate.type !== 'fan-to-cell') ??
        position.legalActions().find((candidate) => candidate.type === 'fan-to-cell');
      if (!action) break;
      position.play(action);
    }
    const read = parseBoard(makeBoard(position), variant);
    if (!read.ok) throw new Error(problemText(read.error));
    expect(snapshot(read.value)).toEqual(snapshot(position));
  });

  it('reads one fan per line, 10 or T, and the emptied fans of a board', () => {
    const plain = DEAD.map((fan) => fan.replaceAll('T', '10')).join('\n');
    const read = parseBoard(plain, 'strict');
    if (!read.ok) throw new Error(problemText(read.error));
    expect(snapshot(read.value)).toEqual(snapshot(start('strict', DEAD)));
    const tens = play(start('strict', WINNABLE), WINNING_ACTIONS.slice(0, 10));
    const back = parseBoard(makeBoard(tens), 'strict');
    expect(back.ok && back.value.foundations).toEqual([10, 0, 0, 0]);
  });

  it('says what is wrong with a board', () => {
    expect(parseBoard('QD 2S 8C', 'strict')).toMatchObject({ ok: false, error: { code: 'in-board', problem: { code: 'cards-missing' } } });
    expect(parseBoard(`${DEAD.join('\n')}\nAC`, 'strict')).toEqual({ ok: false, error: { code: 'in-board', problem: { code: 'card-twice', card: cardNamed('AC') } } });
    expect(parseBoard('Foundations: C-Z', 'strict')).toEqual({ ok: false, error: { code: 'in-line', line: 1, problem: { code: 'not-a-foundation', text: 'C-Z' } } });
    expect(parseBoard('QD 2S XX', 'strict')).toEqual({ ok: false, error: { code: 'in-line', line: 1, problem: { code: 'not-a-card', text: 'XX' } } });
    expect(parseBoard(['Foundations: C-A D-0 H-0 S-0', ...DEAD].join('\n'), 'strict')).toEqual({ ok: false, error: { code: 'in-board', problem: { code: 'card-home', card: cardNamed('AC') } } });
  });
});
