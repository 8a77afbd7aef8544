// The one error vocabulary, walked: every code has its HTTP status, is produced somewhere in the
// server and is explained in server/API.md; every route answers errors in the contract's shape.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, httpError } from '../../contract/index.js';
import { buildApp } from '../../server/app.js';

const root = new URL('../..', import.meta.url).pathname;
const serverSource = readdirSync(join(root, 'server'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => readFileSync(join(root, 'server', file), 'utf8'))
  .join('\n');
const apiDoc = readFileSync(join(root, 'server/API.md'), 'utf8');

describe('the error codes', () => {
  it('each has one HTTP status, a client or server error', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(Number.isInteger(ERROR_STATUS[code]), code).toBe(true);
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
    }
  });

  it('each is produced by the server (a code nothing sends is dead)', () => {
    for (const code of ERROR_CODES) expect(serverSource.includes(`'${code}'`), `${code} is never sent`).toBe(true);
  });

  it('each is explained in server/API.md', () => {
    for (const code of ERROR_CODES) expect(apiDoc.includes(`\`${code}\``), `${code} is not documented`).toBe(true);
  });
});

describe('the routes', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null });
    await app.ready();
  });
  afterAll(async () => app.close());

  it('each answers its errors in the contract shape', () => {
    const routes = app.routeTable.routes;
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      expect(response?.['4xx'], `${route.method} ${route.url}`).toBe(httpError);
      expect(response?.['5xx'], `${route.method} ${route.url}`).toBe(httpError);
    }
  });
});
