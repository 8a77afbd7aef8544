import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, redactToken } from '../../server/app.js';
import { devices, players } from '../../server/db/schema.js';
import { RACE_CODE_ALPHABET } from '../../contract/index.js';
import { api, createPlayer, createRace, dbState, setSeed, type TestPlayer } from './helpers.js';

let app: FastifyInstance;
beforeEach(async () => {
  app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null, countdownMs: 0 });
  await app.ready();
});
afterEach(async () => app.close());

describe('players', () => {
  it('gives a name a 256-bit token and stores only its SHA-256', async () => {
    const { status, body } = await api(app, 'POST', '/api/players', undefined, { name: '  Ana  ' });
    expect(status).toBe(201);
    expect(body.player).toEqual({ id: 1, name: 'Ana' });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app.db.select().from(players).all()).toHaveLength(1);
    const rows = app.db.select().from(devices).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(body.token).digest('hex'));
    expect(JSON.stringify(dbState(app))).not.toContain(body.token);
    const other = await api(app, 'POST', '/api/players', undefined, { name: 'Ana' });
    expect(other.body.token).not.toBe(body.token);
  });

  it.each([
    [{ name: '' }, 'name', /1-24 characters/],
    [{ name: '   ' }, 'name', /1-24 characters/],
    [{ name: 'x'.repeat(25) }, 'name', /1-24 characters/],
    [{ name: 'bell\u0007' }, 'name', /printable/],
    [{ name: 'zero\u200bwidth' }, 'name', /printable/],
    [{ name: 42 }, 'name', /expected string/],
    [{}, 'name', /expected string/],
    [{ name: 'Ana', admin: true }, 'admin', /unknown field/],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const before = dbState(app);
    const { status, body } = await api(app, 'POST', '/api/players', undefined, payload);
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, code: 'invalid-body', field });
    expect(body.message).toMatch(message);
    expect(dbState(app)).toEqual(before);
  });

  it('counts characters, not UTF-16 units', async () => {
    expect((await api(app, 'POST', '/api/players', undefined, { name: '♣'.repeat(24) })).status).toBe(201);
    expect((await api(app, 'POST', '/api/players', undefined, { name: '🂡'.repeat(24) })).status).toBe(201);
  });

  it('answers /api/me only with a valid bearer token', async () => {
    const ana = await createPlayer(app, 'Ana');
    expect(await api(app, 'GET', '/api/me', ana)).toEqual({ status: 200, body: { player: { id: ana.id, name: 'Ana' } } });
    expect((await api(app, 'GET', '/api/me')).body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect((await api(app, 'GET', '/api/me', { ...ana, token: ana.token.slice(1) })).status).toBe(401);
    const basic = await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Basic ${ana.token}` } });
    expect(basic.statusCode).toBe(401);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/players', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'bad-json' });
  });
});

describe('races over HTTP', () => {
  let ana: TestPlayer;
  let bob: TestPlayer;
  beforeEach(async () => {
    ana = await createPlayer(app, 'Ana');
    bob = await createPlayer(app, 'Bob');
  });

  it('creates a lobby with a short code, defaults strict and 8 seats, and needs a player', async () => {
    const race = await createRace(app, ana);
    expect(race).toMatchObject({
      variant: 'strict',
      seats: 8,
      timeLimitSeconds: null,
      state: 'lobby',
      creator: { id: ana.id, name: 'Ana' },
      racers: [{ id: ana.id, name: 'Ana' }],
      startsAt: null,
      progress: [],
      standings: null,
      seed: null,
    });
    expect(race.code).toMatch(new RegExp(`^[${RACE_CODE_ALPHABET}]{6}$`));
    expect((await api(app, 'GET', `/api/races/${race.code.toLowerCase()}`)).body.race).toEqual(race);
    expect((await api(app, 'POST', '/api/races', undefined, {})).status).toBe(401);
  });

  it('gives a race whose play can cycle a time limit by default', async () => {
    expect((await createRace(app, ana, { variant: 'super-flower-garden' })).timeLimitSeconds).toBe(30 * 60);
    expect((await createRace(app, ana, { variant: 'super-flower-garden', timeLimitSeconds: 600 })).timeLimitSeconds).toBe(600);
  });

  it.each([
    [{ variant: 'klondike' }, 'variant'],
    [{ seats: 1 }, 'seats'],
    [{ seats: 9 }, 'seats'],
    [{ seats: 2.5 }, 'seats'],
    [{ timeLimitSeconds: 5 }, 'timeLimitSeconds'],
    [{ seed: 'mine' }, 'seed'],
  ])('refuses race options %j naming the field', async (payload, field) => {
    const before = dbState(app);
    const { status, body } = await api(app, 'POST', '/api/races', ana, payload);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid-body', field });
    expect(dbState(app)).toEqual(before);
  });

  it('seats players up to the limit, once each, only in the lobby', async () => {
    const { code } = await createRace(app, ana, { seats: 2, variant: 'trefoil' });
    const joined = await api(app, 'POST', `/api/races/${code}/join`, bob);
    expect(joined.body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana', 'Bob']);
    expect((await api(app, 'POST', `/api/races/${code}/join`, bob)).body.race.racers).toHaveLength(2);
    const cid = await createPlayer(app, 'Cid');
    expect((await api(app, 'POST', `/api/races/${code}/join`, cid)).body).toMatchObject({ statusCode: 409, code: 'race-full' });
    expect((await api(app, 'POST', `/api/races/${code}/join`)).status).toBe(401);
    expect((await api(app, 'POST', '/api/races/ZZZZZZ/join', bob)).body).toMatchObject({ statusCode: 404, code: 'unknown-race' });
    expect((await api(app, 'GET', '/api/races/abc')).body).toMatchObject({ statusCode: 400, code: 'invalid-param', field: 'code' });
  });

  it('starts only by the creator, with two racers, once; never shows the seed before the end', async () => {
    const { code } = await createRace(app, ana, { seats: 3 });
    const seed = 'a-seed-long-enough-to-spot-anywhere';
    setSeed(app, code, seed);
    expect((await api(app, 'POST', `/api/races/${code}/start`, ana)).body).toMatchObject({ statusCode: 409, code: 'not-enough-racers' });
    await api(app, 'POST', `/api/races/${code}/join`, bob);
    expect((await api(app, 'POST', `/api/races/${code}/start`, bob)).body).toMatchObject({ statusCode: 403, code: 'not-creator' });
    const started = await api(app, 'POST', `/api/races/${code}/start`, ana);
    expect(started.body.race.state).toBe('countdown');
    expect((await api(app, 'POST', `/api/races/${code}/start`, ana)).body).toMatchObject({ statusCode: 409, code: 'not-in-lobby' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const running = await app.inject({ method: 'GET', url: `/api/races/${code}` });
    expect(running.json().race.state).toBe('running');
    expect(running.body).not.toContain(seed);
    const cid = await createPlayer(app, 'Cid');
    expect((await api(app, 'POST', `/api/races/${code}/join`, cid)).body.code).toBe('race-started');
  });
});

describe('the rest of the HTTP surface', () => {
  it('reports health', async () => {
    const { status, body } = await api(app, 'GET', '/api/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok' });
  });

  it('reports readiness', async () => {
    const { status, body } = await api(app, 'GET', '/api/ready');
    expect(status).toBe(200);
    expect(body).toEqual({ ready: true, closing: false, database: 'ok', redis: 'off' });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    expect((await api(app, 'GET', '/api/nothing')).body).toMatchObject({ statusCode: 404, code: 'not-found' });
  });

  it('keeps tokens out of logged URLs', () => {
    expect(redactToken('/ws?token=abc_DEF-1&x=1')).toBe('/ws?token=[redacted]&x=1');
    expect(redactToken('/ws?x=1&token=abc')).toBe('/ws?x=1&token=[redacted]');
  });

  it('serves the built client with a single-page fallback outside /api', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-client-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Lucie</title>');
      writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
      const withClient = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: dir });
      const get = (url: string) => withClient.inject({ method: 'GET', url });
      expect((await get('/')).body).toContain('<title>Lucie</title>');
      const deepLink = await get('/race/ABCDEF');
      expect(deepLink.statusCode).toBe(200);
      expect(deepLink.headers['content-type']).toMatch(/text\/html/);
      expect((await get('/assets/app.js')).headers['content-type']).toMatch(/javascript/);
      expect((await get('/api/nothing')).json()).toMatchObject({ code: 'not-found' });
      await withClient.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
