// The worked example of docs/rules.md: a fan holds Q♦ 2♠ 8♣ bottom to top, another
// shows 9♣, and A♠ is on its foundation.
import { describe, expect, it } from 'vitest';
import { DEAD, changedFans, fansOf, legal, play, start, swap, why, cardNamed } from './helpers.js';

// 7C trades places with a buried 3H so that 8C has one place to go.
const LAYOUT = swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']);

describe('the worked example of docs/rules.md', () => {
  it('sets up: fan 4 holds QD 2S 8C, fan 9 shows 9C, AS goes home first', () => {
    expect(LAYOUT[1]).toBe('AH KD AS');
    expect(LAYOUT[3]).toBe('QD 2S 8C');
    expect(LAYOUT[8]).toBe('6C 6D 9C');
    const dealt = start('strict', LAYOUT);
    expect(legal(dealt)).toEqual(['2>F', '4>9', 'R']);
    const ready = play(dealt, ['2>F']);
    expect(ready.foundations).toEqual([0, 0, 0, 1]);
    expect(changedFans(dealt, ready)).toEqual({ 2: 'AH KD' });
  });

  it('2S cannot be played while 8C covers it, and 2S with 8C cannot move together', () => {
    const position = play(start('strict', LAYOUT), ['2>F']);
    expect(legal(position)).toEqual(['4>9', 'R']);
    // Fan 4 to the foundation means its top card, 8C, never the 2S beneath it.
    expect(why(position, '4>F')).toEqual({ code: 'foundation-starts', card: cardNamed('8C'), needed: cardNamed('AC') });
    // Pulling out the buried 2S would be the merci, which strict has not.
    expect(why(position, 'M 2S>F')).toEqual({ code: 'no-merci', variant: 'strict' });
    // Moving fan 4 onto 9C moves one card: 2S stays behind.
    const moved = play(position, ['4>9']);
    expect(changedFans(position, moved)).toEqual({ 4: 'QD 2S', 9: '6C 6D 9C 8C' });
  });

  it('8C goes on 9C, then 2S goes on AS, then QD is accessible', () => {
    const position = play(start('strict', LAYOUT), ['2>F']);
    expect(why(position, '4>9')).toBeUndefined();
    const after8C = play(position, ['4>9']);
    expect(fansOf(after8C)[3]).toBe('QD 2S');
    expect(legal(after8C)).toEqual(['4>F', 'R']);
    const after2S = play(after8C, ['4>F']);
    expect(after2S.foundations).toEqual([0, 0, 0, 2]);
    expect(changedFans(after8C, after2S)).toEqual({ 4: 'QD' });
    // QD is now the top card of fan 4: it may go on KD (fan 2), and JD (fan 6) may go on it.
    expect(after2S.topCard(3)).toBe(after2S.fans[3]![0]);
    expect(legal(after2S)).toEqual(['4>2', '6>4', 'R']);
    const afterQD = play(after2S, ['4>2']);
    expect(changedFans(after2S, afterQD)).toEqual({ 2: 'AH KD QD', 4: '' });
    expect(afterQD.status()).toMatchObject({ foundations: 2, won: false, over: false });
  });

  it('8C never goes on 9S, nor 7C on 9C', () => {
    // 8C on 9S (fan 12) is the wrong suit.
    expect(why(play(start('strict', LAYOUT), ['2>F']), '4>12')).toEqual(
      { code: 'cannot-build', card: cardNamed('8C'), target: cardNamed('9S'), rule: 'same-suit-down' },
    );
    // 7C (on top of fan 13 in the dead layout) on 9C skips a rank.
    expect(why(start('strict', DEAD), '13>9')).toEqual({ code: 'cannot-build', card: cardNamed('7C'), target: cardNamed('9C'), rule: 'same-suit-down' });
  });
});
