/**
 * Lucie's words: one ICU MessageFormat catalogue per locale (`client/src/messages/LOCALE/*.json`,
 * compiled at build time by vite-messages.ts), only the active one loaded, and of it only the
 * parts drawn so far: the shell's words, and each page's own (`loadPageWords`, fetched with the
 * page's code before it is drawn, then those of what it draws later). `t(key, values)` reads the
 * active catalogue, so every text written with it follows a change of language.
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { formatMessage, type Value } from './icu.js';
import type people from '../messages/en/people.json';
import type play from '../messages/en/play.json';
import type race from '../messages/en/race.json';
import type words from '../messages/en/words.json';
import type rulesEn from '../messages/rules/en.json';
import WORDS from 'virtual:messages/words';
import { firstOffered, languageOf } from './contract.js';
import { laterPart, pageParts, SHARED_LATER_PART, SHELL_PART } from './word-parts.js';

export const LOCALES = ['en', 'es', 'fr', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
/** English with every message marked ⟦…⟧, to find text that bypasses the catalogue (never offered in Settings). */
export const PSEUDO_LOCALE = 'en-XA';
export type AnyLocale = Locale | typeof PSEUDO_LOCALE;
/** Each language named in itself, as the Settings menu offers them. */
export const LOCALE_NAMES: { readonly [locale in Locale]: string } = { en: 'English', es: 'Español', fr: 'Français', it: 'Italiano' };

/** The key of every message: the English catalogue defines them, the others must match (test/client/messages.test.ts). */
export type MessageKey = keyof typeof words | keyof typeof play | keyof typeof race | keyof typeof people;
export type RulesKey = keyof typeof rulesEn;
export type Values = Readonly<Record<string, Value>>;
type Catalogue = Readonly<Record<string, string | MessageFormatElement[]>>;
type Load = () => Promise<{ default: Catalogue }>;
type WordsModule = { readonly default: Catalogue };

const RULES: { readonly [locale in AnyLocale]: Load } = {
  en: () => import('virtual:messages/rules/en'),
  es: () => import('virtual:messages/rules/es'),
  fr: () => import('virtual:messages/rules/fr'),
  it: () => import('virtual:messages/rules/it'),
  'en-XA': () => import('virtual:messages/rules/en-XA'),
};

export const isLocale = (text: unknown): text is AnyLocale => text === PSEUDO_LOCALE || (LOCALES as readonly unknown[]).includes(text);

/** The first of the browser's languages Lucie speaks (`fr-CA` → `fr`); English when none. */
export const pickLocale = (languages: readonly string[]): Locale => firstOffered(languages, LOCALES) ?? 'en';

/**
 * The locale dates and numbers are written in: the browser's own variant of the chosen language
 * when it has one (`en-GB`, `es-MX`), else the language itself.
 */
export function intlLocale(locale: AnyLocale, languages: readonly string[]): string {
  const language = locale === PSEUDO_LOCALE ? 'en' : locale;
  return languages.find((tag) => languageOf(tag) === language) ?? language;
}

let active = $state.raw<{ locale: AnyLocale; intl: string; messages: Catalogue; rules: Catalogue | null }>({ locale: 'en', intl: 'en', messages: {}, rules: null });
/** The parts asked for (a change of language brings them all in the new one), those `active` holds, and those on their way. */
const asked = new Set<string>();
let held = new Set<string>();
let inFlight: Promise<unknown> = Promise.resolve();
const fetched = new Map<string, Promise<WordsModule>>();

/** One part of a language's words (`shell`, a route's name or `NAME-later`), fetched once. */
function fetchModule(locale: AnyLocale, part: string): Promise<WordsModule> {
  const id = `${locale}/${part}`;
  let loading = fetched.get(id);
  if (!loading) {
    // A part with no words (a page that draws nothing later) has no loader.
    const load = WORDS[locale]?.[part];
    loading = load ? load() : Promise.resolve({ default: {} });
    // A part that did not come (offline) is asked for again next time.
    loading.catch(() => fetched.delete(id));
    fetched.set(id, loading);
  }
  return loading;
}

async function fetchParts(locale: AnyLocale, parts: readonly string[]): Promise<Catalogue> {
  return Object.assign({}, ...(await Promise.all(parts.map((part) => fetchModule(locale, part)))).map((module) => module.default)) as Catalogue;
}

async function mergePart(locale: AnyLocale, part: string): Promise<void> {
  const { default: messages } = await fetchModule(locale, part);
  if (active.locale !== locale || held.has(part)) return;
  held = new Set([...held, part]);
  active = { ...active, messages: { ...active.messages, ...messages } };
}

/**
 * Brings the words page `name` (a route of routes.ts) shows beyond the shell's, in the active
 * language: those of its first paint, then (not waited for here) those of what it draws later,
 * which `wordsReady` waits for.
 */
export async function loadPageWords(name: string): Promise<void> {
  // `later`: the words several pages draw after their first paint (vite-message-use.ts).
  const [first, ...later] = pageParts(name);
  for (const part of [first!, ...later]) asked.add(part);
  const wanted = active.locale;
  await mergePart(wanted, first!);
  inFlight = Promise.allSettled([inFlight, ...later.map((part) => mergePart(wanted, part))]);
}

/** Settles once the words asked for so far have come: what a page draws after its first paint waits for it (lib/lazy.ts). */
export const wordsReady = (): Promise<unknown> => inFlight;

/** The active locale, and the one `Intl` formats with. */
export const locale = (): AnyLocale => active.locale;
export const formatLocale = (): string => active.intl;

function format(catalogue: Catalogue, key: string, values: Values | undefined): string {
  const message = catalogue[key];
  if (message === undefined) return key;
  return typeof message === 'string' ? message : formatMessage(message, active.intl, values);
}

/** Whether the active catalogue has `key` (a refusal code from a newer server may have no words yet). */
export const hasMessage = (key: string): key is MessageKey => key in active.messages;

/** The message `key` in the active language, its ICU arguments filled from `values`. */
export const t = (key: MessageKey, values?: Values): string => format(active.messages, key, values);

/** A text of the rules page: empty until `loadRules` has brought the active language's. */
export const rule = (key: RulesKey, values?: Values): string => (active.rules ? format(active.rules, key, values) : '');

/**
 * Makes `next` the active language: loads the shell's words, those of `pages` (route names; `every`
 * for all, as the tests want) and of every page asked for so far, then sets `<html lang>`.
 */
export async function setLocale(next: AnyLocale, languages: readonly string[] = globalThis.navigator?.languages ?? [], pages: readonly string[] | 'every' = []): Promise<void> {
  // The tests want every word at once: each page's, and what each draws later.
  const names = pages === 'every' ? Object.keys(WORDS[next] ?? {}).filter((part) => part !== SHELL_PART) : pages;
  for (const page of names) asked.add(page);
  // What those pages draw after their first paint is fetched now too, beside their first words (loadPageWords merges it).
  if (pages !== 'every' && pages.length > 0) for (const part of [...pages.map(laterPart), SHARED_LATER_PART]) fetchModule(next, part).catch(() => undefined);
  const first = [...asked];
  let messages = await fetchParts(next, [SHELL_PART, ...first]);
  // A page asked for its words while these came: it gets them in the new language too.
  const since = [...asked].filter((page) => !first.includes(page));
  if (since.length > 0) messages = { ...messages, ...(await fetchParts(next, since)) };
  held = new Set([...first, ...since]);
  active = { locale: next, intl: intlLocale(next, languages), messages, rules: null };
  if (globalThis.document) document.documentElement.lang = next === PSEUDO_LOCALE ? 'en' : next;
}

/** Brings the rules page's texts in the active language (kept apart: only that page needs them). */
export async function loadRules(): Promise<void> {
  const wanted = active.locale;
  const { default: rules } = await RULES[wanted]();
  if (active.locale === wanted) active = { ...active, rules };
}

/**
 * A message around arguments the page draws itself (a link, a code, emphasis): the texts before,
 * between and after them, so the sentence keeps its language's words. Every locale writes the
 * slots in the order given (`test/client/messages.test.ts` holds the keys used so).
 */
export function around(key: MessageKey, slots: readonly string[], values: Values = {}): string[] {
  const marked = t(key, { ...values, ...Object.fromEntries(slots.map((slot, i) => [slot, `\u0000${i}\u0000`])) });
  const pieces = marked.split(/\u0000\d+\u0000/);
  return slots.map((_, i) => pieces[i] ?? '').concat(pieces[slots.length] ?? '');
}
