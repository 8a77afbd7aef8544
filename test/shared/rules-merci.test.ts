// merci, "three shuffles and a draw": once per game, in the last deal and only when no other
// move is legal, any buried card goes on top of any non-empty fan or to its foundation.
import { describe, expect, it } from 'vitest';
import { makeAction, parseAction } from '../../shared/index.js';
import { DEAD, changedFans, fansOf, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** The last deal of a merci game, dealt `last`, both redeals used. */
const lastDeal = (last: readonly string[] = DEAD) => play(start('merci', DEAD), ['R', 'R'], [DEAD, last]);

describe('merci', () => {
  it('comes only in the last deal', () => {
    const first = start('merci', DEAD);
    expect(legal(first)).toEqual(['R']);
    expect(why(first, 'M AC>F')).toEqual({ code: 'merci-too-early', left: 2 });
    const second = play(first, ['R'], [DEAD]);
    expect(legal(second)).toEqual(['R']);
    expect(why(second, 'M AC>1')).toEqual({ code: 'merci-too-early', left: 1 });
  });

  it('comes only when no other move is legal', () => {
    const position = lastDeal(swap(DEAD, ['AS', 'KD']));
    expect(legal(position)).toEqual(['2>F']);
    expect(why(position, 'M AC>F')).toEqual({ code: 'merci-not-needed', action: '2>F' });
    expect(position.status().over).toBe(false);
  });

  it('when stuck in the last deal, offers every buried card to its foundation (if it fits) and to every non-empty fan', () => {
    const position = lastDeal();
    const actions = legal(position);
    // 34 buried cards (two in each of fans 1-17) to 18 fans, and the four buried Aces home.
    expect(actions).toHaveLength(34 * 18 + 4);
    expect(actions.slice(0, 20)).toEqual(['M AC>F', ...Array.from({ length: 18 }, (_, i) => `M AC>${i + 1}`), 'M AD>F']);
    expect(actions.every((text) => text.startsWith('M '))).toBe(true);
    expect(actions.filter((text) => text.endsWith('>F'))).toEqual(['M AC>F', 'M AD>F', 'M AH>F', 'M AS>F']);
    expect(position.status()).toEqual({ foundations: 0, won: false, over: false, redealsUsed: 2, redealsLeft: 0, merciUsed: false });
  });

  it('plays a buried card straight to its foundation', () => {
    const position = lastDeal();
    const after = play(position, ['M AC>F']);
    expect(changedFans(position, after)).toEqual({ 1: 'AD KC' });
    expect(after.foundations).toEqual([1, 0, 0, 0]);
    expect(legal(after)).toEqual([]);
    expect(after.status()).toEqual({ foundations: 1, won: false, over: true, redealsUsed: 2, redealsLeft: 0, merciUsed: true });
    expect(why(position, 'M 2C>F')).toEqual({ code: 'foundation-starts', card: cardNamed('2C'), needed: cardNamed('AC') });
  });

  it('puts a buried card on any non-empty fan whatever the building rule, once per game', () => {
    const position = lastDeal();
    const after = play(position, ['M QD>18']);
    expect(changedFans(position, after)).toEqual({ 15: 'QC 7H', 18: '5D QD' });
    // QD on top of fan 18 may now go on KD, and JD on QD.
    expect(legal(after)).toEqual(['6>18', '18>2']);
    expect(why(after, 'M AC>F')).toEqual({ code: 'merci-used' });
    expect(why(play(after, ['18>2']), 'M AC>F')).toEqual({ code: 'merci-used' });
  });

  it('may put the buried card on top of its own fan', () => {
    const position = lastDeal();
    expect(why(position, 'M AD>1')).toBeUndefined();
    const after = play(position, ['M AD>1']);
    expect(changedFans(position, after)).toEqual({ 1: 'AC KC AD' });
    expect(legal(after)).toEqual(['1>F']);
    const own = play(position, ['M 5H>17']);
    expect(changedFans(position, own)).toEqual({ 17: '5S 5C 5H' });
    expect(own.status()).toMatchObject({ over: true, won: false, merciUsed: true });
  });

  it('takes only a buried card, present in the fans, to a fan that exists and is not empty', () => {
    const position = lastDeal();
    expect(why(position, 'M KC>2')).toEqual({ code: 'merci-top-card', card: cardNamed('KC'), fan: 1 });
    expect(why(position, 'M 5D>1')).toEqual({ code: 'merci-top-card', card: cardNamed('5D'), fan: 18 });
    expect(why(position, 'M AC>19')).toEqual({ code: 'no-such-fan', fan: 19, fans: 18 });
    expect(position.problem({ type: 'merci', card: 0, to: -1 })).toEqual({ code: 'no-such-fan', fan: 0, fans: 18 });
    expect(position.problem({ type: 'merci', card: 52, to: 0 })).toEqual({ code: 'not-in-fans', card: 52 });

    // Fan 18 holds AS alone: once it is home, fan 18 is empty and nothing else can move.
    const emptied = play(lastDeal(swap(DEAD, ['AS', '5D'])), ['18>F']);
    expect(fansOf(emptied)[17]).toBe('');
    // 34 buried cards to 17 fans; AC AD AH and now 2S fit their foundations.
    expect(legal(emptied)).toHaveLength(34 * 17 + 4);
    expect(legal(emptied).filter((text) => text.endsWith('>F'))).toEqual(['M AC>F', 'M AD>F', 'M AH>F', 'M 2S>F']);
    expect(why(emptied, 'M AC>18')).toEqual({ code: 'fan-empty', fan: 18 });
    expect(why(emptied, 'M AS>1')).toEqual({ code: 'not-in-fans', card: cardNamed('AS') });
    expect(why(emptied, 'M AH>F')).toBeUndefined();
  });

  it('reads the card leniently and writes it canonically', () => {
    const position = lastDeal();
    const action = parseAction('M 10c>13');
    expect(action.ok && makeAction(action.value)).toBe('M TC>13');
    const after = play(position, ['M 10c>13']);
    expect(changedFans(position, after)).toEqual({ 13: 'TD 7C TC' });
  });

  it('leaves no redeal after it', () => {
    const after = play(lastDeal(), ['M AC>F']);
    expect(why(after, 'R', DEAD)).toEqual({ code: 'no-redeal-left', redeals: 2 });
  });
});
