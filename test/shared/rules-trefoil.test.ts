// trefoil: the four Aces start on the foundations; the other 48 cards are dealt as 16 fans of 3.
import { describe, expect, it } from 'vitest';
import { DECK, Position, makeCard, rankOf } from '../../shared/index.js';
import { DEAD, DEAD_TREFOIL, changedFans, layout, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** The 48 cards in canonical order, three to a fan, lowest on top: every card goes home in turn. */
const WINNABLE_TREFOIL = Array.from({ length: 16 }, (_, fan) =>
  DECK.filter((card) => rankOf(card) !== 0)
    .slice(fan * 3, fan * 3 + 3)
    .map(makeCard)
    .reverse()
    .join(' '),
);

describe('trefoil', () => {
  it('starts with the four Aces home: a new game scores 4', () => {
    const dealt = start('trefoil', DEAD_TREFOIL);
    expect(dealt.foundations).toEqual([1, 1, 1, 1]);
    expect(dealt.fans).toHaveLength(16);
    expect(dealt.status()).toEqual({ foundations: 4, won: false, over: false, redealsUsed: 0, redealsLeft: 2, merciUsed: false });
    expect(legal(dealt)).toEqual(['R']);
  });

  it('deals only the 48 other cards, in 16 fans of 3', () => {
    expect(Position.start('trefoil', layout(DEAD))).toEqual({ ok: false, error: { code: 'first-layout', problem: { code: 'card-not-dealt', card: cardNamed('AC') } } });
    expect(Position.start('trefoil', layout(DEAD_TREFOIL.slice(0, 15)))).toEqual({
      ok: false,
      error: { code: 'first-layout', problem: { code: 'cards-missing', cards: [cardNamed('QH'), cardNamed('7S'), cardNamed('QS')] } },
    });
    expect(why(start('trefoil', DEAD_TREFOIL), '17>F')).toEqual({ code: 'no-such-fan', fan: 17, fans: 16 });
  });

  it('builds each foundation on its Ace from the start', () => {
    const dealt = start('trefoil', swap(DEAD_TREFOIL, ['2C', 'KC']));
    expect(legal(dealt)).toEqual(['1>F', 'R']);
    const two = play(dealt, ['1>F']);
    expect(changedFans(dealt, two)).toEqual({ 1: 'KC 2D' });
    expect(two.foundations).toEqual([2, 1, 1, 1]);
    expect(legal(two)).toEqual(['1>F', 'R']);
    expect(why(start('trefoil', swap(DEAD_TREFOIL, ['3C', 'KH'])), '3>F')).toEqual(
      { code: 'foundation-needs', card: cardNamed('3C'), needed: cardNamed('2C') },
    );
  });

  it('redeals the cards not on the foundations: never the Aces', () => {
    const dealt = start('trefoil', DEAD_TREFOIL);
    expect(dealt.gatheredCards()).toHaveLength(48);
    expect(why(dealt, 'R', DEAD)).toEqual({ code: 'redeal-layout', redeal: 1, problem: { code: 'card-not-dealt', card: cardNamed('AC') } });
    const redealt = play(dealt, ['R'], [swap(DEAD_TREFOIL, ['2C', 'KC'])]);
    expect(redealt.foundations).toEqual([1, 1, 1, 1]);
    expect(legal(redealt)).toEqual(['1>F', 'R']);
  });

  it('is won with all 52 cards home', () => {
    const won = play(
      start('trefoil', WINNABLE_TREFOIL),
      WINNABLE_TREFOIL.flatMap((_, fan) => [`${fan + 1}>F`, `${fan + 1}>F`, `${fan + 1}>F`]),
    );
    expect(won.status()).toEqual({ foundations: 52, won: true, over: true, redealsUsed: 0, redealsLeft: 2, merciUsed: false });
    expect(legal(won)).toEqual([]);
  });

  it('is lost at 4 when nothing ever moves', () => {
    const lost = play(start('trefoil', DEAD_TREFOIL), ['R', 'R'], [DEAD_TREFOIL, DEAD_TREFOIL]);
    expect(lost.status()).toEqual({ foundations: 4, won: false, over: true, redealsUsed: 2, redealsLeft: 0, merciUsed: false });
  });
});
