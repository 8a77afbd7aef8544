// Which words of the catalogue each part of the client can show, read from its sources when the
// client is built (vite-messages.ts splits each language's catalogue so) and by the tests.
// A part is every source file reached from its first file through relative imports: a page's
// first paint through its static imports, what it draws later through `import()` too (a lazily
// drawn component, lib/lazy.ts). A key counts as shown when a file writes it as a string literal,
// and a template such as `status.${…}` counts every key starting `status.`. The shell (main.ts,
// App and what they import, its lazily drawn settings menu included) never reaches a page's view:
// those are imported by src/pages.ts alone, which the walk never enters.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { laterPart, SHARED_LATER_PART, SHELL_PART } from './client/src/lib/word-parts.js';

export const CLIENT_SRC = join(import.meta.dirname, 'client', 'src');
const PAGES = join(CLIENT_SRC, 'pages.ts');
/** The first file of the shell: its words come before any page's. */
export const SHELL = join(CLIENT_SRC, 'main.ts');

// A type-only import (`import type …`) brings no code, so no words.
const IMPORT = /(?:import|export)\s+(?!type\s)[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;
const LITERAL = /'([a-z0-9][a-z0-9.-]*)'|"([a-z0-9][a-z0-9.-]*)"/g;
const TEMPLATE = /`([a-z0-9-]+\.[a-z0-9.-]*)\$\{/g;

/** The view of each route, as src/pages.ts imports it: route name → its file. */
export function pageViews(): Record<string, string> {
  const text = readFileSync(PAGES, 'utf8');
  return Object.fromEntries([...text.matchAll(/(\w+): \(\) => import\('\.\/(views\/\w+\.svelte)'\)/g)].map(([, name, file]) => [name!, join(CLIENT_SRC, file!)]));
}

function resolveImport(from: string, spec: string): string | undefined {
  const path = resolve(dirname(from), spec);
  // `./x.js` is the source `./x.ts` (`./i18n.svelte.js` is `./i18n.svelte.ts`); a component is itself.
  for (const candidate of [path, path.replace(/\.js$/, '.ts')]) if (/\.(ts|svelte)$/.test(candidate) && existsSync(candidate)) return candidate;
  return undefined;
}

/**
 * Every source file `start` brings in, itself included, never src/pages.ts and the views behind
 * it; with `later`, those it fetches with `import()` too.
 */
export function reachedFrom(start: string, later = true): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || file === PAGES) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (match[2] && !later) continue;
      const target = resolveImport(file, (match[1] ?? match[2] ?? match[3])!);
      if (target) visit(target);
    }
  };
  visit(start);
  return seen;
}

/** The keys of `keys` the files can show. */
export function keysUsed(files: Iterable<string>, keys: readonly string[]): Set<string> {
  const known = new Set(keys);
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(LITERAL)) {
      const key = (match[1] ?? match[2])!;
      if (known.has(key)) used.add(key);
    }
    for (const match of text.matchAll(TEMPLATE)) for (const key of keys) if (key.startsWith(match[1]!)) used.add(key);
  }
  return used;
}

/**
 * The words of each part: `shell` (what main.ts reaches, and what most pages show at once), for each route the words its view's
 * first paint can show beyond the shell's (loaded whenever a page is drawn), and `NAME-later` those
 * of what it draws after, but for those several pages draw later, which are `later`'s; and every
 * file read for them.
 */
export function wordsByPart(keys: readonly string[]): { parts: Record<string, Set<string>>; files: Set<string> } {
  const shellFiles = reachedFrom(SHELL);
  const files = new Set([PAGES, ...shellFiles]);
  const shell = keysUsed(shellFiles, keys);
  const parts: Record<string, Set<string>> = { [SHELL_PART]: shell };
  const views = Object.entries(pageViews());
  const firsts = views.map(([, view]) => keysUsed(reachedFrom(view, false), keys));
  // Words most pages show at once (a game's status, a variant's name) are the shell's: one copy
  // for all, not one in each page's part (the few pages that do not show them load them anyway).
  for (const key of keys) if (firsts.filter((first) => first.has(key)).length * 2 > views.length) shell.add(key);
  views.forEach(([name, view], i) => {
    const reached = reachedFrom(view);
    reached.forEach((file) => files.add(file));
    const first = new Set([...firsts[i]!].filter((key) => !shell.has(key)));
    parts[name] = first;
    parts[laterPart(name)] = new Set([...keysUsed(reached, keys)].filter((key) => !shell.has(key) && !first.has(key)));
  });
  // What several pages draw later (the board, the replayer, the standings) is one part, `later`,
  // which every page brings after its first paint: one copy, not one in each page's later part.
  const laters = views.map(([name]) => parts[laterPart(name)]!);
  const shared = new Set(keys.filter((key) => laters.filter((later) => later.has(key)).length > 1));
  parts[SHARED_LATER_PART] = shared;
  for (const later of laters) for (const key of shared) later.delete(key);
  return { parts, files };
}
