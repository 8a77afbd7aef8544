// The result line a player shares: exact in English, spoiler-free (no card, no seed).
import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { dealEndsOf, dealSymbols, shareText } from '../../client/src/lib/share.js';
import { dealLayout, makeAction, makeLayout, Position, redealLayout } from '../../shared/index.js';
import { homeFirst, unwrap } from '../support/mirror.js';

beforeAll(() => setLocale('en', ['en-GB'], 'every'));

describe('the shared result', () => {
  it('gives one symbol per deal: all home, some home in it, none, never reached', () => {
    expect(dealSymbols([12, 30, 52], 3)).toBe('🟨🟨🟩');
    expect(dealSymbols([12, 12], 3)).toBe('🟨🟥⬜');
    expect(dealSymbols([52], 3)).toBe('🟩⬜⬜');
    expect(dealSymbols([0], 1)).toBe('🟥');
  });

  it('writes the line exactly, with the replay link on its own line only once given', () => {
    expect(shareText({ game: { kind: 'daily', day: '2026-11-30' }, foundations: 37, elapsedMs: 252_400, par: 41, dealEnds: [20, 31, 37], dealsAllowed: 3, link: null })).toBe(
      'Lucie daily 2026-11-30 · 37/52 · 4:12 · par 41 · 🟨🟨🟨',
    );
    expect(shareText({ game: { kind: 'race', code: 'K7MQ2X' }, foundations: 52, elapsedMs: 61_000, par: null, dealEnds: [52], dealsAllowed: 3, link: 'https://lucie.example/game/12' })).toBe(
      'Lucie race K7MQ2X · 52/52 · 1:01 · par ? · 🟩⬜⬜\nhttps://lucie.example/game/12',
    );
    expect(shareText({ game: { kind: 'ghost', ghost: 'Ana' }, foundations: 9, elapsedMs: 3_600_000, par: 12, dealEnds: [4, 4, 9], dealsAllowed: 3, link: null })).toBe(
      'Lucie ghost race against Ana · 9/52 · 1:00:00 · par 12 · 🟨🟥🟨',
    );
    expect(shareText({ game: { kind: 'series', code: 'SER1ES', deal: 7 }, foundations: 0, elapsedMs: 5_000, par: 3, dealEnds: [0], dealsAllowed: 1, link: null })).toBe(
      'Lucie series SER1ES deal 7 · 0/52 · 0:05 · par 3 · 🟥',
    );
  });

  it("reads each deal's end from a game's own deals and actions, and the line holds neither a card nor the seed", () => {
    const seed = 'share-seed-17';
    const deals = [makeLayout(dealLayout(seed, 'strict'))];
    const position = unwrap(Position.start('strict', dealLayout(seed, 'strict')));
    const actions: string[] = [];
    const ends: number[] = [];
    for (let action = homeFirst(position); action; action = homeFirst(position)) {
      let next;
      if (action.type === 'redeal') {
        ends.push(position.foundationCount());
        next = redealLayout(seed, position.redealsUsed + 1, position.gatheredCards());
        deals.push(makeLayout(next));
      }
      position.play(action, next);
      actions.push(makeAction(action));
    }
    ends.push(position.foundationCount());
    expect(deals.length).toBeGreaterThan(1);
    expect(dealEndsOf('strict', deals, actions)).toEqual(ends);
    const text = shareText({ game: { kind: 'daily', day: '2026-11-30' }, foundations: ends.at(-1)!, elapsedMs: 90_000, par: null, dealEnds: ends, dealsAllowed: 3, link: null });
    expect(text).not.toContain(seed);
    // No card's notation (rank then suit, as the layouts write them) appears in the line.
    for (const fan of deals.flat()) for (const card of fan.split(' ')) expect(text).not.toMatch(new RegExp(`\\b${card}\\b`));
  });
});
