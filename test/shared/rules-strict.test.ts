// The strict profile (docs/rules.md, "What a player may do in `strict`"), and the strict rules every other variant keeps.
import { describe, expect, it } from 'vitest';
import { Position, VARIANT_IDS, applyAction, dealFans, makeLayout, parseAction, type Action, type VariantId } from '../../shared/index.js';
import { DEAD, WINNABLE, deadFor, WINNING_ACTIONS, changedFans, fansOf, layout, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** The variants dealt 52 cards (all but trefoil). */
const FULL_DECK = VARIANT_IDS.filter((id) => id !== 'trefoil');
const WORKED = swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']);
/** After the worked example: AS 2S home, fan 4 empty, QD on KD. */
const afterWorked = () => play(start('strict', WORKED), ['2>F', '4>9', '4>F', '4>2']);

describe('strict: to a foundation (rule 1)', () => {
  it.each(FULL_DECK)('%s: an Ace starts a foundation, then each card exactly one rank higher of its suit', (variant) => {
    const dealt = start(variant, WINNABLE);
    expect(why(dealt, '2>F')).toEqual({ code: 'foundation-starts', card: cardNamed('4C'), needed: cardNamed('AC') });
    const ace = play(dealt, ['1>F']);
    expect(ace.foundations).toEqual([1, 0, 0, 0]);
    expect(changedFans(dealt, ace)).toEqual({ 1: '3C 2C' });
    expect(why(ace, '2>F')).toEqual({ code: 'foundation-needs', card: cardNamed('4C'), needed: cardNamed('2C') });
    expect(why(ace, '5>F')).toEqual({ code: 'foundation-needs', card: cardNamed('KC'), needed: cardNamed('2C') });
    expect(why(ace, '1>F')).toBeUndefined();
    const three = play(ace, ['1>F', '1>F']);
    expect(three.foundations).toEqual([3, 0, 0, 0]);
    expect(fansOf(three)[0]).toBe('');
    // Each suit has its own foundation: AS (fan 14) starts spades whatever clubs hold.
    expect(why(three, '14>F')).toBeUndefined();
    expect(why(three, '13>F')).toEqual({ code: 'foundation-starts', card: cardNamed('JH'), needed: cardNamed('AH') });
  });

  it('a card on a foundation never comes back: no action takes a card from a foundation', () => {
    for (const text of ['F>1', 'F>C1', 'F', '0>1']) expect(parseAction(text).ok).toBe(false);
  });
});

describe('strict: fan to fan (rule 2)', () => {
  it('a top card goes on the top card of another fan of its suit one rank higher', () => {
    const dealt = start('strict', WORKED);
    const moved = play(dealt, ['4>9']);
    expect(changedFans(dealt, moved)).toEqual({ 4: 'QD 2S', 9: '6C 6D 9C 8C' });
    expect(moved.foundations).toEqual([0, 0, 0, 0]);
  });

  it('never on another suit, never two ranks up, never one rank down, never onto its own fan', () => {
    const dealt = start('strict', WORKED);
    expect(why(dealt, '4>12')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('9S'), rule: 'same-suit-down' });
    expect(why(dealt, '4>10')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('9D'), rule: 'same-suit-down' });
    expect(why(start('strict', DEAD), '13>9')).toEqual({ code: 'cannot-build', card: cardNamed('7C'), target: cardNamed('9C'), rule: 'same-suit-down' });
    expect(why(dealt, '9>4')).toEqual({ code: 'cannot-build', card: cardNamed('9C'), target: cardNamed('8C'), rule: 'same-suit-down' });
    expect(why(dealt, '4>4')).toEqual({ code: 'own-fan' });
  });

  it('a King goes on nothing (ranks do not wrap: KC is not below AD)', () => {
    const position = start('strict', swap(DEAD, ['AD', 'JC']));
    expect(fansOf(position)[4]).toBe('3C 3D AD');
    expect(legal(position)).toEqual(['5>F', 'R']);
    expect(why(position, '1>5')).toEqual({ code: 'cannot-build', card: cardNamed('KC'), target: cardNamed('AD'), rule: 'same-suit-down' });
  });

  it('an Ace may build on the 2 of its suit from fan to fan', () => {
    const dealt = start('strict', swap(DEAD, ['AC', 'KC'], ['2C', 'KH']));
    expect(legal(dealt)).toEqual(['1>F', '1>3', 'R']);
    const built = play(dealt, ['1>3']);
    expect(changedFans(dealt, built)).toEqual({ 1: 'KC AD', 3: 'KH 2D 2C AC' });
    expect(built.foundations).toEqual([0, 0, 0, 0]);
    expect(legal(built)).toEqual(['1>F', '3>F', 'R']);
  });

  it('names fans that do not exist', () => {
    const dealt = start('strict', DEAD);
    expect(why(dealt, '19>F')).toEqual({ code: 'no-such-fan', fan: 19, fans: 18 });
    expect(why(dealt, '19>1')).toEqual({ code: 'no-such-fan', fan: 19, fans: 18 });
    expect(why(dealt, '1>19')).toEqual({ code: 'no-such-fan', fan: 19, fans: 18 });
    expect(why(dealt, '99999>99999')).toEqual({ code: 'no-such-fan', fan: 99999, fans: 18 });
    const odd: Action[] = [
      { type: 'fan-to-foundation', from: -1 },
      { type: 'fan-to-fan', from: 0, to: -1 },
      { type: 'fan-to-fan', from: 0.5, to: 1 },
      { type: 'fan-to-fan', from: 0, to: Number.NaN },
    ];
    expect(odd.map((action) => dealt.problem(action))).toEqual([
      { code: 'no-such-fan', fan: 0, fans: 18 },
      { code: 'no-such-fan', fan: 0, fans: 18 },
      { code: 'no-such-fan', fan: 1.5, fans: 18 },
      { code: 'no-such-fan', fan: Number.NaN, fans: 18 },
    ]);
  });
});

describe('strict: one card at a time (rule 3)', () => {
  it('moves only the top card of a run already in order', () => {
    // TC on top of fan 11: 9C may go on it, until 8C covers 9C. Then 9C 8C do not move as a unit.
    const dealt = start('strict', swap(WORKED, ['TC', '9H']));
    expect(fansOf(dealt)[10]).toBe('KS 8D TC');
    expect(why(dealt, '9>11')).toBeUndefined();
    const run = play(dealt, ['4>9']);
    expect(fansOf(run)[8]).toBe('6C 6D 9C 8C');
    expect(why(run, '9>11')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('TC'), rule: 'same-suit-down' });
    // AS may go home or onto 2S, TC onto JC: 9C and 8C have no move.
    expect(legal(run)).toEqual(['2>F', '2>4', '11>5', 'R']);
  });
});

/** WINNABLE after AC 2C 3C went home: fan 1 is empty, 49 cards are left, KC tops fan 5. */
const clubsHome = (variant: VariantId) => play(start(variant, WINNABLE), ['1>F', '1>F', '1>F']);

describe('strict: an empty fan stays empty (rule 4)', () => {
  it.each(FULL_DECK.filter((id) => id !== 'kings-in-spaces'))('%s: nothing goes to an empty fan, not even a King', (variant) => {
    const position = clubsHome(variant);
    expect(fansOf(position)[0]).toBe('');
    expect(fansOf(position)[4]).toBe('2D AD KC');
    expect(why(position, '5>1')).toEqual({ code: 'empty-fan-stays-empty', fan: 1 });
    expect(why(position, '2>1')).toEqual({ code: 'empty-fan-stays-empty', fan: 1 });
    expect(why(position, '1>F')).toEqual({ code: 'fan-empty', fan: 1 });
    expect(why(position, '1>2')).toEqual({ code: 'fan-empty', fan: 1 });
    expect(position.legalActions().some((action) => 'to' in action && action.to === 0)).toBe(false);
  });
});

describe('strict: redeals (rule 5)', () => {
  it.each(FULL_DECK.filter((id) => id !== 'no-redeal'))(
    '%s: gathers every card not on a foundation, deals the next layout numbered from 1, foundations untouched',
    (variant) => {
      const position = clubsHome(variant);
      const gathered = position.gatheredCards();
      expect(gathered).toHaveLength(49);
      const next = makeLayout(dealFans(gathered));
      expect(next).toHaveLength(17);
      expect([next[0], next[16]]).toEqual(['4C 5C 6C', 'KS']);
      expect(why(position, 'R', next)).toBeUndefined();
      const redealt = play(position, ['R'], [next]);
      expect(fansOf(redealt)).toEqual(next);
      expect(redealt.foundations).toEqual([3, 0, 0, 0]);
      expect(redealt.cells.every((cell) => cell === null)).toBe(true);
      expect(redealt.status()).toMatchObject({ redealsUsed: 1, redealsLeft: 1, foundations: 3 });
      expect(why(redealt, '18>F')).toEqual({ code: 'no-such-fan', fan: 18, fans: 17 });
      expect(why(redealt, '1>F')).toEqual({ code: 'foundation-needs', card: cardNamed('6C'), needed: cardNamed('4C') });
    },
  );

  it('checks the next layout: the gathered cards once each, in fans of 3 with one shorter last', () => {
    const position = clubsHome('strict');
    const next = makeLayout(dealFans(position.gatheredCards()));
    expect(next[15]).toBe('TS JS QS');
    expect(why(position, 'R', [...next.slice(0, 16), 'AC'])).toEqual({ code: 'redeal-layout', redeal: 1, problem: { code: 'card-not-dealt', card: cardNamed('AC') } });
    expect(why(position, 'R', [...next.slice(0, 16), 'QS'])).toEqual({ code: 'redeal-layout', redeal: 1, problem: { code: 'card-twice', card: cardNamed('QS') } });
    expect(why(position, 'R', next.slice(0, 16))).toEqual({ code: 'redeal-layout', redeal: 1, problem: { code: 'cards-missing', cards: [cardNamed('KS')] } });
    expect(why(position, 'R', ['KS', ...next.slice(0, 16)])).toEqual(
      { code: 'redeal-layout', redeal: 1, problem: { code: 'fan-size', fan: 1, size: 1, expected: 3 } },
    );
    expect(why(position, 'R', [...next, ''])).toEqual(
      { code: 'redeal-layout', redeal: 1, problem: { code: 'extra-fan', fan: 18, size: 0, total: 49, fans: 17 } },
    );
    expect(why(position, 'R', [...next.slice(0, 15), 'TS JS', 'QS KS'])).toEqual(
      { code: 'redeal-layout', redeal: 1, problem: { code: 'fan-size', fan: 16, size: 2, expected: 3 } },
    );
  });

  it('is the player\'s choice: legal while moves remain, and it needs a layout to be played', () => {
    const dealt = start('strict', WORKED);
    expect(legal(dealt)).toEqual(['2>F', '4>9', 'R']);
    expect(applyAction(dealt, { type: 'redeal' })).toEqual({ ok: false, error: { code: 'redeal-needs-layout' } });
  });

  it('allows two redeals in strict, then no more', () => {
    const twice = play(start('strict', DEAD), ['R', 'R'], [DEAD, DEAD]);
    expect(twice.redealsUsed).toBe(2);
    expect(why(twice, 'R', DEAD)).toEqual({ code: 'no-redeal-left', redeals: 2 });
    expect(why(twice, 'R')).toEqual({ code: 'no-redeal-left', redeals: 2 });
  });
});

describe('strict: no merci, no cells (rule 6)', () => {
  it.each(VARIANT_IDS.filter((id) => id !== 'merci'))('%s: no buried card is ever pulled out, not even when stuck in the last deal', (variant) => {
    const dead = deadFor(variant);
    const stuck = variant === 'no-redeal' ? start(variant, dead) : play(start(variant, dead), ['R', 'R'], [dead, dead]);
    expect(why(stuck, 'M AC>F')).toEqual({ code: 'no-merci', variant: variant });
    expect(why(stuck, 'M QD>18')).toEqual({ code: 'no-merci', variant: variant });
  });

  it.each(VARIANT_IDS.filter((id) => id !== 'fan-reserve'))('%s: there are no reserve cells', (variant) => {
    const dealt = start(variant, deadFor(variant));
    for (const text of ['1>C1', 'C1>2', 'C1>F', '18>C4']) {
      expect(why(dealt, text)).toEqual({ code: 'no-cells', variant: variant });
    }
    expect(dealt.cells).toEqual([]);
  });
});

describe('strict: won, lost, over (rule 7)', () => {
  it.each(FULL_DECK)('%s: won with all 52 cards home; then over, with nothing legal', (variant) => {
    const won = play(start(variant, WINNABLE), WINNING_ACTIONS);
    expect(won.foundations).toEqual([13, 13, 13, 13]);
    expect(won.status()).toEqual({
      foundations: 52,
      won: true,
      over: true,
      redealsUsed: 0,
      redealsLeft: variant === 'no-redeal' ? 0 : 2,
      merciUsed: false,
    });
    expect(legal(won)).toEqual([]);
    expect(why(won, 'R', [])).toEqual(variant === 'no-redeal' ? { code: 'no-redeal', variant } : { code: 'game-won' });
    expect(why(won, '1>F')).toEqual({ code: 'fan-empty', fan: 1 });
  });

  it('is not over while a redeal remains, even with no move left', () => {
    const dealt = start('strict', DEAD);
    expect(legal(dealt)).toEqual(['R']);
    expect(dealt.status()).toEqual({ foundations: 0, won: false, over: false, redealsUsed: 0, redealsLeft: 2, merciUsed: false });
    const once = play(dealt, ['R'], [DEAD]);
    expect(once.status()).toEqual({ foundations: 0, won: false, over: false, redealsUsed: 1, redealsLeft: 1, merciUsed: false });
  });

  it('is lost when no move and no redeal remain, and scores the cards on its foundations', () => {
    const position = play(start('strict', swap(DEAD, ['AS', 'KD'])), ['2>F']);
    // DEAD less AS: 17 fans of 3, still nothing to play.
    const dead51 = ['AC AD KC', '5D AH KD', ...DEAD.slice(2, 17)];
    const lost = play(position, ['R', 'R'], [dead51, dead51]);
    expect(legal(lost)).toEqual([]);
    expect(lost.status()).toEqual({ foundations: 1, won: false, over: true, redealsUsed: 2, redealsLeft: 0, merciUsed: false });
  });
});

describe('positions', () => {
  it('start only from the variant\'s starting cards in fans of 3', () => {
    expect(start('strict', DEAD).foundations).toEqual([0, 0, 0, 0]);
    const reasons = [DEAD.slice(0, 17), [...DEAD.slice(0, 17), '5C'], ['5D', ...DEAD.slice(0, 17)]].map((fans) =>
      Position.start('strict', layout(fans)),
    );
    expect(reasons).toEqual([
      { ok: false, error: { code: 'first-layout', problem: { code: 'cards-missing', cards: [cardNamed('5D')] } } },
      { ok: false, error: { code: 'first-layout', problem: { code: 'card-twice', card: cardNamed('5C') } } },
      { ok: false, error: { code: 'first-layout', problem: { code: 'fan-size', fan: 1, size: 1, expected: 3 } } },
    ]);
  });

  it('applyAction leaves the position it was given alone, clone is independent', () => {
    const dealt = start('strict', WORKED);
    const before = JSON.stringify([dealt.fans, dealt.foundations, dealt.status()]);
    const next = applyAction(dealt, { type: 'fan-to-foundation', from: 1 });
    expect(next.ok).toBe(true);
    expect(JSON.stringify([dealt.fans, dealt.foundations, dealt.status()])).toBe(before);
    expect(applyAction(dealt, { type: 'fan-to-foundation', from: 0 })).toEqual({
      ok: false,
      error: { code: 'foundation-starts', card: cardNamed('KC'), needed: cardNamed('AC') },
    });
    const copy = dealt.clone();
    copy.play({ type: 'fan-to-fan', from: 3, to: 8 });
    expect(fansOf(copy)[3]).toBe('QD 2S');
    expect(fansOf(dealt)[3]).toBe('QD 2S 8C');
    expect(dealt.problem({ type: 'fan-to-fan', from: 3, to: 8 })).toBeUndefined();
    expect(dealt.problem({ type: 'fan-to-fan', from: 3, to: 3 })).toEqual({ code: 'own-fan' });
  });

  it('lists what a redeal gathers in canonical order, and the top cards', () => {
    const position = afterWorked();
    expect(position.gatheredCards()).toEqual([...position.gatheredCards()].sort((a, b) => a - b));
    expect(position.gatheredCards()).not.toContain(layout(['AS'])[0]![0]);
    expect(position.topCard(3)).toBeUndefined();
    expect(position.topCard(18)).toBeUndefined();
    expect(position.topCard(1)).toBe(layout(['QD'])[0]![0]);
    expect(position.variant).toBe('strict');
  });
});
