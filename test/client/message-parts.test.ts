// The catalogue split by where its words are shown (vite-message-use.ts, vite-messages.ts): the
// shell's, each page's first paint's, and what each page draws later, so a page's first load
// brings only the words it shows at once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../client/src/lib/routes.js';
import { CLIENT_SRC, keysUsed, pageViews, reachedFrom, wordsByPart } from '../../vite-message-use.js';
import { MESSAGES_DIR, readCatalogue } from '../../vite-messages.js';

const KEYS = Object.keys(readCatalogue('en'));
const { parts, files } = wordsByPart(KEYS);
const prefixed = (part: string, prefix: string): string[] => [...parts[part]!].filter((key) => key.startsWith(prefix));
/** What page `name` draws after its first paint: its own later part, and what several pages draw later. */
const drawnLater = (name: string, prefix: string): string[] => [...prefixed(`${name}-later`, prefix), ...prefixed('later', prefix)];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === MESSAGES_DIR ? [] : sources(path);
    return /\.(svelte|ts)$/.test(entry.name) ? [path] : [];
  });
}

describe('the catalogue parts', () => {
  it('has the shell, two parts per route (its first paint, what it draws later) and what several pages draw later, each route drawn by a view of src/pages.ts', () => {
    expect(Object.keys(pageViews()).sort()).toEqual(Object.keys(ROUTES).sort());
    expect(Object.keys(parts).sort()).toEqual(['shell', 'later', ...Object.keys(ROUTES).flatMap((name) => [name, `${name}-later`])].sort());
    // One copy of each word drawn later: in `later` when several pages draw it, else in its page's.
    const laters = Object.keys(ROUTES).flatMap((name) => [...parts[`${name}-later`]!]);
    expect(laters.length).toBe(new Set(laters).size);
    expect(laters.filter((key) => parts['later']!.has(key))).toEqual([]);
    expect(parts['later']!.size).toBeGreaterThan(20);
  });

  it('gives the shell the header, titles, settings and every refusal', () => {
    expect(parts['shell']!.size).toBeGreaterThan(50);
    expect([...parts['shell']!]).toEqual(expect.arrayContaining(['nav.race', 'title.site', 'settings.title', 'settings.theme-dark', 'offline.title']));
    // `error.${code}` in refusals.ts: a template counts every key of its prefix.
    expect(prefixed('shell', 'error.')).toHaveLength(KEYS.filter((key) => key.startsWith('error.')).length);
    // What most pages show at once (lib/format.ts's words) is the shell's, in one copy.
    expect(prefixed('shell', 'variant.')).toHaveLength(KEYS.filter((key) => key.startsWith('variant.')).length);
    expect([...reachedFrom(join(CLIENT_SRC, 'main.ts'))].some((file) => file.endsWith('format.ts'))).toBe(false);
  });

  it("leaves the shell's words out of every page's parts, and a page's first words out of its later ones; no page reaches another's view", () => {
    expect([...parts['later']!].filter((key) => parts['shell']!.has(key))).toEqual([]);
    for (const name of Object.keys(ROUTES)) {
      expect([...parts[name]!, ...parts[`${name}-later`]!].filter((key) => parts['shell']!.has(key)), name).toEqual([]);
      expect([...parts[`${name}-later`]!].filter((key) => parts[name]!.has(key)), name).toEqual([]);
    }
    const views = new Set(Object.values(pageViews()));
    for (const [name, view] of Object.entries(pageViews())) expect([...reachedFrom(view)].filter((file) => file !== view && views.has(file)), name).toEqual([]);
    expect([...reachedFrom(join(CLIENT_SRC, 'main.ts'))].filter((file) => views.has(file))).toEqual([]);
  });

  it('puts the words of what a page draws later (a lazily drawn component) in its later part, never those of a page it does not show', () => {
    // The game page draws its result first, the replayer and the analysis once the record has come.
    expect(prefixed('game', 'game.').length).toBeGreaterThan(5);
    expect(prefixed('game', 'replayer.')).toEqual([]);
    expect(drawnLater('game', 'replayer.').length).toBeGreaterThan(5);
    expect(prefixed('game-later', 'analysis.').length).toBeGreaterThan(5);
    // The practice board comes after the page's tools; a race's standings once it is over.
    expect(drawnLater('practice', 'board.').length).toBeGreaterThan(10);
    expect(prefixed('race', 'race-page.').length).toBeGreaterThan(5);
    expect(drawnLater('race', 'standings.').length).toBeGreaterThan(3);
    // The start page draws no board, the link page no lobby.
    expect([...prefixed('start', 'board.'), ...prefixed('start-later', 'board.')]).toEqual([]);
    expect([...prefixed('link', 'lobby.'), ...prefixed('link-later', 'series.')]).toEqual([]);
  });

  it("leaves no word out: each key is the shell's or some page's", () => {
    const shown = new Set(Object.values(parts).flatMap((keys) => [...keys]));
    expect(KEYS.filter((key) => !shown.has(key))).toEqual([]);
  });

  it('fetches every module of a page at run time through lazy() or later() (lib/lazy.ts), which wait for its later words', () => {
    const own = new Set([join(CLIENT_SRC, 'pages.ts'), join(CLIENT_SRC, 'lib', 'i18n.svelte.ts'), join(CLIENT_SRC, 'vite-env.d.ts')]);
    const loose = sources(CLIENT_SRC)
      .filter((file) => !own.has(file))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/(.{0,20})\bimport\(\s*['"](\.[^'"]+)['"]/g)].filter((match) => !/(lazy|later)\(\(\) => $/.test(match[1]!)).map((match) => `${file}: ${match[2]}`));
    expect(loose).toEqual([]);
    // The check sees the pages' imports, so it can fail.
    expect(readFileSync(join(CLIENT_SRC, 'views', 'GamePage.svelte'), 'utf8')).toMatch(/later\(\(\) => import\('\.\.\/lib\/game-replay\.js'\)\)/);
  });

  it('reads keys from literals and templates only where a file writes them', () => {
    const practice = join(CLIENT_SRC, 'views', 'Practice.svelte');
    const used = keysUsed([practice], KEYS);
    expect(used.has('practice.too-large')).toBe(true);
    expect([...used].some((key) => key.startsWith('lobby.'))).toBe(false);
    expect(files.has(practice)).toBe(true);
  });
});
