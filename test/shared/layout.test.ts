import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECK, dealFans, layoutProblem, makeCard, makeFan, makeLayout, parseFan, parseLayout, rankOf } from '../../shared/index.js';
import { DEAD, layout, cardNamed } from './helpers.js';

const sizes = (fans: readonly (readonly number[])[]) => fans.map((fan) => fan.length);

describe('dealing into fans', () => {
  it('deals card i to fan floor(i/3)+1, bottom to top, the remainder forming a shorter last fan', () => {
    const fans = dealFans(DECK);
    expect(sizes(fans)).toEqual([...Array(17).fill(3), 1]);
    expect(makeLayout(fans).slice(0, 2)).toEqual(['AC 2C 3C', '4C 5C 6C']);
    expect(makeLayout(fans)[17]).toBe('KS');
    expect(sizes(dealFans(DECK.slice(0, 48)))).toEqual(Array(16).fill(3));
    expect(sizes(dealFans(DECK.slice(0, 50)))).toEqual([...Array(16).fill(3), 2]);
    expect(sizes(dealFans(DECK.slice(0, 2)))).toEqual([2]);
    expect(dealFans([])).toEqual([]);
  });
});

describe('reading and writing layouts', () => {
  it('reads fans bottom card first, cards separated by single spaces, leniently spelled', () => {
    expect(parseFan('QD 2S 8C')).toEqual({ ok: true, value: [24, 40, 7] });
    expect(parseFan('q♦ 2s 8♣')).toEqual({ ok: true, value: [24, 40, 7] });
    expect(parseFan('10c')).toEqual({ ok: true, value: [9] });
    expect(makeFan([24, 40, 7])).toBe('QD 2S 8C');
    expect(makeLayout([[9, 22], [], [51]])).toEqual(['TC TD', '', 'KS']);
  });

  it('reads an empty fan string as an empty fan, judged later as a fan size', () => {
    expect(parseFan('')).toEqual({ ok: true, value: [] });
    expect(parseLayout(['AC', ''])).toEqual({ ok: true, value: [[0], []] });
  });

  it.each([
    ['QD  2S', { code: 'in-fan', fan: 2, problem: { code: 'card-spacing', text: 'QD  2S' } }],
    [' QD', { code: 'in-fan', fan: 2, problem: { code: 'card-spacing', text: ' QD' } }],
    ['QD ', { code: 'in-fan', fan: 2, problem: { code: 'card-spacing', text: 'QD ' } }],
    [' ', { code: 'in-fan', fan: 2, problem: { code: 'card-spacing', text: ' ' } }],
    ['QD\t2S', { code: 'in-fan', fan: 2, problem: { code: 'not-a-card', text: 'QD\t2S' } }],
    ['QD,2S', { code: 'in-fan', fan: 2, problem: { code: 'not-a-card', text: 'QD,2S' } }],
    ['QD 1S', { code: 'in-fan', fan: 2, problem: { code: 'not-a-card', text: '1S' } }],
  ])('rejects the fan %j naming the fan and the text', (fan, error) => {
    expect(parseLayout(['AC 2C', fan])).toEqual({ ok: false, error });
  });

  it('writes what it reads (property)', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...DECK]), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 60 }), (cards, cuts) => {
        // Any grouping of distinct cards, including empty fans.
        const fans: number[][] = [];
        let i = 0;
        for (const cut of cuts) {
          fans.push(cards.slice(i, i + cut));
          i += cut;
        }
        fans.push(cards.slice(i));
        expect(parseLayout(makeLayout(fans))).toEqual({ ok: true, value: fans });
      }),
    );
  });
});

describe('layoutProblem', () => {
  const all = [...DECK];
  it('accepts the 52 cards in 17 fans of 3 and a last fan of 1', () => {
    expect(layoutProblem(layout(DEAD), all)).toBeUndefined();
    expect(layoutProblem(dealFans(DECK.filter((card) => rankOf(card) !== 0)), DECK.filter((card) => rankOf(card) !== 0))).toBeUndefined();
  });

  it('names a card that appears twice', () => {
    expect(layoutProblem(layout([...DEAD.slice(0, 17), '5C']), all)).toEqual({ code: 'card-twice', card: cardNamed('5C') });
  });

  it('names a card that should not be there', () => {
    const gathered = all.filter((card) => card !== 51);
    expect(layoutProblem(dealFans(all), gathered)).toEqual({ code: 'card-not-dealt', card: cardNamed('KS') });
  });

  it('names every missing card', () => {
    expect(layoutProblem(layout(DEAD.slice(0, 17)), all)).toEqual({ code: 'cards-missing', cards: [cardNamed('5D')] });
    expect(layoutProblem(layout(DEAD.slice(2)), all)).toEqual({ code: 'cards-missing', cards: [cardNamed('AC'), cardNamed('KC'), cardNamed('AD'), cardNamed('KD'), cardNamed('AH'), cardNamed('AS')] });
  });

  it('rejects the wrong number of fans', () => {
    const pairs = Array.from({ length: 26 }, (_, i) => `${makeCard(2 * i)} ${makeCard(2 * i + 1)}`);
    expect(layoutProblem(layout(pairs), all)).toEqual({ code: 'fan-size', fan: 1, size: 2, expected: 3 });
    expect(layoutProblem(layout([...DEAD, '']), all)).toEqual({ code: 'extra-fan', fan: 19, size: 0, total: 52, fans: 18 });
  });

  it('rejects a fan of the wrong size, also a short fan that is not last', () => {
    expect(layoutProblem(layout(['5D', ...DEAD.slice(0, 17)]), all)).toEqual(
      { code: 'fan-size', fan: 1, size: 1, expected: 3 },
    );
    expect(layoutProblem(layout(['AC AD KC 5D', ...DEAD.slice(1, 17), '']), all)).toEqual(
      { code: 'fan-size', fan: 1, size: 4, expected: 3 },
    );
    expect(layoutProblem(layout([...DEAD.slice(0, 16), '5H 5S', '5C 5D']), all)).toEqual(
      { code: 'fan-size', fan: 17, size: 2, expected: 3 },
    );
    // 50 cards: 16 fans of 3 and a last of 2, never 1 and 1.
    const fifty = all.slice(0, 50);
    expect(layoutProblem(dealFans(fifty), fifty)).toBeUndefined();
    const split = [...dealFans(fifty).slice(0, 16), [48], [49]];
    expect(layoutProblem(split, fifty)).toEqual({ code: 'fan-size', fan: 17, size: 1, expected: 2 });
  });
});
