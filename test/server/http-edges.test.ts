// The HTTP edges: what Fastify refuses before a handler runs (routing, URL encoding, content
// types, body size) answers in the contract's error shape, with the code's own status, and
// changes nothing; query parameters are read by their schema, a repeated one included.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, httpError, type ErrorCode } from '../../contract/index.js';
import { buildApp } from '../../server/app.js';
import { createPlayer, createRace, dbState, type TestPlayer } from './helpers.js';

let app: FastifyInstance;
let ana: TestPlayer;
let code: string;
let before: unknown;

beforeAll(async () => {
  app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, countdownMs: 0, rateLimits: false });
  await app.ready();
  ana = await createPlayer(app, 'Ana');
  code = (await createRace(app, ana)).code;
  before = dbState(app);
});
afterAll(async () => app.close());

/** The answer, checked to be the contract's error shape with `code` and its status; nothing stored changed. */
async function refused(request: InjectOptions, code: ErrorCode) {
  const response = await app.inject(request);
  const body = httpError.parse(response.json());
  expect(body.code).toBe(code);
  expect(response.statusCode).toBe(ERROR_STATUS[code]);
  expect(body.statusCode).toBe(ERROR_STATUS[code]);
  expect(dbState(app)).toEqual(before);
  return { body, headers: response.headers };
}

const auth = () => ({ authorization: `Bearer ${ana.token}` });

describe('routing', () => {
  it('an unknown path is a 404 not-found', async () => {
    expect((await refused({ method: 'GET', url: '/api/nothing' }, 'not-found')).body.message).toBe('no route GET /api/nothing');
  });

  it('a known path with another method is a 405 naming the methods it answers', async () => {
    const { body, headers } = await refused({ method: 'DELETE', url: `/api/races/${code}` }, 'method-not-allowed');
    expect(headers.allow).toBe('GET, HEAD');
    expect(body.message).toBe(`/api/races/${code} answers GET, HEAD, not DELETE`);
    expect((await refused({ method: 'PUT', url: '/api/players' }, 'method-not-allowed')).headers.allow).toBe('POST');
    await refused({ method: 'OPTIONS', url: '/api/health' }, 'method-not-allowed');
  });

  it('a path parameter longer than any valid one is a 414', async () => {
    await refused({ method: 'GET', url: `/api/races/${'x'.repeat(300)}` }, 'uri-too-long');
  });

  it('a path that is not UTF-8 once decoded is a 400 bad-request', async () => {
    for (const url of ['/api/races/%C0%AE%C0%AE', '/api/games/%', '/api/daily/%FF']) {
      expect((await refused({ method: 'GET', url }, 'bad-request')).body.message).toMatch(/not valid/);
    }
  });

  it('a plain HTTP request to the websocket route is a 426', async () => {
    await refused({ method: 'GET', url: '/ws' }, 'upgrade-required');
  });
});

describe('bodies', () => {
  it('a body that is not JSON is a 400 bad-json', async () => {
    const headers = { 'content-type': 'application/json' };
    await refused({ method: 'POST', url: '/api/players', headers, payload: '{"name": "Ana"' }, 'bad-json');
    await refused({ method: 'POST', url: '/api/players', headers, payload: '{"__proto__": {"admin": true}, "name": "Ana"}' }, 'bad-json');
  });

  it('a body of another content type is a 415', async () => {
    const { body } = await refused({ method: 'POST', url: '/api/players', headers: { 'content-type': 'multipart/form-data' }, payload: 'name=Ana' }, 'unsupported-media-type');
    expect(body.message).toMatch(/application\/json/);
  });

  it('a body over the limit is a 413', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(20_000) });
    await refused({ method: 'POST', url: '/api/players', headers: { 'content-type': 'application/json' }, payload }, 'too-large');
  });

  it('a body breaking its schema names the field and the rule', async () => {
    const { body } = await refused({ method: 'POST', url: `/api/races/${code}/kick`, headers: auth(), payload: { playerId: 'Bob' } }, 'invalid-body');
    expect(body).toMatchObject({ field: 'playerId', message: 'playerId: Invalid input: expected number, received string' });
  });

  it('a JSON null is a body, and not an object: refused even where every field has a default', async () => {
    const { body } = await refused({ method: 'POST', url: '/api/races', headers: { ...auth(), 'content-type': 'application/json' }, payload: 'null' }, 'invalid-body');
    expect(body.message).toBe('the body is JSON null: send an object, or no body at all');
    // Sent with no body at all, the same request takes the defaults.
    const created = await app.inject({ method: 'POST', url: '/api/races', headers: auth() });
    expect(created.statusCode).toBe(201);
    expect(created.json().race).toMatchObject({ variant: 'strict', seats: 8, timeLimitSeconds: null });
    before = dbState(app);
  });
});

describe('query strings and path parameters', () => {
  it('a repeated parameter is a 400 naming it, on every route that reads one', async () => {
    for (const [url, field] of [
      ['/api/me/games?limit=5&limit=6', 'limit'],
      ['/api/me/games?offset=0&offset=1', 'offset'],
      ['/api/daily/2026-01-01/leaderboard?limit=5&limit=5', 'limit'],
      ['/ws?token=a&token=b', 'token'],
    ] as const) {
      const { body } = await refused({ method: 'GET', url, headers: auth() }, 'invalid-query');
      expect(body).toEqual({
        statusCode: 400,
        code: 'invalid-query',
        field,
        message: `${field}: give this parameter once`,
        params: { field, issue: 'repeated', min: null, max: null },
      });
    }
  });

  it('a malformed or unknown parameter is a 400 naming it', async () => {
    expect((await refused({ method: 'GET', url: '/api/me/games?limit=1e3', headers: auth() }, 'invalid-query')).body.field).toBe('limit');
    expect((await refused({ method: 'GET', url: '/api/me/games?limit=%zz', headers: auth() }, 'invalid-query')).body.field).toBe('limit');
    expect((await refused({ method: 'GET', url: '/api/me/games?page=2', headers: auth() }, 'invalid-query')).body).toMatchObject({
      field: 'page',
      message: 'page: unknown field (a typo?)',
    });
  });

  it('a path parameter breaking its schema names it', async () => {
    expect((await refused({ method: 'GET', url: '/api/races/abc' }, 'invalid-param')).body.field).toBe('code');
    expect((await refused({ method: 'GET', url: '/api/games/01' }, 'invalid-param')).body.field).toBe('id');
    expect((await refused({ method: 'GET', url: '/api/daily/2026-02-30' }, 'invalid-param')).body).toMatchObject({ field: 'day', message: 'day: no such day in the calendar' });
  });

  it('reads the parameters it was given, typed', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/me/games?limit=3&offset=1', headers: auth() });
    expect(response.json()).toMatchObject({ history: { limit: 3, offset: 1 } });
    expect((await app.inject({ method: 'GET', url: `/api/races/${code.toLowerCase()}` })).json().race.code).toBe(code);
  });
});
