// no-redeal: a single deal.
import { describe, expect, it } from 'vitest';
import { DEAD, legal, start, swap, why } from './helpers.js';

describe('no-redeal', () => {
  it('has no redeal at all', () => {
    const dealt = start('no-redeal', DEAD);
    expect(why(dealt, 'R', DEAD)).toEqual({ code: 'no-redeal', variant: 'no-redeal' });
    expect(why(dealt, 'R')).toEqual({ code: 'no-redeal', variant: 'no-redeal' });
    expect(legal(start('no-redeal', swap(DEAD, ['AS', 'KD'])))).toEqual(['2>F']);
  });

  it('is over as soon as no move is left', () => {
    const dealt = start('no-redeal', DEAD);
    expect(legal(dealt)).toEqual([]);
    expect(dealt.status()).toEqual({ foundations: 0, won: false, over: true, redealsUsed: 0, redealsLeft: 0, merciUsed: false });
  });
});
