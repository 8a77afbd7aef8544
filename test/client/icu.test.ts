// The client's ICU writer over formatjs's parsed messages: each construct the catalogues use.
import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../client/src/lib/icu.js';
import { listFormat, numberFormat, pluralRules } from '../../client/src/lib/intl.js';

const write = (text: string, locale: string, values?: Record<string, string | number>): string => formatMessage(parse(text), locale, values);

describe('formatMessage', () => {
  it('fills arguments and writes numbers the locale’s way', () => {
    expect(write('{name} has {n, number} cards', 'en', { name: 'Bo', n: 1234 })).toBe('Bo has 1,234 cards');
    expect(write('{n, number}', 'fr', { n: 1234.5 })).toBe('1\u202f234,5');
    expect(write('{n}', 'it', { n: 1234 })).toBe('1234');
    expect(write('{n}', 'es', { n: 12345 })).toBe('12.345');
  });

  it('chooses plural forms by CLDR rules, exact cases first, with # as the number', () => {
    const cards = '{n, plural, =0 {no card} one {# card} other {# cards}}';
    expect([0, 1, 2, 1000].map((n) => write(cards, 'en', { n }))).toEqual(['no card', '1 card', '2 cards', '1,000 cards']);
    // French counts 0 and 1 as one; Italian and Spanish only 1.
    const fr = '{n, plural, one {# carte} other {# cartes}}';
    expect([0, 1, 2].map((n) => write(fr, 'fr', { n }))).toEqual(['0 carte', '1 carte', '2 cartes']);
    const it = '{n, plural, one {# carta} other {# carte}}';
    expect([0, 1, 2].map((n) => write(it, 'it', { n }))).toEqual(['0 carte', '1 carta', '2 carte']);
    expect(write('{n, plural, offset:1 one {you and # other} other {you and # others}}', 'en', { n: 3 })).toBe('you and 2 others');
  });

  it('writes ordinals and selects, nested', () => {
    const rank = '{r, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}';
    expect([1, 2, 3, 4, 11, 22].map((r) => write(rank, 'en', { r }))).toEqual(['1st', '2nd', '3rd', '4th', '11th', '22nd']);
    const who = '{who, select, you {You have {n, plural, one {# card} other {# cards}}} other {{name} has #}}';
    expect(write(who, 'en', { who: 'you', n: 1 })).toBe('You have 1 card');
    expect(write(who, 'en', { who: 'them', name: 'Bo', n: 2 })).toBe('Bo has #');
  });

  it('refuses what the catalogues do not use rather than write it wrong', () => {
    expect(() => write('{d, date, short}', 'en', { d: 0 })).toThrow('unsupported ICU element 3');
  });
});

describe('whole numbers below 1000', () => {
  it('are written as the locale formatter would, in every language and region a player may have', () => {
    for (const locale of ['en', 'en-GB', 'en-US', 'en-IN', 'es', 'es-ES', 'es-MX', 'es-419', 'fr', 'fr-FR', 'fr-CA', 'fr-CH', 'it', 'it-IT', 'it-CH']) {
      const formatter = new Intl.NumberFormat(locale);
      for (let n = 0; n < 1000; n++) expect(write('{n, number}', locale, { n }), locale).toBe(formatter.format(n));
      expect(write('{n, number}', locale, { n: 1000 }), locale).toBe(formatter.format(1000));
    }
  });
});

describe('the formatters', () => {
  it('are made once per locale and options, and each formats its own way', () => {
    expect(numberFormat('fr')).toBe(numberFormat('fr'));
    expect(numberFormat('fr')).not.toBe(numberFormat('en'));
    expect(numberFormat('en', { style: 'percent' })).not.toBe(numberFormat('en'));
    expect(numberFormat('en', { style: 'percent' }).format(0.5)).toBe('50%');
    expect(numberFormat('en').format(0.5)).toBe('0.5');
    expect(pluralRules('en', { type: 'ordinal' })).toBe(pluralRules('en', { type: 'ordinal' }));
    expect(pluralRules('en', { type: 'ordinal' }).select(2)).toBe('two');
    expect(pluralRules('en').select(2)).toBe('other');
    expect(listFormat('es', { type: 'disjunction' }).format(['a', 'b'])).toBe('a o b');
  });
});
