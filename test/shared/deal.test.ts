import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_STREAM,
  attemptSeed,
  DEAL_ALGORITHM,
  DECK,
  VARIANT_IDS,
  dealLayout,
  layoutProblem,
  makeLayout,
  rankOf,
  redealLayout,
  shuffleForDeal,
  startingCards,
  suitOf,
  type Card,
} from '../../shared/index.js';

/**
 * Golden layouts of `lucie-deal/1`. They were computed once, checked by eye (52 distinct cards,
 * 17 fans of 3 and a last of 1; 48 cards in 16 fans for trefoil) and are pinned forever: a change
 * here means every stored seed now deals differently, which needs a new algorithm name.
 */
const FIRST_LAYOUTS: Record<string, { full: string[]; trefoil: string[] }> = {
  lucie: {
    full: ['8S 4H JD', 'KD QC JC', '2C TD 2S', '4D 5D 3H', '7H 8C KC', '6H 3D AD', 'QH 2D AC', 'TC 6C KS', '6D JH 5H', 'TS AH 8D', '9H 9C TH', '3C QS 6S', '7S 8H 5S', '3S 9D 4S', '7D AS 5C', 'KH 7C JS', 'QD 9S 4C', '2H'],
    trefoil: ['8C TH 3D', '9S 2H 4C', '7H 7D 7S', 'KH 5H 4S', '9C 2S 3C', '3H TS 5C', 'TC QC JD', '8H 4H 6D', 'KS 4D QS', '6C JC JS', '7C 2C TD', 'JH 8D 5D', 'QD 3S QH', 'KD 8S 2D', '6S 5S 6H', '9H KC 9D'],
  },
  'daily-2026-11-29': {
    full: ['3H 5D 6S', '2S 2C TS', 'KS 9H KH', 'AC QD 5S', 'QC 6C 4C', '7S 3S 7D', '8C JC 9S', '2D 4D JD', 'QS JS AH', 'TD 6D AS', '3D 7H 5C', '3C KC 5H', '6H 7C 2H', '4S AD QH', '8D JH 9C', '8H KD TC', '8S 4H TH', '9D'],
    trefoil: ['8C 5S JS', '7H 3D 5D', 'JD QD TH', '4S KC 2H', '6S TC QH', 'QS 6C QC', '2D TS 7C', '8D 4H 2S', '7D 5H 3H', '8H 4D KH', '6D 4C 8S', '6H 9H 2C', 'JH 7S 5C', 'TD KS 9D', '9S JC 3S', '9C KD 3C'],
  },
  '': {
    full: ['3D AS JD', 'AC 9H 2C', 'TS 6H TH', '6D 3C JS', '2S 5C 4S', '3S KC AD', '3H QD 7C', '9D 4H JC', '6C 8D 7D', '8C 2H KS', '4C 9C QH', '5H 5S KD', 'KH 2D 6S', 'QC TD 7H', '5D 4D JH', 'TC 7S QS', 'AH 8S 8H', '9S'],
    trefoil: ['JS 7D 5C', '9D 3S TS', '2C JH 3D', '8C 2D 7H', '8D TH 3C', 'TD 2S 3H', '4H QD 8H', '4D 4C KH', '5D 7S 5H', 'TC 9C QC', '9H 7C 4S', 'QS 6D KD', 'KS 6C 6H', '2H 5S KC', 'JD JC 8S', 'QH 6S 9S'],
  },
};

/** Gathered cards after AC 2C AS went home: 49 cards. */
const GATHERED_49 = DECK.filter((card) => !(suitOf(card) === 0 && rankOf(card) < 2) && card !== 39);

describe(`the dealing algorithm ${DEAL_ALGORITHM}`, () => {
  it('keeps its versioned name', () => {
    expect(DEAL_ALGORITHM).toBe('lucie-deal/1');
  });

  for (const [seed, golden] of Object.entries(FIRST_LAYOUTS)) {
    it.each(VARIANT_IDS)(`deals the pinned first layout of seed ${JSON.stringify(seed)} in %s`, (variant) => {
      const expected = variant === 'trefoil' ? golden.trefoil : golden.full;
      expect(makeLayout(dealLayout(seed, variant))).toEqual(expected);
    });
  }

  it('pins layouts that are right: the starting cards once each, in fans of 3', () => {
    for (const golden of Object.values(FIRST_LAYOUTS)) {
      const full = golden.full.join(' ').split(' ');
      expect(new Set(full).size).toBe(52);
      expect(golden.full.map((fan) => fan.split(' ').length)).toEqual([...Array(17).fill(3), 1]);
      const trefoil = golden.trefoil.join(' ').split(' ');
      expect(new Set(trefoil).size).toBe(48);
      expect(trefoil.some((card) => card.startsWith('A'))).toBe(false);
      expect(golden.trefoil.map((fan) => fan.split(' ').length)).toEqual(Array(16).fill(3));
    }
  });

  it('deals the pinned redeal layouts (k = 1 and k = 2)', () => {
    expect(makeLayout(redealLayout('lucie', 1, DECK))).toEqual(['AH 7C JD', '2D 8H 5H', 'TD 2C 9C', 'QS KD JS', 'JH 5D KS', '9D 2H 7S', 'AC 9H 3H', '6C 4H 6H', '9S 8C 2S', 'KH 4S 7D', 'TS 3D 6D', '4D QD TH', 'QC 8S 5S', 'QH KC AD', 'JC TC 8D', '3C 5C 7H', '6S AS 4C', '3S']);
    expect(makeLayout(redealLayout('lucie', 2, DECK))).toEqual(['6D TC 2H', 'QC 2C 3C', '7S AC 9D', 'KS AS 5C', '8D KD 5H', '6S 7C 4S', 'QD QH 3H', 'TD 3D TS', '5D 9C JH', '4C JS 9S', 'JC 2D 3S', '4H AH 5S', 'AD KH 7H', '8S 8C QS', 'TH KC 6C', '7D 9H 8H', 'JD 6H 2S', '4D']);
    expect(makeLayout(redealLayout('lucie', 1, GATHERED_49))).toEqual(['5H 3S 7S', 'KD 6C TS', 'TD 3D 2D', '2S 9S 3H', '7C 5C 5D', '9H 7H 8S', '9D TC 9C', 'QH 8D 3C', 'TH QS KC', 'KH 8C AH', '6S JH 7D', '4C 4D 4H', 'JS 5S 2H', 'JD QC KS', '8H 6D 6H', 'QD JC 4S', 'AD']);
    expect(makeLayout(redealLayout('lucie', 2, GATHERED_49))).toEqual(['3D AH 9D', '8D JC 5C', 'QH QS 2S', '6H 5S 4H', 'JD 7C 9C', '6C JS 8H', '6D 8S 7H', '9H 3C 6S', '7S TS 7D', 'KC KH 4C', '4D JH 9S', 'AD TH 4S', 'TC QC 5H', 'KD 2H KS', 'TD 2D 5D', '3H 8C QD', '3S']);
    expect(makeLayout(redealLayout('daily-2026-11-29', 2, [0, 5, 17, 30, 44]))).toEqual(['6C 5D 6S', '5H AC']);
    expect(makeLayout(redealLayout('', 1, DECK))).toEqual(['TD 3C 8H', '5D JD 3D', '3H 3S 2H', 'AH 7S KS', '6D 4H AD', '8C TS 6H', '9S 8S 7D', '7H 5H 5S', '4C 6C AC', '5C 4S JH', '4D KD 9C', '9H 9D QH', 'JC TC KH', '6S 7C JS', '8D QD 2C', 'QS 2D TH', '2S KC AS', 'QC']);
  });

  it('shuffles exactly as deal.ts documents it (an independent implementation on node:crypto)', () => {
    // The documentation in deal.ts, implemented again here on node:crypto.
    const documented = (seed: string, k: number, cards: readonly Card[]): Card[] => {
      const deck = [...cards].sort((a, b) => a - b);
      const words: number[] = [];
      let block = 0;
      const next = () => {
        if (words.length === 0) {
          const digest = createHash('sha256').update(`lucie-deal/1:${k}:${block++}:${seed}`, 'utf8').digest();
          for (let i = 0; i < 32; i += 4) words.push(digest.readUInt32BE(i));
        }
        return words.shift()!;
      };
      for (let i = deck.length - 1; i > 0; i--) {
        const n = i + 1;
        let x = next();
        while (x >= n * Math.floor(2 ** 32 / n)) x = next();
        const j = x % n;
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      return deck;
    };
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(5), fc.shuffledSubarray([...DECK]), (seed, k, cards) => {
        expect(shuffleForDeal(seed, k, cards)).toEqual(documented(seed, k, cards));
      }),
      { numRuns: 150 },
    );
  });

  it('deals the starting cards of each variant once each in fans of 3, for any seed (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.constantFrom(...VARIANT_IDS), (seed, variant) => {
        const first = dealLayout(seed, variant);
        expect(layoutProblem(first, startingCards(variant))).toBeUndefined();
        expect(dealLayout(seed, variant)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('gives different seeds, and different redeals of one seed, different layouts', () => {
    const layouts = new Set<string>();
    for (const seed of ['a', 'b', 'lucie', 'Lucie', 'lucie ', 'daily-2026-11-29', 'daily-2026-11-30']) {
      layouts.add(JSON.stringify(dealLayout(seed, 'strict')));
      for (const k of [1, 2]) layouts.add(JSON.stringify(redealLayout(seed, k, DECK)));
    }
    expect(layouts.size).toBe(21);
  });

  it('redeals the same cards the same way whatever order they were gathered in (fairness, property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.integer({ min: 1, max: 3 }), fc.shuffledSubarray([...DECK], { minLength: 1 }), (seed, k, gathered) => {
        const canonical = [...gathered].sort((a, b) => a - b);
        const layout = redealLayout(seed, k, gathered);
        expect(layout).toEqual(redealLayout(seed, k, canonical));
        expect(layoutProblem(layout, canonical)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the caller\'s cards alone', () => {
    const cards = [51, 0, 25];
    shuffleForDeal('x', 1, cards);
    expect(cards).toEqual([51, 0, 25]);
  });

  it('lists the starting cards: the whole deck, less the Aces in trefoil', () => {
    expect(startingCards('strict')).toEqual([...DECK]);
    expect(startingCards('trefoil')).toEqual(DECK.filter((card) => rankOf(card) !== 0));
  });
});

describe(`per-attempt redeal streams ${ATTEMPT_STREAM}`, () => {
  it('names an attempt\'s stream as documented, and refuses what is not an attempt number', () => {
    expect(ATTEMPT_STREAM).toBe('lucie-attempt/1');
    expect(attemptSeed('lucie', 1)).toBe('lucie-attempt/1:1:lucie');
    expect(attemptSeed('daily-2026-11-29-x', 0)).toBe('lucie-attempt/1:0:daily-2026-11-29-x');
    expect(() => attemptSeed('lucie', -1)).toThrow(RangeError);
    expect(() => attemptSeed('lucie', 1.5)).toThrow('an attempt is a whole number, not 1.5');
  });

  it('deals the pinned redeal layouts of attempts 1 and 2 of one seed', () => {
    expect(makeLayout(redealLayout(attemptSeed('lucie', 1), 1, DECK))).toEqual(['3H 6S 8C', '3S TH 5D', 'JS 7D AH', '6D 4H TS', '8D JC AD', '2C KD KS', '4D 3C KC', '6C JH 9C', '9S TC 5C', '4C 2S 8S', '5H 8H 7C', '9D 9H TD', '7S AS 3D', 'AC QD QC', '2H KH QS', '5S 4S 6H', '7H 2D QH', 'JD']);
    expect(makeLayout(redealLayout(attemptSeed('lucie', 2), 1, DECK))).toEqual(['JD 2S 4H', '3H JC TD', 'QC 4S 9C', 'QD AC 5D', 'QH 7D 5C', '3D 8C 9D', 'KH 3S KD', '6H KS TC', '7H AS JS', '7S 7C 2H', 'JH 5S TS', 'AH 8D 8S', '4C 6D 2C', '4D QS 3C', '6C 2D AD', '9H KC 6S', 'TH 9S 5H', '8H']);
    expect(makeLayout(redealLayout(attemptSeed('daily-2026-11-29', 41), 2, [0, 5, 17, 30, 44]))).toEqual(['6C AC 5D', '6S 5H']);
  });

  it('gives each attempt its own redeals of the same cards, none equal to the shared seed\'s (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.nat(1000), fc.nat(1000), fc.integer({ min: 1, max: 2 }), (seed, a, b, k) => {
        fc.pre(a !== b);
        const shared = JSON.stringify(redealLayout(seed, k, DECK));
        const first = JSON.stringify(redealLayout(attemptSeed(seed, a), k, DECK));
        const second = JSON.stringify(redealLayout(attemptSeed(seed, b), k, DECK));
        expect(new Set([shared, first, second]).size).toBe(3);
      }),
      { numRuns: 100 },
    );
  });
});
