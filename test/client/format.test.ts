// The client's formatting of times and days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { addDays } from '../../contract/index.js';
import { cardSpoken } from '../../client/src/lib/card-names.js';
import { cards, duration, eventText, formatDay, oneDecimal, percent, sentence, statusText, variantName } from '../../client/src/lib/format.js';
import { cardOf } from '../../shared/index.js';

beforeAll(() => setLocale('en', ['en-GB'], 'every'));

describe('format', () => {
  it('writes durations in minutes and seconds, with tenths for ranked times', () => {
    expect(duration(0)).toBe('0:00');
    expect(duration(247_900)).toBe('4:07');
    expect(duration(247_900, true)).toBe('4:07.9');
    expect(duration(3_723_040, true)).toBe('1:02:03.0');
    expect(duration(-5, true)).toBe('0:00.0');
  });

  it('walks UTC days across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(formatDay('2026-11-29')).toBe('Sunday, 29 November 2026');
  });

  it('starts a server message as a sentence', () => {
    expect(sentence('you have played the daily deal')).toBe('You have played the daily deal');
  });
});

describe('format in each language', () => {
  afterAll(() => setLocale('en', ['en-GB'], 'every'));
  const racer = { id: 3, name: 'Bo' };

  it('writes plurals by CLDR rules, and days, times, rates and averages by Intl', async () => {
    const cases = {
      en: { languages: ['en-GB'], one: '1 card', many: '12 cards', day: 'Sunday, 29 November 2026', rate: '6.0%', tenths: '4:07.9', average: '31.5' },
      es: { languages: ['es-ES'], one: '1 carta', many: '12 cartas', day: 'domingo, 29 de noviembre de 2026', rate: '6,0\u00a0%', tenths: '4:07,9', average: '31,5' },
      fr: { languages: ['fr-FR'], one: '1 carte', many: '12 cartes', day: 'dimanche 29 novembre 2026', rate: '6,0\u00a0%', tenths: '4:07,9', average: '31,5' },
      it: { languages: ['it-IT'], one: '1 carta', many: '12 carte', day: 'domenica 29 novembre 2026', rate: '6,0%', tenths: '4:07,9', average: '31,5' },
    } as const;
    for (const [locale, expected] of Object.entries(cases)) {
      await setLocale(locale as keyof typeof cases, expected.languages, 'every');
      expect(cards(1)).toBe(expected.one);
      expect(cards(12)).toBe(expected.many);
      expect(formatDay('2026-11-29')).toBe(expected.day);
      expect(percent(0.06)).toBe(expected.rate);
      expect(duration(247_900, true)).toBe(expected.tenths);
      expect(oneDecimal(31.47)).toBe(expected.average);
    }
  });

  it('writes a US English date for an American browser', async () => {
    await setLocale('en', ['en-US', 'fr'], 'every');
    expect(formatDay('2026-11-29')).toBe('Sunday, November 29, 2026');
  });

  it('chooses words by who did it (ICU select) and names cards in each language', async () => {
    await setLocale('es', [], 'every');
    expect(eventText({ kind: 'left', player: racer, at: 0 }, 3)).toBe('Has salido de la sala.');
    expect(eventText({ kind: 'left', player: racer, at: 0 }, 9)).toBe('Bo ha salido de la sala.');
    expect(eventText({ kind: 'left', player: null, at: 0 }, 9)).toBe('Alguien ha salido de la sala.');
    expect(cardSpoken(cardOf(1, 11))).toBe('Reina de diamantes');
    await setLocale('fr', [], 'every');
    expect(eventText({ kind: 'kicked', player: racer, at: 0 }, 9)).toBe('L’hôte a retiré Bo du salon.');
    expect(cardSpoken(cardOf(0, 10))).toBe('Valet de trèfle');
    expect(statusText('out-of-moves')).toBe('plus de coups');
    await setLocale('it', [], 'every');
    expect(cardSpoken(cardOf(3, 0))).toBe('Asso di picche');
    expect(variantName('no-redeal')).toBe('Senza rimescolamento');
    await setLocale('en', [], 'every');
    expect(cardSpoken(cardOf(2, 9))).toBe('10 of hearts');
    expect(eventText({ kind: 'unseated', player: racer, at: 0 }, 3)).toBe('You lost your seat: away for longer than the grace period.');
  });
});
