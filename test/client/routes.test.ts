import { beforeAll, describe, expect, it } from 'vitest';
import { pageOf } from '../../contract/index.js';
import { setLocale } from '../../client/src/lib/i18n.svelte.js';
import { href, matchRoute, practiceHref, ROUTES } from '../../client/src/lib/routes.js';

beforeAll(() => setLocale('en', [], 'every'));

describe('the route table', () => {
  it('finds the page of each path with the props read from it', () => {
    expect(matchRoute('/')).toEqual({ name: 'start', props: {}, title: null, section: 'race', board: undefined });
    expect(matchRoute('/race/k7mq2x')).toEqual({ name: 'race', props: { code: 'K7MQ2X' }, title: 'Race K7MQ2X', section: 'race', board: 'play' });
    expect(matchRoute('/r/K7MQ2X/')?.props).toEqual({ code: 'K7MQ2X' });
    expect(matchRoute('/race/K7MQ2X/replay')).toMatchObject({ name: 'raceReplay', props: { code: 'K7MQ2X' }, title: 'Replay of race K7MQ2X', board: 'view' });
    expect(matchRoute('/series/abcdef')).toMatchObject({ name: 'series', props: { code: 'ABCDEF' }, section: undefined });
    expect(matchRoute('/daily')).toMatchObject({ name: 'daily', props: { day: null }, title: 'Daily seed' });
    expect(matchRoute('/daily/2026-11-29')).toMatchObject({ name: 'daily', props: { day: '2026-11-29' }, title: 'Daily 2026-11-29' });
    expect(matchRoute('/game/42')).toMatchObject({ name: 'game', props: { id: 42 }, section: 'history' });
    expect(matchRoute('/player/7')).toMatchObject({ name: 'player', props: { id: 7 }, title: 'Player record' });
    expect(matchRoute('/replay')).toMatchObject({ name: 'openRecord', section: 'record' });
    expect(matchRoute('/ratings')).toMatchObject({ name: 'ratings', props: { variant: null }, title: 'Ratings' });
    expect(matchRoute('/ratings/merci')).toMatchObject({ name: 'ratings', props: { variant: 'merci' } });
  });

  it('finds nothing where no page lives', () => {
    for (const path of ['/nowhere', '/race/ABC', '/race/ABCDEFG', '/game/0', '/game/x', '/daily/today', '/practice/more', '/r/ABCDEF/replay', '//']) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });

  it('builds every link from the same patterns, and reads it back', () => {
    expect(href('start')).toBe('/');
    expect(href('daily')).toBe('/daily');
    expect(href('daily', { day: null })).toBe('/daily');
    expect(href('daily', { day: '2026-11-29' })).toBe('/daily/2026-11-29');
    expect(href('raceReplay', { code: 'K7MQ2X' })).toBe('/race/K7MQ2X/replay');
    expect(href('game', { id: 12 })).toBe('/game/12');
    expect(practiceHref('a b&c', 'merci')).toBe('/practice?seed=a+b%26c&variant=merci');
    expect(new URLSearchParams(practiceHref('a b&c', 'merci').split('?')[1]).get('seed')).toBe('a b&c');
    const samples = { code: 'ABC123', day: '2026-01-02', id: 99, variant: 'merci' };
    for (const name of Object.keys(ROUTES) as (keyof typeof ROUTES)[]) {
      const link = (href as (name: string, params: object) => string)(name, samples);
      expect(matchRoute(link)?.name, link).toBe(name);
    }
  });

  it("names each page as the server does (contract/pages.ts), which answers it with the build's copy of index.html of that name", () => {
    const params = { code: 'ABCDEF', day: '2026-12-01', id: 12, variant: 'merci' };
    const names = Object.keys(ROUTES) as (keyof typeof ROUTES)[];
    for (const name of names) expect([name, pageOf((href as (name: string, params: object) => string)(name, params))]).toEqual([name, name]);
  });
});
