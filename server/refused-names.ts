/**
 * The refused-words list names are checked against (on create and on an operator's rename). The
 * list is a text file (REFUSED_NAMES_FILE, or deploy/refused-names.txt): `[rule]` starts a
 * section, each other line is a word refused under that rule, `#` starts a comment. A name is
 * refused when, normalised, it contains a normalised word: case folded, accents removed, the
 * usual digit and symbol stand-ins read as letters (0→o, 1→i, 3→e, 4→a, 5→s, 7→t, @→a, $→s),
 * and everything but letters dropped, so `B.4-D w0rd` reads as `badword`. Light on purpose: it
 * catches the lazy disguises; an operator handles the rest from the reports.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Refusal } from './errors.js';

export const DEFAULT_REFUSED_NAMES_FILE = fileURLToPath(new URL('../deploy/refused-names.txt', import.meta.url));

const STAND_INS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'l' };

/** A name or a word as it is compared. */
export function normaliseName(text: string): string {
  return [...text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()]
    .map((char) => STAND_INS[char] ?? char)
    .filter((char) => /\p{L}/u.test(char))
    .join('');
}

/** The words of one rule, normalised. */
export interface RefusedRule {
  readonly rule: string;
  readonly words: readonly string[];
}

/** Reads the list's text; a line outside any section, or a section name that is not a slug, is refused with its line number. */
export function parseRefusedNames(text: string): RefusedRule[] {
  const rules: { rule: string; words: string[] }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const section = /^\[(.*)\]$/.exec(line);
    if (section) {
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(section[1]!)) throw new Error(`refused-names line ${index + 1}: a rule is [lowercase-words], not ${line}`);
      rules.push({ rule: section[1]!, words: [] });
      return;
    }
    const current = rules.at(-1);
    if (!current) throw new Error(`refused-names line ${index + 1}: a word before any [rule]`);
    const word = normaliseName(line);
    if (word !== '') current.words.push(word);
  });
  return rules;
}

export function loadRefusedNames(file: string): RefusedRule[] {
  return parseRefusedNames(readFileSync(file, 'utf8'));
}

/** The rule `name` breaks, or null. */
export function refusedRuleOf(rules: readonly RefusedRule[], name: string): string | null {
  const normal = normaliseName(name);
  return rules.find(({ words }) => words.some((word) => normal.includes(word)))?.rule ?? null;
}

/** Refuses `name` with `name-refused` and the rule it breaks; the word itself is not repeated back. */
export function refuseName(rules: readonly RefusedRule[], name: string): void {
  const rule = refusedRuleOf(rules, name);
  if (rule !== null) throw new Refusal('name-refused', `this name is refused by the rule "${rule}" of the names list: choose another`, { field: 'name', params: { field: 'name', category: rule } });
}
