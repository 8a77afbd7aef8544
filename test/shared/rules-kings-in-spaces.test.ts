// kings-in-spaces: an empty fan may take a King (only a King) during the deal in which it emptied;
// a King alone in its fan may not move to another empty fan.
import { describe, expect, it } from 'vitest';
import { DEAD, changedFans, fansOf, legal, play, start, swap, why, cardNamed } from './helpers.js';

/** Fan 17 holds 3C 2C AC, fan 18 AD: four moves home empty both. */
const LAYOUT = swap(DEAD, ['5H', '3C'], ['5S', '2C'], ['5C', 'AC'], ['5D', 'AD']);
const emptied = (variant: 'kings-in-spaces' | 'strict' = 'kings-in-spaces') =>
  play(start(variant, LAYOUT), ['17>F', '17>F', '17>F', '18>F']);

describe('kings-in-spaces', () => {
  it('lets any King on top of a fan move to an empty fan', () => {
    expect(LAYOUT.slice(16)).toEqual(['3C 2C AC', 'AD']);
    const position = emptied();
    expect(fansOf(position).slice(16)).toEqual(['', '']);
    expect(position.foundations).toEqual([3, 1, 0, 0]);
    expect(legal(position)).toEqual(['1>17', '1>18', '2>17', '2>18', '3>17', '3>18', '4>17', '4>18', 'R']);
    const moved = play(position, ['1>17']);
    expect(changedFans(position, moved)).toEqual({ 1: '5C 5D', 17: 'KC' });
    // strict keeps empty fans empty.
    expect(legal(emptied('strict'))).toEqual(['R']);
  });

  it('takes only a King', () => {
    const position = emptied();
    expect(why(position, '5>17')).toEqual({ code: 'king-only', fan: 17, card: cardNamed('JC') });
    expect(why(position, '9>18')).toEqual({ code: 'king-only', fan: 18, card: cardNamed('9C') });
  });

  it('will not move a lone King to another empty fan, but moves any other King', () => {
    const position = play(emptied(), ['1>17']);
    expect(why(position, '17>18')).toEqual({ code: 'king-alone', card: cardNamed('KC') });
    expect(legal(position)).toEqual(['2>18', '3>18', '4>18', 'R']);
    const second = play(position, ['2>18']);
    expect(changedFans(position, second)).toEqual({ 2: 'AH AS', 18: 'KD' });
    expect(legal(second)).toEqual(['2>F', 'R']);
    // Once filled by a King, the fan builds as usual.
    expect(why(second, '17>18')).toEqual({ code: 'cannot-build', card: cardNamed('KC'), target: cardNamed('KD'), rule: 'same-suit-down' });
  });
});
