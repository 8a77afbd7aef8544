// One route table (contract/routes.ts): the server registers exactly its routes, server/API.md
// documents exactly them, and `routePath` writes their URLs.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_SCHEMAS, ROUTES, routePath, type RouteName } from '../../contract/index.js';
import { buildApp } from '../../server/app.js';

const tableRoutes = Object.values(ROUTES).map(({ method, path }) => `${method} ${path}`);

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, rateLimits: false });
  await app.ready();
});
afterAll(async () => app.close());

describe('the route table', () => {
  it('names each route once, with its schemas under the same name', () => {
    expect(new Set(tableRoutes).size).toBe(tableRoutes.length);
    expect(Object.keys(ROUTE_SCHEMAS).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('is what the server registers, no route more or less', () => {
    // HEAD routes are fastify's own copies of the GET ones.
    const registered = app.routeTable.routes.filter((route) => route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`);
    expect(registered.sort()).toEqual([...tableRoutes].sort());
  });

  it('is what server/API.md documents: every route has its row, and no row names a route that is gone', () => {
    const doc = readFileSync(new URL('../../server/API.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`?\s]+)[^`]*` \|/gm)].map((match) => `${match[1]} ${match[2]}`);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows.sort()).toEqual([...tableRoutes].sort());
  });

  it('writes URLs: parameters filled in and encoded, query entries that are defined', () => {
    expect(routePath('race', { code: 'ABC234' })).toBe('/api/races/ABC234');
    expect(routePath('dealSeries', { code: 'SER/1', deal: 7 })).toBe('/api/series/SER%2F1/deals/7');
    expect(routePath('leaderboard', { day: '2026-01-02' }, { offset: 50, limit: undefined })).toBe('/api/daily/2026-01-02/leaderboard?offset=50');
    expect(routePath('socket', {}, { token: 'a b' })).toBe('/ws?token=a%20b');
    expect(routePath('socket')).toBe('/ws');
    const names = Object.keys(ROUTES) as RouteName[];
    for (const name of names) expect(ROUTES[name].path.startsWith('/api/') || name === 'socket', name).toBe(true);
  });
});
