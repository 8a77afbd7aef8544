// shamrocks: builds go down by one rank regardless of suit, but no move onto a fan of 3.
import { describe, expect, it } from 'vitest';
import { DEAD, changedFans, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** Fan 5 holds 2S 3D 4C (4C on top), fan 18 holds 5D alone, fan 17 shows 5C on three cards. */
const LAYOUT = swap(DEAD, ['3C', '2S'], ['JC', '4C']);

describe('shamrocks', () => {
  it('builds down by one rank regardless of suit', () => {
    expect(LAYOUT[4]).toBe('2S 3D 4C');
    const dealt = start('shamrocks', LAYOUT);
    expect(legal(dealt)).toEqual(['5>18', 'R']);
    const one = play(dealt, ['5>18']);
    expect(changedFans(dealt, one)).toEqual({ 5: '2S 3D', 18: '5D 4C' });
    expect(legal(one)).toEqual(['5>18', 'R']);
    const two = play(one, ['5>18']);
    expect(changedFans(one, two)).toEqual({ 5: '2S', 18: '5D 4C 3D' });
    // In strict 4C builds only on 5C (which shamrocks forbids: fan 17 holds 3 cards).
    expect(legal(start('strict', LAYOUT))).toEqual(['5>17', 'R']);
    expect(why(start('strict', LAYOUT), '5>18')).toEqual({ code: 'cannot-build', card: cardNamed('4C'), target: cardNamed('5D'), rule: 'same-suit-down' });
  });

  it('builds only one rank down', () => {
    const dealt = start('shamrocks', LAYOUT);
    expect(why(dealt, '9>18')).toEqual({ code: 'cannot-build', card: cardNamed('9C'), target: cardNamed('5D'), rule: 'any-suit-down' });
    expect(why(play(dealt, ['5>18']), '18>5')).toEqual({ code: 'cannot-build', card: cardNamed('4C'), target: cardNamed('3D'), rule: 'any-suit-down' });
  });

  it('never moves a card onto a fan of 3, not even of its own suit one rank higher', () => {
    const dealt = start('shamrocks', LAYOUT);
    expect(why(dealt, '5>17')).toEqual({ code: 'fan-full', card: cardNamed('4C'), target: cardNamed('5C'), fan: 17, size: 3, variant: 'shamrocks' });
    const full = play(dealt, ['5>18', '5>18']);
    expect(legal(full)).toEqual(['R']);
    expect(why(full, '5>18')).toEqual({ code: 'fan-full', card: cardNamed('2S'), target: cardNamed('3D'), fan: 18, size: 3, variant: 'shamrocks' });
    const worked = start('shamrocks', swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']));
    expect(why(worked, '4>9')).toEqual({ code: 'fan-full', card: cardNamed('8C'), target: cardNamed('9C'), fan: 9, size: 3, variant: 'shamrocks' });
    expect(legal(worked)).toEqual(['2>F', 'R']);
  });
});
