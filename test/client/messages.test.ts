// The message catalogues: the same keys in every locale, each a valid ICU message with the same
// arguments as English, none unused by the client, and every server refusal code written in each.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isStructurallySame, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contract/index.js';
import { PROBLEM_CODES, PROBLEM_PARAM_KINDS, PROBLEM_PARAMS, type Problem, type ProblemParamKind } from '../../shared/index.js';
import { around, LOCALES, setLocale, t, type MessageKey } from '../../client/src/lib/i18n.svelte.js';
import { problemWords } from '../../client/src/lib/moves.js';
import { refusalText } from '../../client/src/lib/refusals.js';
import { catalogueFiles, compileCatalogue, MESSAGES_DIR, readCatalogue } from '../../vite-messages.js';

const CLIENT = join(import.meta.dirname, '..', '..', 'client', 'src');
const CATALOGUES = ['', 'rules/'] as const;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === MESSAGES_DIR ? [] : sources(path);
    return /\.(svelte|ts)$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

afterAll(() => setLocale('en', [], 'every'));

describe('the message catalogues', () => {
  for (const folder of CATALOGUES) {
    const english = readCatalogue(`${folder}en`);

    it(`${folder || 'app/'}: every locale has exactly the English keys`, () => {
      expect(Object.keys(english).length).toBeGreaterThan(folder ? 20 : 200);
      for (const locale of LOCALES) expect(Object.keys(readCatalogue(`${folder}${locale}`)).sort(), locale).toEqual(Object.keys(english).sort());
    });

    it(`${folder || 'app/'}: every message is ICU MessageFormat with the English arguments`, () => {
      for (const locale of LOCALES) {
        expect(() => compileCatalogue(`${folder}${locale}`)).not.toThrow();
        const catalogue = readCatalogue(`${folder}${locale}`);
        const different = Object.entries(english).filter(([key, text]) => !isStructurallySame(parse(text), parse(catalogue[key]!)).success);
        expect(different.map(([key]) => `${locale} ${key}`)).toEqual([]);
      }
    });
  }

  it('app/: keeps each key in the same file of every locale, none over 400 lines', () => {
    const parts = (locale: string) => Object.fromEntries(catalogueFiles(locale).map((file) => [basename(file), Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).sort()]));
    const english = parts('en');
    expect(Object.keys(english).length).toBeGreaterThan(1);
    for (const locale of LOCALES) expect(parts(locale), locale).toEqual(english);
    for (const locale of LOCALES) for (const file of catalogueFiles(locale)) expect(readFileSync(file, 'utf8').split('\n').length, file).toBeLessThanOrEqual(400);
  });

  it('has no key the client never uses', () => {
    const code = sources(CLIENT).join('\n');
    // A key built at run time (`status.${status}`) counts as used through its written prefix.
    const prefixes = [...code.matchAll(/`([a-z][a-z-]*\.[a-z-]*)\$\{/g)].map((match) => match[1]!);
    expect(prefixes).toContain('error.');
    const used = (key: string): boolean => code.includes(`'${key}'`) || prefixes.some((prefix) => key.startsWith(prefix));
    for (const folder of CATALOGUES) expect(Object.keys(readCatalogue(`${folder}en`)).filter((key) => !used(key)), folder).toEqual([]);
  });

  it('writes every server refusal code in every locale, and falls back to the server for a code it does not know', async () => {
    for (const locale of LOCALES) {
      await setLocale(locale, [], 'every');
      const written = new Set<string>();
      for (const code of ERROR_CODES) {
        const text = refusalText(code, 'SERVER TEXT');
        expect(text, `${locale} ${code}`).not.toBe('SERVER TEXT');
        expect(text, `${locale} ${code}`).not.toBe(`error.${code}`);
        written.add(text);
      }
      // Each code says something of its own.
      expect(written.size, locale).toBe(ERROR_CODES.length);
      expect(refusalText('a-code-from-a-newer-server', 'SERVER TEXT')).toBe('SERVER TEXT');
    }
  });

  it('writes every engine problem code in every locale, with exactly its parameters', async () => {
    const english = readCatalogue('en');
    /** The ICU arguments a message reads, at any depth. */
    const argumentsOf = (elements: ReturnType<typeof parse>): string[] =>
      elements.flatMap((element) => {
        const own = 'value' in element && element.type !== TYPE.literal ? [String(element.value)] : [];
        const options = 'options' in element ? Object.values(element.options).flatMap((option) => argumentsOf(option.value)) : [];
        return [...own, ...options];
      });
    for (const code of PROBLEM_CODES) {
      const text = english[`problem.${code}`];
      expect(text, code).toBeDefined();
      expect([...new Set(argumentsOf(parse(text!)))].sort(), code).toEqual([...PROBLEM_PARAMS[code]].sort());
    }
    // A sample of each kind of parameter, so every message is written once in each locale.
    const sample: { readonly [kind in ProblemParamKind]: unknown } = { card: 0, cards: [0, 13], number: 2, text: 'xyz', variant: 'merci', 'build-rule': 'same-suit-down', problem: { code: 'fan-empty', fan: 4 } };
    for (const locale of LOCALES) {
      await setLocale(locale, [], 'every');
      const written = new Set<string>();
      for (const code of PROBLEM_CODES) {
        const problem = { code, ...Object.fromEntries(PROBLEM_PARAMS[code].map((name) => [name, sample[PROBLEM_PARAM_KINDS[name]]])) } as unknown as Problem;
        const text = problemWords(problem);
        expect(text, `${locale} ${code}`).not.toMatch(/problem\.|build-rule\.|variant\.|\{/);
        written.add(text);
      }
      expect(written.size, locale).toBe(PROBLEM_CODES.length);
    }
  });

  it('writes the arguments a page draws itself (around()) in the order the page draws them, in every locale', async () => {
    const uses = [...sources(CLIENT).join('\n').matchAll(/around\('([a-z.-]+)', \[([^\]]*)\]/g)].map((match) => ({ key: match[1]!, slots: [...match[2]!.matchAll(/'(\w+)'/g)].map((slot) => slot[1]!) }));
    expect(uses.length).toBeGreaterThan(3);
    for (const locale of LOCALES) {
      await setLocale(locale, [], 'every');
      for (const { key, slots } of uses) {
        const pieces = around(key as MessageKey, slots);
        expect(pieces, `${locale} ${key}`).toHaveLength(slots.length + 1);
        // Each slot found once, in order: the marks split the message into exactly that many pieces.
        const marked = t(key as MessageKey, Object.fromEntries(slots.map((slot, i) => [slot, `@${i}@`])));
        expect([...marked.matchAll(/@(\d)@/g)].map((match) => Number(match[1])), `${locale} ${key}`).toEqual(slots.map((_, i) => i));
      }
    }
  });

  it('switches language as a whole', async () => {
    await setLocale('fr', ['en-US'], 'every');
    expect(t('settings.title')).toBe('Réglages');
    await setLocale('it', [], 'every');
    expect(t('settings.title')).toBe('Impostazioni');
  });
});
