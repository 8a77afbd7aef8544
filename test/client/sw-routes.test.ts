// How the service worker answers each request (client/sw/routes.ts): pages and this build's
// files from its cache when needed, finished games' replays per identity, and never the API or
// the websocket otherwise.
import { describe, expect, it } from 'vitest';
import { replayKey, strategyFor, viewerOf } from '../../client/sw/routes.js';

const ORIGIN = 'https://lucie.example';
const PRECACHED = new Set(['/index.html', '/assets/index-COZ6KvGN.js', '/icon-192.png']);
const get = (path: string, mode = 'cors') => ({ method: 'GET', url: `${ORIGIN}${path}`, mode });

describe('strategyFor', () => {
  it('answers navigations to any page of the app with the page strategy', () => {
    for (const path of ['/', '/practice?seed=abc&variant=strict', '/race/K7MQ2X', '/daily/2026-12-03', '/nowhere']) {
      expect(strategyFor(get(path, 'navigate'), ORIGIN, PRECACHED)).toBe('page');
    }
  });

  it("serves this build's files from its cache, and nothing else", () => {
    expect(strategyFor(get('/assets/index-COZ6KvGN.js'), ORIGIN, PRECACHED)).toBe('precached');
    expect(strategyFor(get('/icon-192.png', 'no-cors'), ORIGIN, PRECACHED)).toBe('precached');
    expect(strategyFor(get('/assets/index-OLDVERSN.js'), ORIGIN, PRECACHED)).toBe('network');
    expect(strategyFor(get('/assets/index-COZ6KvGN.js?v=2'), ORIGIN, PRECACHED)).toBe('network');
  });

  it('never touches the API, the websocket, other origins or anything but GET', () => {
    for (const path of ['/api/me', '/api/daily', '/api/races/K7MQ2X', '/api/me/games?offset=0', '/api/games/7/analysis', '/ws', '/api']) {
      expect(strategyFor(get(path), ORIGIN, PRECACHED), path).toBe('network');
      expect(strategyFor(get(path, 'navigate'), ORIGIN, PRECACHED), `navigate ${path}`).toBe('network');
    }
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/api/games/7`, mode: 'cors' }, ORIGIN, PRECACHED)).toBe('network');
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/practice`, mode: 'navigate' }, ORIGIN, PRECACHED)).toBe('network');
    expect(strategyFor(get('/assets/index-COZ6KvGN.js'), 'https://other.example', PRECACHED)).toBe('network');
  });

  it("keeps finished games' summaries and records and races' replays, by exact path only", () => {
    for (const path of ['/api/games/7', '/api/games/7/record', '/api/races/K7MQ2X/replay']) expect(strategyFor(get(path), ORIGIN, PRECACHED), path).toBe('replay');
    for (const path of ['/api/games/0', '/api/games/7/record/x', '/api/games/7?x=1', '/api/races/K7MQ2/replay']) {
      expect(strategyFor(get(path), ORIGIN, PRECACHED), path).toBe('network');
    }
  });
});

describe('replay keys', () => {
  it('name the viewer by a digest of the token, never the token, so each identity has its own copies', async () => {
    const alice = await viewerOf('Bearer alice-secret-token');
    const bob = await viewerOf('Bearer bob-secret-token');
    expect(alice).toMatch(/^[0-9a-f]{64}$/);
    expect(alice).not.toBe(bob);
    expect(alice).toBe(await viewerOf('Bearer alice-secret-token'));
    expect(await viewerOf(null)).toBe('anyone');
    expect(await viewerOf('Basic abc')).toBe('anyone');
    const key = replayKey(ORIGIN, '/api/games/7/record', alice);
    expect(key).toBe(`${ORIGIN}/__replays/${alice}/api/games/7/record`);
    expect(key).not.toContain('alice-secret-token');
    expect(replayKey(ORIGIN, '/api/games/7/record', bob)).not.toBe(key);
  });
});
