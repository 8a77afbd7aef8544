import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeAction, parseAction, type Action } from '../../shared/index.js';

const notAnAction = (text: string) => ({
  ok: false,
  error: { code: 'not-an-action', text },
});

describe('actions in record notation', () => {
  it.each<[string, Action]>([
    ['3>F', { type: 'fan-to-foundation', from: 2 }],
    ['18>F', { type: 'fan-to-foundation', from: 17 }],
    ['3>9', { type: 'fan-to-fan', from: 2, to: 8 }],
    ['10>1', { type: 'fan-to-fan', from: 9, to: 0 }],
    ['123>456', { type: 'fan-to-fan', from: 122, to: 455 }],
    ['3>C1', { type: 'fan-to-cell', from: 2, cell: 0 }],
    ['17>C4', { type: 'fan-to-cell', from: 16, cell: 3 }],
    ['C1>4', { type: 'cell-to-fan', cell: 0, to: 3 }],
    ['C4>18', { type: 'cell-to-fan', cell: 3, to: 17 }],
    ['C2>F', { type: 'cell-to-foundation', cell: 1 }],
    ['R', { type: 'redeal' }],
    ['M QD>4', { type: 'merci', card: 24, to: 3 }],
    ['M QD>F', { type: 'merci', card: 24, to: null }],
    ['M TC>12', { type: 'merci', card: 9, to: 11 }],
  ])('reads %s with 0-based fans and cells, and writes it back', (text, action) => {
    expect(parseAction(text)).toEqual({ ok: true, value: action });
    expect(makeAction(action)).toBe(text);
  });

  it.each<[string, string]>([
    ['M 10c>4', 'M TC>4'],
    ['M q♦>F', 'M QD>F'],
    ['M Q♦>18', 'M QD>18'],
    ['M as>1', 'M AS>1'],
  ])('reads the card inside a merci leniently (%s), and writes it canonically', (text, canonical) => {
    const action = parseAction(text);
    expect(action.ok && makeAction(action.value)).toBe(canonical);
  });

  it.each([
    '', ' ', 'r', 'R ', ' R', 'RR', 'R\n',
    '1>f', '1>F ', ' 1>F', '1 > F', '1 >F', '1> F', '1>F\n', '1>FF', '1>>F', '>F', '1>', '1', 'F', 'F>1', 'F>F',
    '01>F', '0>F', '1>0', '1>01', '00>F', '+1>F', '-1>F', '1.0>F', '1e1>F', '0x1>F', '１>F', '1>２', '1,2',
    '1-2', '1>2>3', '1=>F', '1->F',
    '1>c1', 'c1>F', 'C1>f', '1>C0', '1>C5', '1>C01', '1>C10', 'C0>F', 'C5>1', 'C01>F', 'C>F', 'C1>C2', 'C1>C1', '1>C', 'C1 >F', 'C1',
    'M QD>C1', 'M QD', 'M QD>', 'M QD>f', 'M QD>0', 'M QD>03', 'M QD >3', 'M  QD>3', 'M QD> 3', 'MQD>3', 'm QD>3',
    'M XX>3', 'M 1D>F', 'M Q>D>3', 'M >F', 'M QD>3 ', ' M QD>3', 'M QDQD>3', 'M QD QS>3',
  ])('refuses %j: actions are read exactly as the grammar writes them', (text) => {
    expect(parseAction(text)).toEqual(notAnAction(text));
  });

  it('reads huge fan numbers as fans that do not exist, never as small ones', () => {
    const action = parseAction('99999999999999999999>F');
    expect(action.ok && action.value.type === 'fan-to-foundation' && action.value.from).toBeGreaterThan(1e18);
  });

  it('reads what it writes, for every kind of action (property)', () => {
    const fan = fc.integer({ min: 0, max: 200 });
    const cell = fc.integer({ min: 0, max: 3 });
    const action: fc.Arbitrary<Action> = fc.oneof(
      fan.map((from) => ({ type: 'fan-to-foundation', from }) as const),
      fc.tuple(fan, fan).map(([from, to]) => ({ type: 'fan-to-fan', from, to }) as const),
      fc.tuple(fan, cell).map(([from, cell]) => ({ type: 'fan-to-cell', from, cell }) as const),
      fc.tuple(cell, fan).map(([cell, to]) => ({ type: 'cell-to-fan', cell, to }) as const),
      cell.map((cell) => ({ type: 'cell-to-foundation', cell }) as const),
      fc.constant({ type: 'redeal' } as const),
      fc.tuple(fc.integer({ min: 0, max: 51 }), fc.option(fan, { nil: null })).map(([card, to]) => ({ type: 'merci', card, to }) as const),
    );
    fc.assert(
      fc.property(action, (value) => {
        const text = makeAction(value);
        expect(parseAction(text)).toEqual({ ok: true, value });
        expect(makeAction((parseAction(text) as { value: Action }).value)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('reads nothing but the grammar from arbitrary text (property)', () => {
    const grammar = /^(?:R|([1-9]\d*|C[1-4])>(F|[1-9]\d*|C[1-4])|M \S+>(F|[1-9]\d*))$/;
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789>FRCMcfr QD♦ -'), maxLength: 8 }), (text) => {
        const action = parseAction(text);
        if (action.ok) {
          expect(text).toMatch(grammar);
          if (!text.startsWith('M ')) expect(makeAction(action.value)).toBe(text);
        } else {
          const match = grammar.exec(text);
          // Only these forms of the grammar are refused: a cell-to-cell move, or a merci with a bad card.
          if (match) expect(/^C[1-4]>C[1-4]$/.test(text) || text.startsWith('M ')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
