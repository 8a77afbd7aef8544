import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { Milestones } from '../../client/src/lib/milestones.js';
import { metaClaims } from '../../client/src/lib/replay.js';
import { parseSettings, DEFAULT_SETTINGS } from '../../client/src/lib/settings.svelte.js';
import type { GameRecord, VerifyOutcome } from '../../shared/index.js';

const record = (meta: Record<string, unknown>): GameRecord => ({ format: 'lucie-record/1', variant: 'strict', deals: [], actions: [], meta }) as unknown as GameRecord;
const legal = (foundations: number, over: boolean): VerifyOutcome => ({ ok: true, foundations, won: foundations === 52, over, redealsUsed: 2 });

beforeAll(() => setLocale('en', ['en-GB'], 'every'));

describe('a record’s meta is shown as claims, checked against the replay', () => {
  it('flags a claimed win that the moves never reach', () => {
    const claims = metaClaims(record({ player: 'Somebody else', state: 'won', foundations: 52 }), legal(31, true));
    expect(claims).toEqual([
      { label: 'Player', value: 'Somebody else', conflict: null },
      { label: 'State', value: 'won', conflict: 'the moves reach only 31/52 cards home, so the game was not won' },
      { label: 'Cards home', value: '52/52', conflict: 'the moves reach 31/52' },
    ]);
  });

  it('agrees with claims the replay bears out, and says nothing of a broken record', () => {
    expect(metaClaims(record({ state: 'out-of-moves' }), legal(31, true))).toEqual([{ label: 'State', value: 'out of moves', conflict: null }]);
    expect(metaClaims(record({ state: 'out-of-moves' }), legal(31, false))[0]!.conflict).toBe('moves remain after the last action');
    expect(metaClaims(record({ state: 'resigned' }), legal(52, true))[0]!.conflict).toBe('the moves bring all 52 cards home, so the game was won');
    const broken: VerifyOutcome = { ok: false, index: 3, action: '1>F', problem: { code: 'fan-empty', fan: 1 } };
    expect(metaClaims(record({ state: 'won' }), broken)[0]!.conflict).toBeNull();
    expect(metaClaims(record({ player: 7 }), legal(1, true))).toEqual([]);
  });
});

describe('opponents’ milestones', () => {
  const racer = (playerId: number, foundations: number, status = 'playing') =>
    ({ playerId, name: `P${playerId}`, foundations, status, cardsLeft: 52 - foundations, redealsUsed: 0, moves: 0, finishedAt: null }) as never;

  it('announces every 13 cards and a finish, never the player’s own, nothing on first sight', () => {
    const milestones = new Milestones();
    expect(milestones.news([racer(1, 20), racer(2, 5)], 1)).toEqual([]);
    expect(milestones.news([racer(1, 40), racer(2, 12)], 1)).toEqual([]);
    expect(milestones.news([racer(1, 40), racer(2, 13)], 1)).toEqual(['P2 has 13 cards home.']);
    expect(milestones.news([racer(1, 40), racer(2, 14)], 1)).toEqual([]);
    expect(milestones.news([racer(1, 40), racer(2, 1 + 14, 'out-of-moves')], 1)).toEqual(['P2 finished (out of moves) with 15 cards home.']);
    expect(milestones.news([racer(1, 40), racer(2, 15, 'out-of-moves')], 1)).toEqual([]);
  });

  it('says a win as a win', () => {
    const milestones = new Milestones();
    milestones.news([racer(2, 50)], null);
    expect(milestones.news([racer(2, 52, 'won')], null)).toEqual(['P2 won.']);
  });

  it('says a lost connection once and the return once, never the countdown, and leaves an abandonment to the race’s event', () => {
    const seat = (id: number, state: 'online' | 'reconnecting' | 'gone', until: number | null = null) =>
      ({ id, name: `P${id}`, presence: { state, since: null, until } }) as never;
    const milestones = new Milestones();
    const progress = [racer(1, 10), racer(2, 10), racer(3, 10)];
    expect(milestones.news(progress, 1, [seat(1, 'online'), seat(2, 'online'), seat(3, 'online')])).toEqual([]);
    expect(milestones.news(progress, 1, [seat(1, 'online'), seat(2, 'reconnecting', 60_000), seat(3, 'reconnecting', 60_000)])).toEqual([
      'P2 lost their connection.',
      'P3 lost their connection.',
    ]);
    // A second later: the time left changed, nothing is said again.
    expect(milestones.news(progress, 1, [seat(1, 'online'), seat(2, 'reconnecting', 59_000), seat(3, 'reconnecting', 59_000)])).toEqual([]);
    expect(milestones.news(progress, 1, [seat(1, 'online'), seat(2, 'online'), seat(3, 'reconnecting', 58_000)])).toEqual(['P2 is back.']);
    const abandoned = [racer(1, 10), racer(2, 10), racer(3, 10, 'abandoned')];
    expect(milestones.news(abandoned, 1, [seat(1, 'online'), seat(2, 'online'), seat(3, 'gone')])).toEqual([]);
    // The player's own connection is never announced to themselves.
    expect(milestones.news(abandoned, 1, [seat(1, 'reconnecting', 1), seat(2, 'online'), seat(3, 'gone')])).toEqual([]);
  });
});

describe('settings kept in the browser', () => {
  it('reads what was saved and falls back field by field', () => {
    expect(parseSettings(null, [])).toEqual({ ...DEFAULT_SETTINGS, locale: 'en' });
    expect(parseSettings('not json', ['de'])).toEqual({ ...DEFAULT_SETTINGS, locale: 'en' });
    expect(parseSettings('{"theme":"dark","speed":"off","fourColour":true,"sound":"yes","autoPlayPractice":false}', [])).toEqual({
      ...DEFAULT_SETTINGS,
      locale: 'en',
      theme: 'dark',
      speed: 'off',
      fourColour: true,
      autoPlayPractice: false,
    });
    expect(parseSettings('{"theme":"purple"}', []).theme).toBe('system');
    expect(DEFAULT_SETTINGS.autoPlayRanked).toBe(false);
    expect(DEFAULT_SETTINGS.autoPlayPractice).toBe(true);
  });

  it('takes the language from the browser on a first visit, then keeps the one chosen', () => {
    expect(parseSettings(null, ['de-DE', 'fr-CA', 'es']).locale).toBe('fr');
    expect(parseSettings(null, ['en-US', 'it']).locale).toBe('en');
    expect(parseSettings(null, ['IT-it']).locale).toBe('it');
    expect(parseSettings(null, ['pt-BR', 'de']).locale).toBe('en');
    expect(parseSettings('{"locale":"es"}', ['it']).locale).toBe('es');
    expect(parseSettings('{"locale":"en-XA"}', ['it']).locale).toBe('en-XA');
    expect(parseSettings('{"locale":"de"}', ['it']).locale).toBe('it');
  });
});
