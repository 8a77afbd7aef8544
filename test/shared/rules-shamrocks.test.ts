// shamrocks: builds go down by one rank regardless of suit, but no move onto a fan of 3.
import { describe, expect, it } from 'vitest';
import { DEAD, changedFans, legal, play, start, swap, why } from './helpers.js';

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
    expect(why(start('strict', LAYOUT), '5>18')).toBe('4C cannot go on 5D: a card goes only on the next higher card of its own suit');
  });

  it('builds only one rank down', () => {
    const dealt = start('shamrocks', LAYOUT);
    expect(why(dealt, '9>18')).toBe('9C cannot go on 5D: a card goes only on a card one rank higher');
    expect(why(play(dealt, ['5>18']), '18>5')).toBe('4C cannot go on 3D: a card goes only on a card one rank higher');
  });

  it('never moves a card onto a fan of 3, not even of its own suit one rank higher', () => {
    const dealt = start('shamrocks', LAYOUT);
    expect(why(dealt, '5>17')).toBe('4C cannot go on 5C: fan 17 already holds 3 cards, the most a fan may hold in shamrocks');
    const full = play(dealt, ['5>18', '5>18']);
    expect(legal(full)).toEqual(['R']);
    expect(why(full, '5>18')).toBe('2S cannot go on 3D: fan 18 already holds 3 cards, the most a fan may hold in shamrocks');
    const worked = start('shamrocks', swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']));
    expect(why(worked, '4>9')).toBe('8C cannot go on 9C: fan 9 already holds 3 cards, the most a fan may hold in shamrocks');
    expect(legal(worked)).toEqual(['2>F', 'R']);
  });
});
