// The client's message catalogues, compiled when the client is built. Each catalogue
// (client/src/messages/LOCALE/*.json, its files merged here, and the rules page's
// client/src/messages/rules/LOCALE.json) is ICU MessageFormat text, parsed here by formatjs's ICU
// parser, which never ships: client/src/lib/icu.ts writes the parsed form. A message with no
// argument stays a plain string.
// A page's first load brings only the words it can show, so each language's app catalogue is
// split by where its words are shown (vite-message-use.ts reads the sources): `shell` (main.ts,
// App, the header, settings, refusals), one part per route (its view's first paint's words beyond
// the shell's) and `NAME-later` (those of what the page draws after it, its lazily drawn parts).
// `virtual:messages/words` is the table of their loaders, by locale then part (none for a part
// with no words); `virtual:messages/words/LOCALE/PART` is one part; `virtual:messages/rules/LOCALE` is the rules
// page's catalogue, whole; `virtual:messages/LOCALE` the whole app catalogue.
// `en-XA` is the pseudo-locale: English with every message wrapped in ⟦…⟧, generated here from
// en and never committed, so text that reaches the screen without the catalogue shows unmarked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';
import { wordsByPart } from './vite-message-use.js';

export const MESSAGES_DIR = join(import.meta.dirname, 'client', 'src', 'messages');
export const PSEUDO_LOCALE = 'en-XA';
const PREFIX = 'virtual:messages/';
const LOCALES = ['en', 'es', 'fr', 'it', PSEUDO_LOCALE] as const;

/** A message as the client holds it: the text itself when it has no argument, else its parsed form. */
export type CompiledMessage = string | MessageFormatElement[];

export function compileMessage(text: string, where: string): CompiledMessage {
  let elements: MessageFormatElement[];
  try {
    elements = parse(text);
  } catch (error) {
    throw new Error(`${where}: not ICU MessageFormat (${error instanceof Error ? error.message : String(error)})`);
  }
  if (elements.length === 0) return '';
  if (elements.length === 1 && elements[0]!.type === TYPE.literal) return elements[0]!.value;
  return elements;
}

/** The files catalogue `name` is written in: `NAME.json`, or every file of the folder `NAME/`. */
export function catalogueFiles(name: string): string[] {
  const file = join(MESSAGES_DIR, `${name}.json`);
  if (existsSync(file)) return [file];
  const folder = join(MESSAGES_DIR, name);
  return readdirSync(folder)
    .filter((entry) => entry.endsWith('.json'))
    .sort()
    .map((entry) => join(folder, entry));
}

/** The catalogue `name` (`en`, `rules/fr`) as written: key → ICU text; a key written in two of its files is an error. */
export function readCatalogue(name: string): Record<string, string> {
  const catalogue: Record<string, string> = {};
  for (const file of catalogueFiles(name)) {
    for (const [key, text] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)) {
      if (key in catalogue) throw new Error(`${file}: ${key} is written in another file of ${name} too`);
      catalogue[key] = text;
    }
  }
  return catalogue;
}

/** Every message of `name` compiled; `…/en-XA` is en's, each message marked. */
export function compileCatalogue(name: string): Record<string, CompiledMessage> {
  const pseudo = name.endsWith(PSEUDO_LOCALE);
  const source = readCatalogue(pseudo ? name.slice(0, -PSEUDO_LOCALE.length) + 'en' : name);
  return Object.fromEntries(Object.entries(source).map(([key, text]) => [key, compileMessage(pseudo ? `⟦${text}⟧` : text, `${name}.json ${key}`)]));
}

export function messages(): Plugin {
  // Which part shows which keys, read once per build (the sources do not change during one).
  let used: ReturnType<typeof wordsByPart> | undefined;
  // Each locale's catalogue compiled once per build, for its parts.
  const compiled = new Map<string, Record<string, CompiledMessage>>();
  return {
    name: 'lucie-messages',
    enforce: 'pre',
    buildStart() {
      used = undefined;
      compiled.clear();
    },
    watchChange() {
      used = undefined;
      compiled.clear();
    },
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const name = id.slice(PREFIX.length + 1);
      if (name === 'words') {
        used ??= wordsByPart(Object.keys(readCatalogue('en')));
        for (const path of used.files) this.addWatchFile(path);
        // An empty part (a page that draws nothing later) has no loader.
        const parts = Object.keys(used.parts).filter((part) => used!.parts[part]!.size > 0);
        const table = LOCALES.map((locale) => `${JSON.stringify(locale)}: {${parts.map((part) => `${JSON.stringify(part)}: () => import(${JSON.stringify(`${PREFIX}words/${locale}/${part}`)})`).join(', ')}}`);
        return `export default {${table.join(',\n')}};`;
      }
      const part = /^words\/([a-zA-Z-]+)\/(\w+(?:-later)?)$/.exec(name);
      if (part) {
        const [, locale, wanted] = part as unknown as [string, string, string];
        for (const path of catalogueFiles(locale === PSEUDO_LOCALE ? 'en' : locale)) this.addWatchFile(path);
        const catalogue = compiled.get(locale) ?? compileCatalogue(locale);
        compiled.set(locale, catalogue);
        used ??= wordsByPart(Object.keys(catalogue));
        // A source that comes to show another word changes the part it is in.
        for (const path of used.files) this.addWatchFile(path);
        const keys = used.parts[wanted];
        if (!keys) throw new Error(`virtual:messages: no part ${wanted} (a route of client/src/pages.ts, or shell)`);
        return `export default ${JSON.stringify(Object.fromEntries([...keys].sort().map((key) => [key, catalogue[key]])))};`;
      }
      const file = name.endsWith(PSEUDO_LOCALE) ? name.slice(0, -PSEUDO_LOCALE.length) + 'en' : name;
      for (const path of catalogueFiles(file)) this.addWatchFile(path);
      return `export default ${JSON.stringify(compileCatalogue(name))};`;
    },
  };
}
