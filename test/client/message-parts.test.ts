// The catalogue split by where its words are shown (vite-message-use.ts, vite-messages.ts): the
// shell's words and each page's own, so a page's first load brings only what it can show.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../client/src/lib/routes.js';
import { CLIENT_SRC, keysUsed, pageViews, reachedFrom, wordsByPart } from '../../vite-message-use.js';
import { readCatalogue, wordParts } from '../../vite-messages.js';

const KEYS = Object.keys(readCatalogue('en'));
const { parts, files } = wordsByPart(KEYS);
const prefixed = (part: string, prefix: string): string[] => [...parts[part]!].filter((key) => key.startsWith(prefix));

describe('the catalogue parts', () => {
  it('has the shell and one part per route, each route drawn by a view of src/pages.ts', () => {
    expect(Object.keys(pageViews()).sort()).toEqual(Object.keys(ROUTES).sort());
    expect(wordParts().sort()).toEqual(['shell', ...Object.keys(ROUTES)].sort());
    expect(Object.keys(parts).sort()).toEqual(wordParts().sort());
  });

  it('gives the shell the header, titles, settings and every refusal', () => {
    expect(parts['shell']!.size).toBeGreaterThan(50);
    expect([...parts['shell']!]).toEqual(expect.arrayContaining(['nav.race', 'title.site', 'settings.title', 'offline.title']));
    // `error.${code}` in refusals.ts: a template counts every key of its prefix.
    expect(prefixed('shell', 'error.')).toHaveLength(KEYS.filter((key) => key.startsWith('error.')).length);
  });

  it("leaves the shell's words out of every page's part, and no page reaches another page's view", () => {
    for (const name of Object.keys(ROUTES)) expect([...parts[name]!].filter((key) => parts['shell']!.has(key)), name).toEqual([]);
    const views = new Set(Object.values(pageViews()));
    for (const [name, view] of Object.entries(pageViews())) expect([...reachedFrom(view)].filter((file) => file !== view && views.has(file)), name).toEqual([]);
    expect([...reachedFrom(join(CLIENT_SRC, 'main.ts'))].filter((file) => views.has(file))).toEqual([]);
  });

  it("gives a page the words of what it draws later (a lazily drawn component's), never those of a page it does not show", () => {
    // The game page draws the replayer and the analysis once its record has come.
    expect(prefixed('game', 'replayer.').length).toBeGreaterThan(5);
    expect(prefixed('game', 'analysis.').length).toBeGreaterThan(5);
    expect(prefixed('practice', 'board.').length).toBeGreaterThan(10);
    // The start page draws no board, the link page no lobby.
    expect(prefixed('start', 'board.')).toEqual([]);
    expect(prefixed('link', 'lobby.')).toEqual([]);
    expect(prefixed('link', 'series.')).toEqual([]);
  });

  it('leaves no word out: each key is the shell\'s or some page\'s', () => {
    const shown = new Set(Object.values(parts).flatMap((keys) => [...keys]));
    expect(KEYS.filter((key) => !shown.has(key))).toEqual([]);
  });

  it('reads keys from literals and templates only where a file writes them', () => {
    const practice = join(CLIENT_SRC, 'views', 'Practice.svelte');
    const used = keysUsed([practice], KEYS);
    expect(used.has('practice.too-large')).toBe(true);
    expect([...used].some((key) => key.startsWith('lobby.'))).toBe(false);
    expect(files.has(practice)).toBe(true);
  });
});
