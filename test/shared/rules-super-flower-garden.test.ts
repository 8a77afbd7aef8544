// super-flower-garden: builds go up or down by one rank in the same suit; play can cycle.
import { describe, expect, it } from 'vitest';
import { DEAD, changedFans, fansOf, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** Fan 9 holds 6C 9C 8C (8C on top), fan 13 shows 7C. */
const LAYOUT = swap(DEAD, ['6D', '9C'], ['6D', '8C']);

describe('super-flower-garden', () => {
  it('builds one rank down or up in the same suit', () => {
    expect([LAYOUT[8], LAYOUT[12]]).toEqual(['6C 9C 8C', 'TC TD 7C']);
    const dealt = start('super-flower-garden', LAYOUT);
    expect(legal(dealt)).toEqual(['9>13', '13>9', 'R']);
    const up = play(dealt, ['9>13']);
    expect(changedFans(dealt, up)).toEqual({ 9: '6C 9C', 13: 'TC TD 7C 8C' });
    const down = play(dealt, ['13>9']);
    expect(changedFans(dealt, down)).toEqual({ 9: '6C 9C 8C 7C', 13: 'TC TD' });
    // strict builds down only.
    expect(legal(start('strict', LAYOUT))).toEqual(['13>9', 'R']);
    expect(why(start('strict', LAYOUT), '9>13')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('7C'), rule: 'same-suit-down' });
  });

  it('never builds across suits or ranks apart', () => {
    const dealt = start('super-flower-garden', LAYOUT);
    expect(why(dealt, '9>10')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('9D'), rule: 'same-suit-up-or-down' });
    expect(why(dealt, '9>11')).toEqual({ code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('9H'), rule: 'same-suit-up-or-down' });
    expect(why(start('super-flower-garden', DEAD), '13>9')).toEqual(
      { code: 'cannot-build', card: cardNamed('7C'), target: cardNamed('9C'), rule: 'same-suit-up-or-down' },
    );
    expect(legal(start('super-flower-garden', DEAD))).toEqual(['R']);
  });

  it('can cycle: a card moved up can move back down', () => {
    const dealt = start('super-flower-garden', LAYOUT);
    const there = play(dealt, ['9>13']);
    expect(legal(there)).toEqual(['9>13', '13>9', 'R']);
    const back = play(there, ['13>9']);
    expect(fansOf(back)).toEqual(fansOf(dealt));
    expect(back.status()).toEqual(dealt.status());
  });
});
