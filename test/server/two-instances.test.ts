// Two instances in one process (buildApp twice) on one PostgreSQL database and one Redis:
// racers, tabs and spectators on either, each seeing everything in one order, presence shared (and
// lost with an instance that dies), and an instance whose copy of a game is behind the stored log.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import type { ProgressView } from '../../contract/index.js';
import { api, Client, closedAfterEach, createPlayer, createRace, Mirror, play, startServer, type TestPlayer, type TestServer } from './helpers.js';
import { createTestDatabase } from './pg.js';

/** Short beats, so a dead instance is noticed within a test's patience. */
const PRESENCE = { heartbeatMs: 100, ttlMs: 400 };

const { servers, clients, databases } = closedAfterEach();

/** Two instances sharing a fresh database and a Redis namespace of their own (the prefix, third). */
async function twoInstances(): Promise<[TestServer, TestServer, string]> {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
  const database = await createTestDatabase();
  databases.push(database);
  const redisPrefix = `t-${randomUUID()}`;
  const options = { databaseUrl: database.url, redisUrl, redisPrefix, presence: PRESENCE, progressIntervalMs: 0 };
  const a = await startServer(options);
  servers.push(a);
  const b = await startServer(options);
  servers.push(b);
  return [a, b, redisPrefix];
}

async function connect(server: TestServer, player?: TestPlayer): Promise<Client> {
  const client = await Client.connect(server.wsBase, player);
  clients.push(client);
  return client;
}

/** A lobby of Ana (created on A) and Bob (joined on B). */
async function dealtRace(a: TestServer, b: TestServer) {
  const ana = await createPlayer(a.app, 'Ana');
  const bob = await createPlayer(b.app, 'Bob');
  const race = await createRace(a.app, ana, { seats: 2 });
  expect((await api(b.app, 'POST', `/api/races/${race.code}/join`, bob)).status).toBe(200);
  return { ana, bob, code: race.code };
}

async function watch(client: Client, code: string): Promise<void> {
  client.send({ type: 'watch', code });
  await client.next('race');
}

const progressOf = (client: Client) => client.all('progress').flatMap(({ progress }: { progress: ProgressView[] }) => progress.map((racer) => `${racer.name}:${racer.moves}:${racer.status}`));

const racerPresence = async (server: TestServer, code: string, name: string) =>
  (await api(server.app, 'GET', `/api/races/${code}`)).body.race.racers.find((racer: { name: string }) => racer.name === name).presence.state;

describe('two instances on one database and one Redis', () => {
  it('show each racer the other one’s progress live, and a spectator both, all in one order', async () => {
    const [a, b] = await twoInstances();
    const { ana, bob, code } = await dealtRace(a, b);
    const anaTab = await connect(a, ana);
    const bobTab = await connect(b, bob);
    const spectator = await connect(a);
    for (const client of [anaTab, bobTab, spectator]) await watch(client, code);
    expect((await api(a.app, 'POST', `/api/races/${code}/start`, ana)).body.race.state).toBe('countdown');
    const anaGame = Mirror.of(await anaTab.next('game'));
    const bobGame = Mirror.of(await bobTab.next('game'));

    for (let i = 0; i < 5; i++) {
      await play(anaTab, anaGame, anaGame.choose()!);
      await play(bobTab, bobGame, bobGame.choose()!);
    }
    const last = ['Ana:5:playing', 'Bob:5:playing'];
    for (const client of [anaTab, bobTab, spectator]) await vi.waitFor(() => expect(progressOf(client)).toEqual(expect.arrayContaining(last)));
    const seen = progressOf(spectator);
    expect(seen.slice(-2).sort()).toEqual(last);
    // Each racer's moves one by one, interleaved as they were played, the same for everyone.
    expect(seen.filter((text) => text.startsWith('Ana'))).toEqual([1, 2, 3, 4, 5].map((n) => `Ana:${n}:playing`));
    expect(seen.filter((text) => text.startsWith('Bob'))).toEqual([1, 2, 3, 4, 5].map((n) => `Bob:${n}:playing`));
    expect(progressOf(anaTab)).toEqual(seen);
    expect(progressOf(bobTab)).toEqual(seen);
  });

  it('acks a move at once on the acking tab’s instance and once, through Redis, on the player’s tab elsewhere', async () => {
    const [a, b] = await twoInstances();
    const { ana, code } = await dealtRace(a, b);
    const here = await connect(a, ana);
    const there = await connect(b, ana);
    await watch(here, code);
    await watch(there, code);
    await api(a.app, 'POST', `/api/races/${code}/start`, ana);
    const game = Mirror.of(await here.next('game'));
    await there.next('game');
    for (let i = 0; i < 3; i++) await play(here, game, game.choose()!);
    await there.next('ack', (ack) => ack.index === 2);
    await here.settle();
    await there.settle();
    expect(here.all('ack').map((ack) => ack.index)).toEqual([0, 1, 2]);
    expect(there.all('ack').map((ack) => ack.index)).toEqual([0, 1, 2]);
  });

  it('shares presence: a racer connected only to B is online on A, and reconnecting once B’s socket closes or B dies', async () => {
    const [a, b] = await twoInstances();
    const { bob, code } = await dealtRace(a, b);
    const spectator = await connect(a);
    await watch(spectator, code);
    expect(await racerPresence(a, code, 'Bob')).toBe('reconnecting');

    const bobTab = await connect(b, bob);
    await spectator.next('race', ({ race }) => race.racers.find((racer) => racer.name === 'Bob')!.presence.state === 'online');
    expect(a.app.transport.isConnected(bob.id)).toBe(true);
    expect(await racerPresence(a, code, 'Bob')).toBe('online');

    bobTab.close();
    await spectator.next('race', ({ race }) => race.racers.find((racer) => racer.name === 'Bob')!.presence.state === 'reconnecting');
    expect(a.app.transport.isConnected(bob.id)).toBe(false);

    await connect(b, bob);
    await spectator.next('race', ({ race }) => race.racers.find((racer) => racer.name === 'Bob')!.presence.state === 'online');
    // B dies without a word: its Redis connections drop, its heartbeat stops, nothing is cleaned up.
    b.app.bus!.drop();
    await spectator.next('race', ({ race }) => race.racers.find((racer) => racer.name === 'Bob')!.presence.state === 'reconnecting');
    expect(a.app.transport.isConnected(bob.id)).toBe(false);
  });

  it('sends a fresh race view to the watchers of an instance that sees a gap in the race’s numbers', async () => {
    const [a, b, prefix] = await twoInstances();
    const { ana, code } = await dealtRace(a, b);
    const anaTab = await connect(a, ana);
    const spectator = await connect(b);
    await watch(anaTab, code);
    await watch(spectator, code);
    await api(a.app, 'POST', `/api/races/${code}/start`, ana);
    const game = Mirror.of(await anaTab.next('game'));
    await play(anaTab, game, game.choose()!);
    await spectator.next('progress', ({ progress }) => progress.some((racer) => racer.moves === 1));
    await spectator.settle();
    // A number handed out whose message never arrives: what a broken subscription looks like.
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    await redis.incr(`${prefix}:race:${code}:seq`);
    redis.disconnect();
    await play(anaTab, game, game.choose()!);
    await spectator.next('progress', ({ progress }) => progress.some((racer) => racer.moves === 2));
    // Nothing else sends the race's view now: only the gap does.
    const refetched = await spectator.next('race');
    expect(refetched.race.progress.find((progress) => progress.name === 'Ana')).toMatchObject({ moves: 2 });
  });

  it('answers a resync and the next index on an instance whose copy of the game is behind the stored log', async () => {
    const [a, b] = await twoInstances();
    const { ana, code } = await dealtRace(a, b);
    const onA = await connect(a, ana);
    const onB = await connect(b, ana);
    await watch(onA, code);
    await api(a.app, 'POST', `/api/races/${code}/start`, ana);
    const game = Mirror.of(await onA.next('game'));
    // B reads the game (and keeps it) with the first move; A, which dealt it, is now behind.
    await play(onB, game, game.choose()!);
    await play(onA, game, game.choose()!);
    await play(onA, game, game.choose()!);
    expect(b.app.games.live(game.gameId)?.actions).toHaveLength(1);

    onB.send({ type: 'resync', gameId: game.gameId, lastIndex: 0 });
    expect((await onB.next('resynced')).acks.map((ack) => ack.action)).toEqual(game.actions.slice(1));
    await play(onB, game, game.choose()!);

    // Again behind on A: the next index there is taken as it is, not refused as ahead.
    await play(onA, game, game.choose()!);
    expect(game.index).toBe(5);
  });
});
