// An identity on several devices: device links (one-time, 10 minutes, rate-limited), the devices
// list and signing out (401 at once, the device's sockets closed), renaming, and passkeys whose
// every ceremony must answer a fresh challenge of this site with a good signature.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNED_OUT_CLOSE } from '../../contract/index.js';
import { Authenticator } from '../support/authenticator.js';
import { Client, createPlayer, dbState, ManualClock, startServer, type TestPlayer } from './helpers.js';

const ORIGIN = 'https://lucie.test';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function server(options: Parameters<typeof startServer>[0] = {}) {
  const clock = new ManualClock();
  const started = await startServer({ clock, publicOrigin: ORIGIN, rateLimits: false, ...options });
  apps.push(started.app);
  return { ...started, clock };
}

async function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object, userAgent = FIREFOX) {
  const response = await app.inject({ method, url, headers: { 'user-agent': userAgent, ...(token && { authorization: `Bearer ${token}` }) }, ...(payload && { payload }) });
  return { status: response.statusCode, body: response.json() };
}

/** Every row of the identity tables, to show a refusal changed nothing. */
const identityRows = (app: FastifyInstance) => ({
  ...(dbState(app) as object),
  devices: app.db.$client.prepare('select * from devices order by id').all(),
  links: app.db.$client.prepare('select * from device_links order by code_hash').all(),
  passkeys: app.db.$client.prepare('select * from passkeys order by id').all(),
});

/** A second device of `player`'s, through a link. */
async function linkDevice(app: FastifyInstance, player: TestPlayer, userAgent = SAFARI): Promise<string> {
  const link = await call(app, 'POST', '/api/me/links', player.token);
  const claimed = await call(app, 'POST', `/api/links/${link.body.code}`, undefined, undefined, userAgent);
  expect(claimed.status).toBe(201);
  return claimed.body.token;
}

describe('device links', () => {
  it('hands the identity to another device once, with a token of its own, never in the URL', async () => {
    const { app } = await server();
    const ana = await createPlayer(app, 'Ana');
    const link = await call(app, 'POST', '/api/me/links', ana.token);
    expect(link.status).toBe(201);
    expect(link.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(link.body.url).toBe(`${ORIGIN}/link#${link.body.code}`);
    expect(link.body.expiresAt).toBe(new ManualClock().now() + 10 * 60 * 1000);
    expect(link.body.qr).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    // The code is stored hashed, and no token is in the link.
    expect(JSON.stringify(identityRows(app))).not.toContain(link.body.code.replace('-', ''));
    expect(link.body.url).not.toContain(ana.token);

    // Typed in lower case without the hyphen, O and I read as 0 and 1.
    const typed = link.body.code.replace('-', '').toLowerCase().replace(/0/g, 'o').replace(/1/g, 'i');
    expect(await call(app, 'GET', `/api/links/${typed}`)).toEqual({ status: 200, body: { player: { id: ana.id, name: 'Ana' }, expiresAt: link.body.expiresAt } });
    const claimed = await call(app, 'POST', `/api/links/${typed}`, undefined, undefined, SAFARI);
    expect(claimed.status).toBe(201);
    expect(claimed.body.player).toEqual({ id: ana.id, name: 'Ana' });
    expect(claimed.body.token).not.toBe(ana.token);
    expect((await call(app, 'GET', '/api/me', claimed.body.token)).body).toEqual({ player: { id: ana.id, name: 'Ana' } });

    // Used: refused, on both routes, and nothing changes.
    const before = identityRows(app);
    for (const method of ['GET', 'POST'] as const) {
      const again = await call(app, method, `/api/links/${link.body.code}`);
      expect(again.status).toBe(410);
      expect(again.body).toMatchObject({ code: 'link-used', params: {} });
    }
    expect(identityRows(app)).toEqual(before);
  });

  it('refuses an expired, unknown or malformed code, changing nothing, and a link without a player', async () => {
    const { app, clock } = await server();
    const bo = await createPlayer(app, 'Bo');
    const link = await call(app, 'POST', '/api/me/links', bo.token);
    clock.jump(10 * 60 * 1000);
    const before = identityRows(app);
    const expired = await call(app, 'POST', `/api/links/${link.body.code}`);
    expect([expired.status, expired.body.code]).toEqual([410, 'link-expired']);
    expect((await call(app, 'GET', `/api/links/${link.body.code}`)).body.code).toBe('link-expired');
    const unknown = await call(app, 'POST', '/api/links/ABCDE-FGHJK');
    expect([unknown.status, unknown.body.code, unknown.body.params]).toEqual([404, 'unknown-link', {}]);
    const malformed = await call(app, 'POST', '/api/links/ABC');
    expect([malformed.status, malformed.body.code, malformed.body.field]).toEqual([400, 'invalid-param', 'code']);
    expect(identityRows(app)).toEqual(before);
    expect((await call(app, 'POST', '/api/me/links')).status).toBe(401);
  });

  it('counts reading and claiming codes against one limit per address', async () => {
    const { app } = await server({ rateLimits: { signIn: { max: 3, windowMs: 60_000 } } });
    const statuses = [];
    for (const method of ['GET', 'POST', 'GET', 'POST'] as const) statuses.push((await call(app, method, '/api/links/ABCDE-FGHJK')).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});

describe('devices', () => {
  it('lists the identity’s devices, this one marked, and nothing of another identity', async () => {
    const { app, clock } = await server();
    const ana = await createPlayer(app, 'Ana');
    clock.jump(60_000);
    const phone = await linkDevice(app, ana);
    await createPlayer(app, 'Bo');
    const listed = await call(app, 'GET', '/api/me/devices', phone);
    const at = new ManualClock().now();
    expect(listed.body.devices).toEqual([
      { id: expect.any(Number), name: 'Safari, iOS', createdAt: at + 60_000, lastSeenAt: at + 60_000, current: true },
      { id: expect.any(Number), name: '', createdAt: at, lastSeenAt: at, current: false },
    ]);
    expect((await call(app, 'GET', '/api/me/devices')).status).toBe(401);
  });

  it('writes a device’s last sight when it is five minutes old, not on every request', async () => {
    const { app, clock } = await server();
    const ana = await createPlayer(app, 'Ana');
    const seen = async () => (await call(app, 'GET', '/api/me/devices', ana.token)).body.devices[0].lastSeenAt;
    const created = await seen();
    clock.jump(4 * 60 * 1000);
    expect(await seen()).toBe(created);
    clock.jump(60 * 1000);
    expect(await seen()).toBe(created + 5 * 60 * 1000);
  });

  it('signs a device out: its next request is a 401, its sockets close, the other device carries on', async () => {
    const { app, wsBase } = await server();
    const ana = await createPlayer(app, 'Ana');
    const phoneToken = await linkDevice(app, ana);
    const phoneSocket = await Client.connect(wsBase, { token: phoneToken });
    const laptopSocket = await Client.connect(wsBase, ana);
    const phoneId = (await call(app, 'GET', '/api/me/devices', phoneToken)).body.devices.find((device: { current: boolean }) => device.current).id;

    expect(await call(app, 'DELETE', `/api/me/devices/${phoneId}`, ana.token)).toEqual({ status: 200, body: { device: phoneId } });
    expect((await phoneSocket.whenClosed()).code).toBe(SIGNED_OUT_CLOSE);
    const refused = await call(app, 'GET', '/api/me', phoneToken);
    expect([refused.status, refused.body.code]).toEqual([401, 'unauthorized']);
    await expect(Client.connect(wsBase, { token: phoneToken })).rejects.toThrow();
    await laptopSocket.settle();
    expect(laptopSocket.closed).toBeUndefined();
    expect((await call(app, 'GET', '/api/me', ana.token)).status).toBe(200);
    // Twice: no such signed-in device.
    const twice = await call(app, 'DELETE', `/api/me/devices/${phoneId}`, ana.token);
    expect([twice.status, twice.body.code, twice.body.params]).toEqual([404, 'unknown-device', { device: phoneId }]);
    laptopSocket.close();
  });

  it('signs this very device out, and refuses another identity’s device as unknown without touching it', async () => {
    const { app } = await server();
    const ana = await createPlayer(app, 'Ana');
    const bo = await createPlayer(app, 'Bo');
    const boDevice = (await call(app, 'GET', '/api/me/devices', bo.token)).body.devices[0].id;
    const before = identityRows(app);
    const foreign = await call(app, 'DELETE', `/api/me/devices/${boDevice}`, ana.token);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'unknown-device']);
    expect(identityRows(app)).toEqual(before);
    expect((await call(app, 'DELETE', `/api/me/devices/${boDevice}`, bo.token)).status).toBe(200);
    expect((await call(app, 'GET', '/api/me', bo.token)).status).toBe(401);
    expect((await call(app, 'GET', '/api/me', ana.token)).status).toBe(200);
  });
});

describe('rename', () => {
  it('renames the identity on every device, keeping its id and its games', async () => {
    const { app } = await server();
    const ana = await createPlayer(app, 'Ana');
    const phone = await linkDevice(app, ana);
    const race = await call(app, 'POST', '/api/races', ana.token, {});
    const renamed = await call(app, 'PATCH', '/api/me', phone, { name: '  Anabel ' });
    expect(renamed).toEqual({ status: 200, body: { player: { id: ana.id, name: 'Anabel' } } });
    expect((await call(app, 'GET', '/api/me', ana.token)).body.player).toEqual({ id: ana.id, name: 'Anabel' });
    expect((await call(app, 'GET', `/api/races/${race.body.race.code}`)).body.race.creator).toEqual({ id: ana.id, name: 'Anabel' });
    const bad = await call(app, 'PATCH', '/api/me', ana.token, { name: '' });
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, 'invalid-body', 'name']);
    expect((await call(app, 'PATCH', '/api/me', undefined, { name: 'X' })).status).toBe(401);
  });
});

describe('passkeys', () => {
  async function registered(app: FastifyInstance, player: TestPlayer, authenticator = new Authenticator('lucie.test')) {
    const options = await call(app, 'POST', '/api/me/passkeys/options', player.token);
    expect(options.body.rp).toEqual({ name: 'Lucie', id: 'lucie.test' });
    const added = await call(app, 'POST', '/api/me/passkeys', player.token, { response: authenticator.register(options.body.challenge, ORIGIN) });
    expect(added.status).toBe(201);
    return { authenticator, passkey: added.body.passkey };
  }

  async function signIn(app: FastifyInstance, authenticator: Authenticator, change: { origin?: string; forge?: boolean; challenge?: string } = {}) {
    const options = await call(app, 'POST', '/api/passkeys/options');
    const response = authenticator.authenticate(change.challenge ?? options.body.challenge, change.origin ?? ORIGIN, change.forge);
    return { response, answer: await call(app, 'POST', '/api/passkeys/sign-in', undefined, { response }, SAFARI) };
  }

  it('adds several passkeys; each signs any device in as the identity with a token of its own, and can be removed', async () => {
    const { app } = await server();
    const ana = await createPlayer(app, 'Ana');
    const first = await registered(app, ana);
    const second = await registered(app, ana);
    const listed = await call(app, 'GET', '/api/me/passkeys', ana.token);
    expect(listed.body.passkeys.map((passkey: { id: number }) => passkey.id).sort()).toEqual([first.passkey.id, second.passkey.id].sort());
    expect(listed.body.passkeys[0]).toEqual({ id: expect.any(Number), name: 'Firefox, Linux', createdAt: expect.any(Number), lastUsedAt: null });

    const { answer } = await signIn(app, second.authenticator);
    expect(answer.status).toBe(201);
    expect(answer.body.player).toEqual({ id: ana.id, name: 'Ana' });
    expect((await call(app, 'GET', '/api/me/devices', answer.body.token)).body.devices).toHaveLength(2);

    expect(await call(app, 'DELETE', `/api/me/passkeys/${second.passkey.id}`, ana.token)).toEqual({ status: 200, body: { passkey: second.passkey.id } });
    const removed = await signIn(app, second.authenticator);
    expect([removed.answer.status, removed.answer.body.code, removed.answer.body.params]).toEqual([400, 'passkey-refused', { issue: 'credential' }]);
    expect((await signIn(app, first.authenticator)).answer.status).toBe(201);
  });

  it('refuses a wrong, reused or stale challenge, a wrong origin and a bad signature, signing nobody in', async () => {
    const { app, clock } = await server();
    const ana = await createPlayer(app, 'Ana');
    const { authenticator } = await registered(app, ana);
    const devicesBefore = identityRows(app).devices;
    const issue = (answer: { status: number; body: { code: string; params: { issue?: string } } }) => [answer.status, answer.body.code, answer.body.params.issue];

    expect(issue((await signIn(app, authenticator, { challenge: 'bm90LWhhbmRlZC1vdXQ' })).answer)).toEqual([400, 'passkey-refused', 'challenge']);
    expect(issue((await signIn(app, authenticator, { origin: 'https://evil.test' })).answer)).toEqual([400, 'passkey-refused', 'origin']);
    expect(issue((await signIn(app, authenticator, { forge: true })).answer)).toEqual([400, 'passkey-refused', 'signature']);

    // A good answer works once: its challenge is gone after it.
    const good = await signIn(app, authenticator);
    expect(good.answer.status).toBe(201);
    const replayed = await call(app, 'POST', '/api/passkeys/sign-in', undefined, { response: good.response });
    expect(issue(replayed)).toEqual([400, 'passkey-refused', 'challenge']);

    // Stale: past 5 minutes.
    const options = await call(app, 'POST', '/api/passkeys/options');
    clock.jump(5 * 60 * 1000);
    const stale = await call(app, 'POST', '/api/passkeys/sign-in', undefined, { response: authenticator.authenticate(options.body.challenge, ORIGIN) });
    expect(issue(stale)).toEqual([400, 'passkey-refused', 'challenge']);
    // One device more: the good sign-in's, and no other.
    expect(identityRows(app).devices).toHaveLength(devicesBefore.length + 1);
  });

  it('adds a passkey only against its own player’s registration challenge, and removes only one’s own', async () => {
    const { app } = await server();
    const ana = await createPlayer(app, 'Ana');
    const bo = await createPlayer(app, 'Bo');
    const anaOptions = await call(app, 'POST', '/api/me/passkeys/options', ana.token);
    const stolen = await call(app, 'POST', '/api/me/passkeys', bo.token, { response: new Authenticator('lucie.test').register(anaOptions.body.challenge, ORIGIN) });
    expect([stolen.status, stolen.body.params.issue]).toEqual([400, 'challenge']);
    const signInChallenge = (await call(app, 'POST', '/api/passkeys/options')).body.challenge;
    const wrongPurpose = await call(app, 'POST', '/api/me/passkeys', ana.token, { response: new Authenticator('lucie.test').register(signInChallenge, ORIGIN) });
    expect(wrongPurpose.body.params.issue).toBe('challenge');
    const { passkey } = await registered(app, ana);
    const foreign = await call(app, 'DELETE', `/api/me/passkeys/${passkey.id}`, bo.token);
    expect([foreign.status, foreign.body.code, foreign.body.params]).toEqual([404, 'unknown-passkey', { passkey: passkey.id }]);
    expect((await call(app, 'GET', '/api/me/passkeys', bo.token)).body.passkeys).toEqual([]);
    expect((await call(app, 'GET', '/api/me/passkeys', ana.token)).body.passkeys).toHaveLength(1);
    const wrongRp = new Authenticator('evil.test');
    const options = await call(app, 'POST', '/api/me/passkeys/options', ana.token);
    const refused = await call(app, 'POST', '/api/me/passkeys', ana.token, { response: wrongRp.register(options.body.challenge, ORIGIN) });
    expect([refused.status, refused.body.code]).toEqual([400, 'passkey-refused']);
  });
});
