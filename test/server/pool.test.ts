// The quick-race pool and the public lobby over HTTP and real sockets: pairing into one rated
// race, double joins, leaving, the ghost offer, the lobby's live list; and with two instances
// (PostgreSQL + Redis) one pool for both, no race formed twice.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { playerTag, type PoolStatus } from '../../contract/index.js';
import type { AppOptions } from '../../server/app.js';
import { api, Client, closedAfterEach, createPlayer, createRace, startServer, type TestPlayer, type TestServer } from './helpers.js';
import { createTestDatabase } from './pg.js';

const { servers, clients, databases } = closedAfterEach();

async function server(options: Partial<AppOptions> = {}, rules: Partial<NonNullable<AppOptions['pool']>['rules']> = {}): Promise<TestServer> {
  const started = await startServer({ pool: { rules: { gatherMs: 300, ghostAfterMs: 600, ...rules }, lobbyWindowMs: 50 }, countdownMs: 200, ...options });
  servers.push(started);
  return started;
}

/** A player with an open socket (the pool seats only players who are there). */
async function arrive(at: TestServer, name: string): Promise<{ player: TestPlayer; tab: Client }> {
  const player = await createPlayer(at.app, name);
  const tab = await Client.connect(at.wsBase, player);
  clients.push(tab);
  return { player, tab };
}

const join = async (at: TestServer, player: TestPlayer, variant = 'strict') => api(at.app, 'POST', '/api/pool', player, { variant });
const poolOf = (message: { pool: PoolStatus }) => message.pool;

describe('the quick-race pool', () => {
  it('seats the players waiting for a variant in one rated race once the window has gathered them, and tells each', async () => {
    const s = await server();
    const people = [await arrive(s, 'Ana'), await arrive(s, 'Bo'), await arrive(s, 'Cy')];
    const other = await arrive(s, 'Di');
    for (const { player } of people) expect((await join(s, player)).body.pool).toMatchObject({ state: 'waiting', variant: 'strict' });
    expect((await join(s, other.player, 'merci')).body.pool).toMatchObject({ state: 'waiting', variant: 'merci', waiting: 1 });
    // Everyone waiting hears the count as it grows.
    await people[0]!.tab.next('pool', (message) => message.pool.waiting === 3);
    const codes = new Set<string>();
    for (const { tab } of people) codes.add(poolOf(await tab.next('pool', (message) => message.pool.state === 'paired')).race!);
    expect(codes.size).toBe(1);
    const code = [...codes][0]!;
    const race = (await api(s.app, 'GET', `/api/races/${code}`)).body.race;
    expect(race).toMatchObject({ variant: 'strict', rated: true, listed: true, state: 'countdown' });
    expect(race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana', 'Bo', 'Cy']);
    // The merci player is still waiting, alone.
    expect((await api(s.app, 'GET', '/api/pool', other.player)).body.pool).toMatchObject({ state: 'waiting', waiting: 1 });
    // Paired: leaving is refused cleanly, and joining again too while the race is on.
    const leave = await api(s.app, 'POST', '/api/pool/leave', people[0]!.player);
    expect(leave.status).toBe(409);
    expect(leave.body).toMatchObject({ code: 'pool-paired', params: { race: code } });
    expect((await join(s, people[1]!.player)).body).toMatchObject({ code: 'pool-paired', params: { race: code } });
    // The countdown ends in a deal for each.
    for (const { tab } of people) expect((await tab.next('game')).raceCode).toBe(code);
  });

  it('keeps one entry per player however often they join, from however many tabs; leaving tells the others', async () => {
    const s = await server({}, { gatherMs: 60_000 });
    const ana = await arrive(s, 'Ana');
    const secondTab = await Client.connect(s.wsBase, ana.player);
    clients.push(secondTab);
    const bo = await arrive(s, 'Bo');
    const first = (await join(s, ana.player)).body.pool;
    const again = await Promise.all([join(s, ana.player), join(s, ana.player)]);
    for (const answer of again) expect(answer.body.pool).toEqual(first);
    expect(await s.app.storage.pool.waiting('strict')).toHaveLength(1);
    await join(s, bo.player);
    await secondTab.next('pool', (message) => message.pool.waiting === 2);
    expect((await api(s.app, 'POST', '/api/pool/leave', bo.player)).body.pool).toMatchObject({ state: 'none' });
    await ana.tab.next('pool', (message) => message.pool.waiting === 1);
    // Leaving twice changes nothing; another variant moves the entry.
    expect((await api(s.app, 'POST', '/api/pool/leave', bo.player)).body.pool.state).toBe('none');
    expect((await join(s, ana.player, 'merci')).body.pool).toMatchObject({ state: 'waiting', variant: 'merci', waiting: 1 });
    expect(await s.app.storage.pool.waiting('strict')).toHaveLength(0);
    // Bad input changes nothing.
    const bad = await api(s.app, 'POST', '/api/pool', bo.player, { variant: 'chess' });
    expect(bad.body).toMatchObject({ code: 'invalid-body', params: { field: 'variant' } });
    expect((await api(s.app, 'POST', '/api/pool', undefined, { variant: 'strict' })).body.code).toBe('unauthorized');
  });

  it('starts a full pool of 8 at once, without waiting the window, and keeps the ninth waiting', async () => {
    const s = await server({}, { gatherMs: 60_000 });
    const people = [];
    for (let i = 0; i < 9; i++) people.push(await arrive(s, `P${i}`));
    for (const { player } of people.slice(0, 8)) await join(s, player);
    const code = poolOf(await people[7]!.tab.next('pool', (message) => message.pool.state === 'paired')).race!;
    expect((await api(s.app, 'GET', `/api/races/${code}`)).body.race.racers).toHaveLength(8);
    expect((await join(s, people[8]!.player)).body.pool).toMatchObject({ state: 'waiting', waiting: 1 });
  });

  it('offers a ghost race to one waiting alone, keeping them in the pool; lets go whoever drops their socket', async () => {
    const s = await server({}, { gatherMs: 100, ghostAfterMs: 400 });
    const ana = await arrive(s, 'Ana');
    expect((await join(s, ana.player)).body.pool.ghostOffer).toBe(false);
    const offered = poolOf(await ana.tab.next('pool', (message) => message.pool.ghostOffer));
    expect(offered).toMatchObject({ state: 'waiting', waiting: 1 });
    const bo = await arrive(s, 'Bo');
    await join(s, bo.player, 'merci');
    bo.tab.close();
    await vi.waitFor(async () => expect((await api(s.app, 'GET', '/api/pool', bo.player)).body.pool.state).toBe('none'));
  });

  it('refuses a player seated in a live race, and frees a removed player’s place', async () => {
    const s = await server();
    const ana = await arrive(s, 'Ana');
    const race = await createRace(s.app, ana.player);
    expect((await join(s, ana.player)).body).toMatchObject({ code: 'pool-paired', params: { race: race.code } });
    const bo = await arrive(s, 'Bo');
    await join(s, bo.player);
    expect(await s.app.pool.remove(bo.player.id)).toBe(true);
    expect(poolOf(await bo.tab.next('pool', (message) => message.pool.state === 'removed')).variant).toBe('strict');
    expect(await s.app.pool.remove(bo.player.id)).toBe(false);
  });

  it('cancels unrated a rated race whose racers all left before the deal', async () => {
    const s = await server({ countdownMs: 500 });
    const [ana, bo] = [await arrive(s, 'Ana'), await arrive(s, 'Bo')];
    await join(s, ana.player);
    await join(s, bo.player);
    const code = poolOf(await ana.tab.next('pool', (message) => message.pool.state === 'paired')).race!;
    ana.tab.close();
    bo.tab.close();
    await vi.waitFor(async () => expect((await api(s.app, 'GET', `/api/races/${code}`)).body.race).toMatchObject({ state: 'closed', closedReason: 'empty', rated: false }));
  });
});

describe('the pool across a restart', () => {
  it('keeps nobody waiting in a pool that stopped with its server: they read that they are out and may join again', async () => {
    const dataDir = mkdtempSync(joinPath(tmpdir(), 'lucie-pool-'));
    try {
      const first = await server({ dataDir });
      const { player, tab } = await arrive(first, 'Ana');
      expect((await join(first, player)).body.pool).toMatchObject({ state: 'waiting', waiting: 1 });
      tab.close();
      servers.splice(servers.indexOf(first), 1);
      await first.app.close();

      const second = await server({ dataDir });
      await vi.waitFor(async () => expect((await api(second.app, 'GET', '/api/pool', player)).body.pool.state).toBe('none'), { timeout: 5_000, interval: 20 });
      const back = await Client.connect(second.wsBase, player);
      clients.push(back);
      expect((await join(second, player)).body.pool).toMatchObject({ state: 'waiting', waiting: 1 });
    } finally {
      for (const open of servers.splice(0)) await open.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the public lobby', () => {
  it('shows a listed race appear, fill and start, features the running one, and never an unlisted race', async () => {
    const s = await server({ countdownMs: 0 });
    const watcher = await Client.connect(s.wsBase);
    clients.push(watcher);
    watcher.send({ type: 'lobby', on: true });
    expect((await watcher.next('lobby')).lobby).toMatchObject({ open: [], live: [], featured: null });
    const ana = await arrive(s, 'Ana');
    const twin = await arrive(s, 'Ana');
    await createRace(s.app, ana.player, { seats: 3 });
    const listed = await createRace(s.app, ana.player, { seats: 2, listed: true, timeLimitSeconds: 600 });
    const shown = (await watcher.next('lobby', (message) => message.lobby.open.length === 1)).lobby;
    expect(shown.open[0]).toMatchObject({ code: listed.code, seats: 2, taken: 1, timeLimitSeconds: 600, rated: false, creator: { name: 'Ana', tag: playerTag(ana.player.id), rating: null } });
    expect(shown.online).toBe(2);
    expect(playerTag(ana.player.id)).not.toBe(playerTag(twin.player.id));
    await api(s.app, 'POST', `/api/races/${listed.code}/join`, twin.player);
    await watcher.next('lobby', (message) => message.lobby.open[0]?.taken === 2);
    await api(s.app, 'POST', `/api/races/${listed.code}/start`, ana.player);
    const live = (await watcher.next('lobby', (message) => message.lobby.featured === listed.code)).lobby;
    expect(live.open).toEqual([]);
    expect(live.live[0]!.racers.map((racer) => racer.tag)).toEqual([playerTag(ana.player.id), playerTag(twin.player.id)]);
    // A flood of subscriptions is answered from the window's one read.
    for (let i = 0; i < 20; i++) watcher.send({ type: 'lobby', on: true });
    await watcher.next('lobby');
    watcher.send({ type: 'lobby', on: false });
  });

  it('drops a flood of subscriptions past the socket’s frame budget, saying so once', async () => {
    const s = await server({ socketLimits: { burst: 5, perSecond: 1 } });
    const flooder = await Client.connect(s.wsBase);
    clients.push(flooder);
    for (let i = 0; i < 30; i++) flooder.send({ type: 'lobby', on: true });
    expect(await flooder.next('error')).toMatchObject({ code: 'rate-limited', params: { limit: 1, seconds: 1 } });
    // The five within the budget are answered (one window's tick may add a frame); the rest dropped, told once.
    const lobbies = () => flooder.messages.filter((message) => message.type === 'lobby').length;
    await vi.waitFor(() => expect(lobbies()).toBeGreaterThanOrEqual(5));
    expect(lobbies()).toBeLessThanOrEqual(6);
    expect(flooder.messages.filter((message) => message.type === 'error')).toHaveLength(1);
  });

  it('is read at most once per window however many races change', async () => {
    const s = await server({ countdownMs: 0 }, {});
    const watcher = await Client.connect(s.wsBase);
    clients.push(watcher);
    watcher.send({ type: 'lobby', on: true });
    await watcher.next('lobby');
    const ana = await arrive(s, 'Ana');
    const before = watcher.messages.length;
    const reads = vi.spyOn(s.app.storage.lobby, 'listed');
    for (let i = 0; i < 10; i++) await createRace(s.app, ana.player, { listed: true });
    await watcher.next('lobby', (message) => message.lobby.open.length === 10);
    const frames = watcher.messages.slice(before).filter((message) => message.type === 'lobby').length;
    // Ten races, far fewer frames than changes (the window is 50 ms; the creates take a few).
    expect(frames).toBeLessThanOrEqual(reads.mock.calls.length);
    expect(frames).toBeLessThan(10);
  });
});

describe('one pool for two instances (PostgreSQL + Redis)', () => {
  it('pairs players of both instances into one race, formed once even when two passes run together', async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
    const database = await createTestDatabase();
    databases.push(database);
    const options = { databaseUrl: database.url, redisUrl, redisPrefix: `t-${randomUUID()}`, presence: { heartbeatMs: 100, ttlMs: 400 } };
    const a = await server(options, { gatherMs: 400 });
    const b = await server(options, { gatherMs: 400 });
    const ana = await arrive(a, 'Ana');
    const bo = await arrive(b, 'Bo');
    const cy = await arrive(b, 'Cy');
    await vi.waitFor(() => expect(a.app.transport.isConnected(cy.player.id)).toBe(true));
    // The race formed is announced once, by the instance whose transaction claimed the entries (its waits are counted there).
    const formed: { code: string; racers: number[] }[] = [];
    for (const at of [a, b]) at.app.events.on('quick-race-formed', ({ code, racers }) => void formed.push({ code, racers: racers.map((racer) => racer.playerId) }));
    await join(a, ana.player);
    await join(b, bo.player);
    // Both instances run a pass at once (as two timer owners overlapping for a moment would).
    await Promise.all([a.app.pool.passes.due('strict', 0), b.app.pool.passes.due('strict', 0), join(b, cy.player)]);
    const paired = [];
    for (const { tab } of [ana, bo, cy]) paired.push(poolOf(await tab.next('pool', (message) => message.pool.state === 'paired', 5000)).race);
    expect(new Set(paired).size).toBe(1);
    const races = await a.app.storage.races.inState('countdown');
    const running = await a.app.storage.races.inState('running');
    expect(races.length + running.length).toBe(1);
    expect(formed).toEqual([{ code: paired[0], racers: expect.arrayContaining([ana.player.id, bo.player.id, cy.player.id]) }]);
  });
});
