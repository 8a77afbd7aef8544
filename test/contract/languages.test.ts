import { describe, expect, it } from 'vitest';
import { acceptedLanguages, firstOffered, languageOf } from '../../contract/index.js';
import { pickLocale } from '../../client/src/lib/i18n.svelte.js';

const OFFERED = ['en', 'es', 'fr', 'it'] as const;

describe('the language a browser asks for', () => {
  it('reads a tag as its language, whatever its region or case', () => {
    expect(['fr-CA', 'FR', ' fr ', 'fr-Latn-FR'].map(languageOf)).toEqual(['fr', 'fr', 'fr', 'fr']);
  });

  it('takes the first language offered, skipping those that are not', () => {
    expect(firstOffered(['de-DE', 'it-CH', 'fr'], OFFERED)).toBe('it');
    expect(firstOffered(['de', 'pt-BR'], OFFERED)).toBeUndefined();
    expect(firstOffered([], OFFERED)).toBeUndefined();
  });

  it('orders an Accept-Language header by weight, then by order, without what it refuses', () => {
    expect(acceptedLanguages('de;q=0.9, es-MX, fr;q=0.95, it;q=0')).toEqual(['es-MX', 'fr', 'de']);
    expect(acceptedLanguages('en-GB;q=0.5,fr-FR;q=0.5')).toEqual(['en-GB', 'fr-FR']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages(' , ;q=1')).toEqual([]);
  });

  it('gives the client and the server the same language for the same browser', () => {
    const browsers = [['it-IT', 'en-US'], ['de-DE', 'es'], ['pt-BR'], ['fr-CA', 'fr']];
    for (const languages of browsers) {
      const header = languages.map((tag, index) => `${tag};q=${(1 - index / 10).toFixed(1)}`).join(', ');
      expect(firstOffered(acceptedLanguages(header), OFFERED) ?? 'en').toBe(pickLocale(languages));
    }
    expect(browsers.map(pickLocale)).toEqual(['it', 'es', 'en', 'fr']);
  });
});
