// The messages a client catalogue must word: every refusal code and every engine problem, with
// its parameters; and the wire holds every refusal to exactly its code's parameters.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ERROR_PARAM_KINDS,
  ERROR_PARAMS,
  errorMessage,
  errorParamsMatch,
  httpError,
  MESSAGE_KEYS,
  MESSAGE_PARAM_KINDS,
  MESSAGES,
  problemMessage,
  refusalMessage,
} from '../../contract/index.js';
import { buildApp } from '../../server/app.js';
import { PROBLEM_CODES, PROBLEM_PARAM_KINDS, PROBLEM_PARAMS } from '../../shared/index.js';

describe('the message keys', () => {
  it('are every error code and every engine problem code, once each', () => {
    expect(MESSAGE_KEYS).toEqual([...ERROR_CODES.map((code) => `error.${code}`), ...PROBLEM_CODES.map((code) => `problem.${code}`)]);
    expect(new Set(MESSAGE_KEYS).size).toBe(MESSAGE_KEYS.length);
  });

  it('carry their code’s parameter names, each of one kind across both families', () => {
    for (const code of ERROR_CODES) expect(MESSAGES[`error.${code}`]).toEqual(ERROR_PARAMS[code]);
    for (const code of PROBLEM_CODES) expect(MESSAGES[`problem.${code}`]).toEqual(PROBLEM_PARAMS[code]);
    for (const names of Object.values(MESSAGES)) for (const name of names) expect(Object.keys(MESSAGE_PARAM_KINDS), name).toContain(name);
    const shared = Object.keys(ERROR_PARAM_KINDS).filter((name) => name in PROBLEM_PARAM_KINDS);
    for (const name of shared) {
      expect(ERROR_PARAM_KINDS[name as keyof typeof ERROR_PARAM_KINDS], name).toBe(PROBLEM_PARAM_KINDS[name as keyof typeof PROBLEM_PARAM_KINDS]);
    }
  });

  it('turn a refusal and a problem into a key and its parameters', () => {
    expect(refusalMessage({ code: 'race-full', params: { race: 'ABC234', seats: 2 } })).toEqual({ key: 'error.race-full', params: { race: 'ABC234', seats: 2 } });
    expect(problemMessage({ code: 'fan-empty', fan: 3 })).toEqual({ key: 'problem.fan-empty', params: { fan: 3 } });
  });
});

describe('refusals on the wire', () => {
  const http = (code: string, params: object) => httpError.safeParse({ statusCode: 409, code, message: 'no', params });

  it('hold exactly their code’s parameters', () => {
    expect(http('race-full', { race: 'ABC234', seats: 2 }).success).toBe(true);
    expect(http('unauthorized', {}).success).toBe(true);
    expect(http('race-full', { race: 'ABC234' }).success).toBe(false);
    expect(http('race-full', { race: 'ABC234', seats: 2, extra: 1 }).success).toBe(false);
    expect(http('unauthorized', { field: 'token' }).success).toBe(false);
    const socket = errorMessage.parse({ type: 'error', code: 'illegal-action', message: 'no', params: { action: '1>1', problem: { code: 'own-fan' } } });
    expect(errorParamsMatch(socket)).toBe(true);
    expect(errorParamsMatch({ ...socket, params: { action: '1>1' } })).toBe(false);
  });
});

describe('input refusals', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, rateLimits: false });
    await app.ready();
  });
  afterAll(async () => app.close());
  const post = async (url: string, payload: unknown, token?: string) =>
    (await app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} })).json();

  it('name the field, the rule broken and its bounds', async () => {
    expect((await post('/api/players', { name: '  ' })).params).toEqual({ field: 'name', issue: 'name-length', min: 1, max: 24 });
    expect((await post('/api/players', { name: 'a\u0007' })).params).toEqual({ field: 'name', issue: 'name-printable', min: null, max: null });
    const { token } = await post('/api/players', { name: 'Ana' });
    expect((await post('/api/races', { seats: 9 }, token)).params).toEqual({ field: 'seats', issue: 'too_big', min: null, max: 8 });
    expect((await post('/api/races', { seats: 1 }, token)).params).toEqual({ field: 'seats', issue: 'too_small', min: 2, max: null });
    expect((await post('/api/races', { speed: 1 }, token)).params).toEqual({ field: 'speed', issue: 'unrecognized_keys', min: null, max: null });
    const day = (await app.inject({ method: 'GET', url: '/api/daily/2026-02-30' })).json();
    expect(day).toMatchObject({ code: 'invalid-param', params: { field: 'day', issue: 'no-such-day' } });
  });
});
