// The client's weight budget (issue #10): whichever page a visitor opens first, what it needs
// before its first paint (the entry, the page's own chunk and every chunk they import, never
// another page's, their styles, and the words it shows in the player's language) weighs at most
// BUDGET gzipped. Measured on a production build of its own, from
// Vite's manifest; the sizes depend only on the sources, so the test cannot be flaky. The same
// build checks the service worker written into it (scripts/service-worker-plugin.ts): it
// precaches exactly the files beside it, so every page opens offline.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASHED_ASSET } from '../../server/plugins/client.js';
import { LOCALES } from '../../client/src/lib/i18n.svelte.js';
import { pageViews, wordsByPart } from '../../vite-message-use.js';
import { readCatalogue } from '../../vite-messages.js';

const ROOT = join(import.meta.dirname, '..', '..');
// Issue 21's target. A page draws first what it shows at once; what comes later (the board while a
// race or a day is fetched, the standings, the leaderboard, the analysis, the settings menu) is its
// own chunk (client/src/lib/lazy.ts), so it is not counted here, nor are its words, which come with
// it. The words of the first paint are: client/src/main.ts loads the shell's and the page's
// (vite-messages.ts) before it, and the rules page its rules; counted in the heaviest language.
const BUDGET = 60_000;

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

let dir: string;
let manifest: Record<string, Chunk>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lucie-bundle-'));
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn', '--manifest', '--outDir', dir, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would make Vite compile Svelte's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every file loading `keys` brings in: their scripts, the scripts they import statically, and all their styles. */
function filesFor(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key]!;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/** What the entry and the chunks it imports statically (the shell, scripts/shell-chunk-plugin.ts) fetch with `import()`. */
function fetchedByShell(): string[] {
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  visit('index.html');
  return [...seen].flatMap((key) => manifest[key]!.dynamicImports ?? []);
}

const gzipped = (files: Set<string>): number => [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dir, file)), { level: 9 }).length, 0);

describe('the client bundle', () => {
  it('loads each page as its own chunk, so the entry carries no page', () => {
    const [entry] = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entry![0]).toBe('index.html');
    expect(fetchedByShell()).toEqual(
      expect.arrayContaining(['Practice', 'RaceReplay', 'RacePage', 'SeriesPage', 'DailyPage', 'GamePage', 'PlayerRecord', 'HistoryPage', 'OpenRecord', 'Start'].map((name) => `src/views/${name}.svelte`)),
    );
  });

  it('names every chunk after its content, so the server sends each precompressed and cached for good', () => {
    const files = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((file) => !HASHED_ASSET.test(file))).toEqual([]);
  });

  it("loads one language at a time, in parts (the shell's, each page's first paint's, what each draws later): never bundled into a page", () => {
    const words = Object.entries(manifest).filter(([key]) => key.includes('virtual:messages/'));
    // A chunk for each part with words, in each language (the pseudo-locale's included).
    const { parts } = wordsByPart(Object.keys(readCatalogue('en')));
    const expected = Object.keys(parts).filter((part) => parts[part]!.size > 0);
    expect(expected).toEqual(expect.arrayContaining(['shell', 'later', 'race', 'game', 'game-later']));
    for (const locale of [...LOCALES, 'en-XA']) expect(words.filter(([key]) => key.includes(`/words/${locale}/`)).map(([key]) => key.replace(/^.*\//, '')).sort(), locale).toEqual(expected.sort());
    const pages = fetchedByShell().filter((key) => key.startsWith('src/views/'));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect([...filesFor(['index.html', page])].filter((file) => words.some(([, chunk]) => chunk.file === file)), page).toEqual([]);
  });

  it('needs at most 60 KB gzipped for the first load of any page, its words counted in the heaviest language', () => {
    // A page with no words of its own beyond the shell's has no part.
    const wordsOf = (locale: string, part: string): string[] => [manifest[`../virtual:messages/${part === 'rules page' ? `rules/${locale}` : `words/${locale}/${part}`}`]?.file ?? []].flat();
    const weights: Record<string, { code: number; words: number; total: number }> = {};
    for (const [name, view] of Object.entries(pageViews())) {
      const code = filesFor(['index.html', `src/${view.slice(view.indexOf('views/'))}`]);
      const words = Math.max(...LOCALES.map((locale) => gzipped(new Set(['shell', name, ...(name === 'rules' ? ['rules page'] : [])].flatMap((part) => wordsOf(locale, part))))));
      weights[name] = { code: gzipped(code), words, total: gzipped(code) + words };
    }
    console.log(`gzipped bytes of each page's first load:\n${Object.entries(weights).map(([name, { code, words, total }]) => `  ${name.padEnd(11)} ${String(total).padStart(6)} (code ${code}, words ${words})`).join('\n')}`);
    expect(Object.keys(weights).length).toBeGreaterThan(10);
    const tooHeavy = Object.entries(weights).filter(([, { total }]) => total > BUDGET);
    expect(tooHeavy, `gzipped bytes per page: ${JSON.stringify(weights)}`).toEqual([]);
  });
});

describe("the shell's chunk", () => {
  it('holds everything the entry script imports statically: the entry, the shell and its styles are three files', () => {
    expect([...filesFor(['index.html'])].map((file) => file.replace(/-[\w-]{8,}\./, '.')).sort()).toEqual(['assets/app.css', 'assets/app.js', 'assets/index.js']);
  });
});

describe("the pages' copies of index.html", () => {
  const LINKS = /\s*<link rel="(?:modulepreload|stylesheet)" crossorigin href="[^"]+">/g;
  const named = (html: string): string[] => [...html.matchAll(/<link rel="(?:modulepreload|stylesheet)" crossorigin href="\/([^"]+)">/g)].map((link) => link[1]!);
  const copy = (locale: string, name: string): string => readFileSync(join(dir, 'pages', locale, `${name}.html`), 'utf8');

  it('are index.html with links added, each once, for each page in each language', () => {
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(readdirSync(join(dir, 'pages')).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) {
      for (const name of Object.keys(pageViews())) {
        const html = copy(locale, name);
        expect(html.replace(LINKS, ''), `${locale}/${name}`).toBe(index.replace(LINKS, ''));
        expect(new Set(named(html)).size, `${locale}/${name}`).toBe(named(html).length);
      }
    }
  });

  it("name the page's code, what it fetches at once and its words in that language, beside what index.html names", () => {
    const shell = filesFor(['index.html']);
    const wordsOf = (locale: string, parts: string[]): string[] => parts.flatMap((part) => manifest[`../virtual:messages/words/${locale}/${part}`]?.file ?? []);
    for (const locale of LOCALES) {
      const practice = named(copy(locale, 'practice')).filter((file) => !named(readFileSync(join(dir, 'index.html'), 'utf8')).includes(file));
      // The page, what it imports, and the board it fetches at once, each with its styles; the words it shows first and later.
      const code = [...filesFor(['src/views/Practice.svelte', 'src/lib/OwnGame.svelte'])].filter((file) => !shell.has(file));
      const words = wordsOf(locale, ['shell', 'practice', 'practice-later', 'later']);
      expect(words.length, locale).toBeGreaterThanOrEqual(3);
      expect(practice.sort(), locale).toEqual([...code, ...words].sort());
      expect(practice.filter((file) => /\/Board-/.test(file))).toHaveLength(2);
      // What a page fetches only when it draws it is left out: practice's solver worker.
      expect(practice.filter((file) => /solver/.test(file))).toEqual([]);
    }
  });
});

describe("the build's service worker", () => {
  it("precaches every file of the build but itself, the tools' files and the pages' copies of index.html, and loads the entry index.html loads", () => {
    const worker = readFileSync(join(dir, 'sw.js'), 'utf8');
    const listed = /\[("\/[^\]]*")\]/.exec(worker);
    expect(listed, 'a list of paths in sw.js').not.toBeNull();
    const precached = (JSON.parse(`[${listed![1]}]`) as string[]).sort();
    const built = readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${join(entry.parentPath, entry.name).slice(dir.length + 1)}`)
      .filter((path) => !path.startsWith('/.vite/') && !path.startsWith('/pages/') && path !== '/sw.js')
      .sort();
    expect(precached).toEqual(built);
    expect(precached).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icon-192.png', `/${manifest['index.html']!.file}`]));
    expect(worker).toContain(JSON.stringify(`/${manifest['index.html']!.file}`));
  });
});
