import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_COUNT,
  DECK,
  KING,
  cardLabel,
  cardName,
  cardOf,
  isRed,
  makeCard,
  parseCard,
  rankOf,
  suitOf,
} from '../../shared/index.js';

const CANONICAL =
  'AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ' +
  'AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS';

describe('cards', () => {
  it('numbers the 52 cards in canonical order: suits C D H S, then ranks A..K', () => {
    expect(DECK.map(makeCard).join(' ')).toBe(CANONICAL);
    expect(CARD_COUNT).toBe(52);
    expect([suitOf(0), rankOf(0), suitOf(51), rankOf(51), rankOf(KING)]).toEqual([0, 0, 3, 12, 12]);
    expect(cardOf(1, 11)).toBe(24);
    expect(makeCard(24)).toBe('QD');
  });

  it('tells red suits from black', () => {
    expect(DECK.filter(isRed).map(makeCard).join(' ')).toBe(CANONICAL.split(' ').slice(13, 39).join(' '));
  });

  it('reads every canonical spelling back to its card', () => {
    for (const card of DECK) expect(parseCard(makeCard(card))).toEqual({ ok: true, value: card });
  });

  it.each([
    ['10c', 'TC'],
    ['10C', 'TC'],
    ['tc', 'TC'],
    ['Tc', 'TC'],
    ['10♣', 'TC'],
    ['T♣', 'TC'],
    ['q♦', 'QD'],
    ['Q♦', 'QD'],
    ['qd', 'QD'],
    ['a♠', 'AS'],
    ['As', 'AS'],
    ['K♥', 'KH'],
    ['kh', 'KH'],
    ['j♣', 'JC'],
    ['2♠', '2S'],
    ['9h', '9H'],
  ])('reads %s leniently as %s', (text, canonical) => {
    const card = parseCard(text);
    expect(card.ok && makeCard(card.value)).toBe(canonical);
  });

  it.each(['', 'A', 'C', '1C', '0C', '11C', '01C', 'AX', '10', 'ACE', ' AC', 'AC ', 'A C', '10 C', 'TCC', 'CA', '♣A', 'A♣\uFE0F', 'AC\n', 'A\u2663\u2663', '１C', 'ⅩC'])(
    'rejects %j with a reason naming the text',
    (text) => {
      expect(parseCard(text)).toEqual({
        ok: false,
        error: { code: 'not-a-card', text },
      });
    },
  );

  it('labels cards for people', () => {
    expect([cardLabel(cardOf(0, 9)), cardLabel(cardOf(1, 11)), cardLabel(cardOf(3, 0))]).toEqual(['10♣', 'Q♦', 'A♠']);
    expect([cardName(cardOf(1, 11)), cardName(cardOf(0, 9)), cardName(cardOf(3, 0)), cardName(cardOf(2, 12))]).toEqual([
      'Queen of diamonds',
      '10 of clubs',
      'Ace of spades',
      'King of hearts',
    ]);
  });

  it('reads any lenient spelling of a card back to the same card (property)', () => {
    const spelling = fc.record({
      card: fc.integer({ min: 0, max: 51 }),
      lower: fc.boolean(),
      ten: fc.boolean(),
      symbol: fc.boolean(),
    });
    fc.assert(
      fc.property(spelling, ({ card, lower, ten, symbol }) => {
        let rank = makeCard(card)[0]!;
        if (rank === 'T' && ten) rank = '10';
        let suit = makeCard(card)[1]!;
        if (symbol) suit = '♣♦♥♠'[suitOf(card)]!;
        const text = lower ? (rank + suit).toLowerCase() : rank + suit;
        expect(parseCard(text)).toEqual({ ok: true, value: card });
        expect(parseCard(makeCard(card))).toEqual({ ok: true, value: card });
      }),
    );
  });
});
