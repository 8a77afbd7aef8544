// Every race and lobby ends, on a hand-driven clock: the grace period of a racer without a socket
// (abandoned in a race, unseated in a lobby), the hard cap of a race without a time limit, the
// lobby hand-over, leaving, kicking, cancelling, the lobby limit, and all of it across restarts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app.js';
import { DB_FILE, STORAGE_RETRY_MS } from '../../server/db/index.js';
import { STANDINGS_PRESENCE_MS } from '../../server/races/lifecycle.js';
import type { RaceView } from '../../contract/index.js';
import { api, Client, createPlayer, createRace, dbState, ManualClock, Mirror, play, setSeed, type TestPlayer } from './helpers.js';

const GRACE_MS = 60_000;
const HOUR = 3_600_000;
const dirs: string[] = [];
const apps: FastifyInstance[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const app of apps.splice(0)) await app.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A server on a free port; `dataDir` a real directory when the test restarts it. */
async function serve(clock: ManualClock, dataDir = ':memory:', options: Partial<AppOptions> = {}) {
  const app = await buildApp({ dataDir, logLevel: 'silent', clientDir: null, countdownMs: 0, clock, socketLimits: { burst: 1000, perSecond: 1000 }, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, wsBase: `ws://127.0.0.1:${address.port}` };
}

async function connect(wsBase: string, player?: TestPlayer, code?: string): Promise<Client> {
  const client = await Client.connect(wsBase, player);
  clients.push(client);
  if (code) {
    client.send({ type: 'watch', code });
    await client.next('race');
  }
  return client;
}

const view = async (app: FastifyInstance, code: string): Promise<RaceView> => (await api(app, 'GET', `/api/races/${code}`)).body.race;
const presences = (race: RaceView) => race.racers.map((racer) => [racer.name, racer.presence.state]);

/** A running race of Ana and Bob, both watching, plus a spectator. */
async function runningRace(clock: ManualClock, dataDir?: string, options: object = {}) {
  const { app, wsBase } = await serve(clock, dataDir);
  const ana = await createPlayer(app, 'Ana');
  const bob = await createPlayer(app, 'Bob');
  const { code } = await createRace(app, ana, { seats: 2, ...options });
  setSeed(app, code, 's0');
  await api(app, 'POST', `/api/races/${code}/join`, bob);
  const [a, b, spectator] = [await connect(wsBase, ana, code), await connect(wsBase, bob, code), await connect(wsBase, undefined, code)];
  await api(app, 'POST', `/api/races/${code}/start`, ana);
  clock.advance(0);
  const [mirrorA, mirrorB] = [Mirror.of(await a.next('game')), Mirror.of(await b.next('game'))];
  await spectator.next('race', (message) => message.race.state === 'running');
  return { app, wsBase, code, ana, bob, a, b, spectator, mirrorA, mirrorB };
}

describe('abandonment', () => {
  it('finishes a racer gone for the grace period as abandoned, ranked as resigning when they left', async () => {
    const clock = new ManualClock();
    const { app, code, a, b, spectator, mirrorA, mirrorB } = await runningRace(clock);
    for (let i = 0; i < 3; i++) await play(b, mirrorB, mirrorB.choose()!);
    const bobCards = mirrorB.position.foundationCount();
    const leftAt = clock.now();
    b.close();
    const told = await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'reconnecting');
    expect(told.race.racers[1]!.presence).toEqual({ state: 'reconnecting', since: leftAt, until: leftAt + GRACE_MS });
    expect(told.race.graceSeconds).toBe(60);

    clock.advance(GRACE_MS - 1);
    await spectator.settle();
    expect((await view(app, code)).progress.map((entry) => entry.status)).toEqual(['playing', 'disconnected']);
    clock.advance(1);
    expect((await spectator.next('race-event')).event).toMatchObject({ kind: 'abandoned', player: { name: 'Bob' } });
    const abandoned = await view(app, code);
    expect(abandoned.state).toBe('running');
    expect(abandoned.progress[1]).toMatchObject({ status: 'abandoned', foundations: bobCards, finishedAt: leftAt });
    expect(presences(abandoned)).toEqual([
      ['Ana', 'online'],
      ['Bob', 'gone'],
    ]);

    // Ana plays on, then resigns: every racer is finished, the race ends with standings.
    await play(a, mirrorA, mirrorA.choose()!);
    clock.advance(1000);
    a.send({ type: 'resign', gameId: mirrorA.gameId });
    const finished = await spectator.next('race', (message) => message.race.state === 'finished');
    const anaCards = mirrorA.position.foundationCount();
    const expected = [
      { name: 'Ana', state: 'resigned', foundations: anaCards, finishedAt: clock.now() },
      { name: 'Bob', state: 'abandoned', foundations: bobCards, finishedAt: leftAt },
    ].sort((x, y) => y.foundations - x.foundations || x.finishedAt - y.finishedAt);
    expect(finished.race.standings!.map(({ name, state, foundations, finishedAt }) => ({ name, state, foundations, finishedAt }))).toEqual(expected);
    expect(finished.race.seed).toBe('s0');
  });

  it('keeps a racer who comes back within the grace period', async () => {
    const clock = new ManualClock();
    const { app, wsBase, code, bob, b, spectator, mirrorB } = await runningRace(clock);
    b.close();
    await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'reconnecting');
    clock.advance(GRACE_MS - 1);
    const back = await connect(wsBase, bob, code);
    await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'online');
    clock.advance(10 * GRACE_MS);
    await spectator.settle();
    expect((await view(app, code)).progress[1]!.status).toBe('playing');
    await play(back, mirrorB, mirrorB.choose()!);
  });

  it('ends a race whose racers all left once the last grace period is over', async () => {
    const clock = new ManualClock();
    const { app, code, a, b, spectator } = await runningRace(clock);
    a.close();
    await spectator.next('race', (message) => message.race.racers[0]!.presence.state === 'reconnecting');
    clock.advance(10_000);
    b.close();
    await spectator.next('race', (message) => message.race.racers.every((racer) => racer.presence.state === 'reconnecting'));
    clock.advance(GRACE_MS - 10_000);
    await spectator.next('race-event', (message) => message.event.player?.name === 'Ana');
    expect((await view(app, code)).state).toBe('running');
    clock.advance(10_000);
    const finished = await spectator.next('race', (message) => message.race.state === 'finished');
    expect(finished.race.standings!.map((standing) => [standing.name, standing.state])).toEqual([
      ['Ana', 'abandoned'],
      ['Bob', 'abandoned'],
    ]);
  });
});

describe('the hard cap', () => {
  it('stops a race without a time limit at the hard cap, and says when', async () => {
    const clock = new ManualClock();
    const started = clock.now();
    const { app, code, spectator } = await runningRace(clock);
    expect((await view(app, code)).capAt).toBe(started + 24 * HOUR);
    clock.advance(24 * HOUR - 1);
    await spectator.settle();
    expect((await view(app, code)).state).toBe('running');
    clock.advance(1);
    const finished = await spectator.next('race', (message) => message.race.state === 'finished');
    expect(finished.race.standings!.map((standing) => standing.state)).toEqual(['timed-out', 'timed-out']);
  });

  it('takes its length from the options, and leaves races with a time limit to their limit', async () => {
    const clock = new ManualClock();
    const { app, wsBase } = await serve(clock, ':memory:', { lifecycle: { hardCapMs: HOUR } });
    const [ana, bob] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
    const capped = await createRace(app, ana, { seats: 2 });
    const limited = await createRace(app, ana, { seats: 2, timeLimitSeconds: 600 });
    for (const { code } of [capped, limited]) {
      await api(app, 'POST', `/api/races/${code}/join`, bob);
      await connect(wsBase, ana, code);
      await connect(wsBase, bob, code);
      await api(app, 'POST', `/api/races/${code}/start`, ana);
    }
    clock.advance(0);
    expect((await view(app, capped.code)).capAt).toBe(clock.now() + HOUR);
    expect((await view(app, limited.code)).capAt).toBeNull();
    clock.advance(HOUR);
    expect((await view(app, capped.code)).state).toBe('finished');
  });
});

describe('presence in the standings', () => {
  it('tells the standings who is still there for an hour after the race, the same for every viewer', async () => {
    const clock = new ManualClock();
    const { app, wsBase, code, bob, a, b, spectator, mirrorA, mirrorB } = await runningRace(clock);
    a.send({ type: 'resign', gameId: mirrorA.gameId });
    b.send({ type: 'resign', gameId: mirrorB.gameId });
    await spectator.next('race', (message) => message.race.state === 'finished');
    expect(presences(await view(app, code))).toEqual([
      ['Ana', 'online'],
      ['Bob', 'online'],
    ]);

    b.close();
    const gone = await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'gone');
    expect(gone.race.state).toBe('finished');
    expect(gone.race.racers.map((racer) => racer.presence)).toEqual([
      { state: 'online', since: null, until: null },
      { state: 'gone', since: null, until: null },
    ]);
    expect(presences(await view(app, code))).toEqual(presences(gone.race));
    const back = await connect(wsBase, bob);
    await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'online');

    // An hour after the end, nobody is told any more (the view still says it when asked).
    clock.jump(STANDINGS_PRESENCE_MS + 1);
    const told = spectator.all('race').length;
    back.close();
    await expect.poll(() => app.hub.isConnected(bob.id)).toBe(false);
    await spectator.settle();
    expect(spectator.all('race')).toHaveLength(told);
    expect(presences(await view(app, code))).toEqual([
      ['Ana', 'online'],
      ['Bob', 'gone'],
    ]);
  });
});

describe('the lobby', () => {
  async function lobby(clock: ManualClock, options: Partial<AppOptions> = {}) {
    const { app, wsBase } = await serve(clock, ':memory:', options);
    const [ana, bob, cid] = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob'), await createPlayer(app, 'Cid')];
    const { code } = await createRace(app, ana, { seats: 3 });
    const a = await connect(wsBase, ana, code);
    await api(app, 'POST', `/api/races/${code}/join`, bob);
    const b = await connect(wsBase, bob, code);
    const watcher = await connect(wsBase, undefined, code);
    return { app, wsBase, code, ana, bob, cid, a, b, watcher };
  }

  it('lets a racer leave (their seat frees) and refuses leaving twice, changing nothing', async () => {
    const clock = new ManualClock();
    const { app, wsBase, code, bob, cid, watcher } = await lobby(clock);
    const left = await api(app, 'POST', `/api/races/${code}/leave`, bob);
    expect(left.status).toBe(200);
    expect(left.body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana']);
    expect((await watcher.next('race-event')).event).toMatchObject({ kind: 'left', player: { name: 'Bob' } });
    const before = dbState(app);
    const again = await api(app, 'POST', `/api/races/${code}/leave`, bob);
    expect([again.status, again.body.code]).toEqual([409, 'not-seated']);
    expect(dbState(app)).toEqual(before);
    // The freed seat takes someone else; seat numbers keep join order.
    await connect(wsBase, cid);
    const joined = (await api(app, 'POST', `/api/races/${code}/join`, cid)).body.race as RaceView;
    expect(joined.racers.map((racer) => [racer.name, racer.seat])).toEqual([
      ['Ana', 1],
      ['Cid', 2],
    ]);
  });

  it('lets the creator remove a racer, and nobody else; not once the race has started', async () => {
    const clock = new ManualClock();
    const { app, code, ana, bob, cid, watcher } = await lobby(clock);
    expect((await api(app, 'POST', `/api/races/${code}/kick`, bob, { playerId: ana.id })).body).toMatchObject({ statusCode: 403, code: 'not-creator' });
    expect((await api(app, 'POST', `/api/races/${code}/kick`, ana, { playerId: ana.id })).body).toMatchObject({ code: 'cannot-kick-self', field: 'playerId' });
    expect((await api(app, 'POST', `/api/races/${code}/kick`, ana, { playerId: cid.id })).body).toMatchObject({ code: 'not-seated', field: 'playerId' });
    expect((await api(app, 'POST', `/api/races/${code}/kick`, ana, { player: bob.id })).body).toMatchObject({ code: 'invalid-body' });
    const kicked = await api(app, 'POST', `/api/races/${code}/kick`, ana, { playerId: bob.id });
    expect(kicked.body.race.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana']);
    expect((await watcher.next('race-event')).event).toMatchObject({ kind: 'kicked', player: { name: 'Bob' } });

    await api(app, 'POST', `/api/races/${code}/join`, bob);
    await api(app, 'POST', `/api/races/${code}/start`, ana);
    clock.advance(0);
    const before = dbState(app);
    expect((await api(app, 'POST', `/api/races/${code}/kick`, ana, { playerId: bob.id })).body).toMatchObject({ statusCode: 409, code: 'not-in-lobby' });
    expect((await api(app, 'POST', `/api/races/${code}/leave`, bob)).body).toMatchObject({ statusCode: 409, code: 'not-in-lobby' });
    expect(dbState(app)).toEqual(before);
  });

  it('frees no seat in a race started since the lobby was read: the stored state decides, and nobody is told', async () => {
    const clock = new ManualClock();
    const { app, code, ana, bob, watcher } = await lobby(clock);
    const read = (await app.races.find(code))!;
    await api(app, 'POST', `/api/races/${code}/start`, ana);
    const before = dbState(app);
    const told = watcher.all('race-event').length;
    // Each request reads the lobby as it was before the start.
    vi.spyOn(app.storage.races, 'byCode').mockReturnValueOnce(read).mockReturnValueOnce(read);
    await expect(app.races.leave(bob, code)).rejects.toMatchObject({ code: 'not-in-lobby' });
    await expect(app.races.kick(ana, code, bob.id)).rejects.toMatchObject({ code: 'not-in-lobby' });
    expect(dbState(app)).toEqual(before);
    await watcher.settle();
    expect(watcher.all('race-event')).toHaveLength(told);
  });

  it('lets the creator cancel: the link then says so, and nobody can join or start', async () => {
    const clock = new ManualClock();
    const { app, code, ana, bob, cid, watcher } = await lobby(clock);
    expect((await api(app, 'POST', `/api/races/${code}/cancel`, bob)).body).toMatchObject({ code: 'not-creator' });
    const cancelled = await api(app, 'POST', `/api/races/${code}/cancel`, ana);
    expect(cancelled.body.race).toMatchObject({ state: 'closed', closedReason: 'cancelled' });
    expect((await watcher.next('race-event')).event).toMatchObject({ kind: 'cancelled', player: { name: 'Ana' } });
    expect((await view(app, code)).closedReason).toBe('cancelled');
    expect((await api(app, 'POST', `/api/races/${code}/join`, cid)).body).toMatchObject({
      statusCode: 409,
      code: 'race-closed',
      message: `race ${code} is closed: its creator cancelled it`,
      params: { race: code, reason: 'cancelled' },
    });
    expect((await api(app, 'POST', `/api/races/${code}/start`, ana)).body).toMatchObject({ code: 'race-closed' });
    expect((await api(app, 'POST', `/api/races/${code}/cancel`, ana)).body).toMatchObject({ code: 'race-closed' });
  });

  it('passes the lobby to the next racer in seat order when the creator leaves or is gone past the grace period', async () => {
    const clock = new ManualClock();
    const { app, wsBase, code, ana, bob, cid, a, watcher } = await lobby(clock);
    await api(app, 'POST', `/api/races/${code}/join`, cid);
    await connect(wsBase, cid, code);
    a.close();
    await watcher.next('race', (message) => message.race.racers[0]!.presence.state === 'reconnecting');
    clock.advance(GRACE_MS - 1);
    await watcher.settle();
    expect((await view(app, code)).creator.name).toBe('Ana');
    clock.advance(1);
    expect((await watcher.next('race-event')).event).toMatchObject({ kind: 'unseated', player: { name: 'Ana' } });
    expect((await watcher.next('race-event')).event).toMatchObject({ kind: 'creator-changed', player: { name: 'Bob' } });
    const handed = await view(app, code);
    expect([handed.creator.name, handed.racers.map((racer) => racer.name)]).toEqual(['Bob', ['Bob', 'Cid']]);
    expect((await api(app, 'POST', `/api/races/${code}/start`, ana)).body).toMatchObject({ code: 'not-creator' });

    // Bob, now the creator, leaves in person: Cid has the lobby and starts it... with one racer, he cannot.
    await api(app, 'POST', `/api/races/${code}/leave`, bob);
    expect((await view(app, code)).creator.name).toBe('Cid');
    expect((await api(app, 'POST', `/api/races/${code}/start`, cid)).body).toMatchObject({ code: 'not-enough-racers' });
  });

  it('closes a lobby with nobody left', async () => {
    const clock = new ManualClock();
    const { app, code, ana, bob, watcher } = await lobby(clock);
    await api(app, 'POST', `/api/races/${code}/leave`, ana);
    expect((await view(app, code)).creator.name).toBe('Bob');
    await api(app, 'POST', `/api/races/${code}/leave`, bob);
    expect(await view(app, code)).toMatchObject({ state: 'closed', closedReason: 'empty', racers: [] });
    expect((await watcher.next('race-event', (message) => message.event.kind === 'closed')).event.player).toBeNull();
  });

  it('closes a lobby not started within the limit (1 hour by default)', async () => {
    const clock = new ManualClock();
    const created = clock.now();
    const { app, code } = await lobby(clock);
    expect((await view(app, code)).lobbyClosesAt).toBe(created + HOUR);
    clock.advance(HOUR - 1);
    expect((await view(app, code)).state).toBe('lobby');
    clock.advance(1);
    expect(await view(app, code)).toMatchObject({ state: 'closed', closedReason: 'expired', lobbyClosesAt: null });
  });

  it('unseats a joiner who never opens a socket once the grace period is over', async () => {
    const clock = new ManualClock();
    const { app, code, cid } = await lobby(clock, { lifecycle: { graceMs: 5000 } });
    await api(app, 'POST', `/api/races/${code}/join`, cid);
    expect((await view(app, code)).racers[2]!.presence).toEqual({ state: 'reconnecting', since: clock.now(), until: clock.now() + 5000 });
    clock.advance(5000);
    expect((await view(app, code)).racers.map((racer) => racer.name)).toEqual(['Ana', 'Bob']);
  });
});

describe('across restarts', () => {
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-lifecycle-'));
    dirs.push(dir);
    return dir;
  };

  it('abandons a racer on time although the server restarted within their grace period', async () => {
    const clock = new ManualClock();
    const dataDir = tempDir();
    const { app, code, b, spectator } = await runningRace(clock, dataDir);
    const leftAt = clock.now();
    b.close();
    await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'reconnecting');
    clock.advance(30_000);
    await app.close();
    apps.splice(apps.indexOf(app), 1);
    clock.advance(10_000);

    const again = await serve(clock, dataDir);
    // Nobody is connected after the restart: Bob keeps the grace period he had, Ana gets a full one from now.
    const restarted = await view(again.app, code);
    expect(restarted.racers.map((racer) => racer.presence)).toEqual([
      { state: 'reconnecting', since: clock.now(), until: clock.now() + GRACE_MS },
      { state: 'reconnecting', since: leftAt, until: leftAt + GRACE_MS },
    ]);
    clock.advance(GRACE_MS - 40_000 - 1);
    expect((await view(again.app, code)).progress[1]!.status).toBe('disconnected');
    clock.advance(1);
    expect((await view(again.app, code)).progress[1]).toMatchObject({ status: 'abandoned', finishedAt: leftAt });
  });

  it('still closes a lobby at its limit, and ends a race at its hard cap, after a restart that slept through them', async () => {
    const clock = new ManualClock();
    const dataDir = tempDir();
    const first = await serve(clock, dataDir);
    const [ana, bob] = [await createPlayer(first.app, 'Ana'), await createPlayer(first.app, 'Bob')];
    const waiting = await createRace(first.app, ana, { seats: 2 });
    const running = await createRace(first.app, ana, { seats: 2 });
    await api(first.app, 'POST', `/api/races/${running.code}/join`, bob);
    await connect(first.wsBase, ana, waiting.code);
    await connect(first.wsBase, bob, running.code);
    await api(first.app, 'POST', `/api/races/${running.code}/start`, ana);
    clock.advance(0);
    for (const client of clients.splice(0)) client.close();
    await first.app.close();
    apps.splice(apps.indexOf(first.app), 1);
    clock.jump(25 * HOUR);

    const again = await serve(clock, dataDir);
    // Timers already due fire at once (the system clock runs them in the next turn).
    clock.advance(0);
    expect(await view(again.app, waiting.code)).toMatchObject({ state: 'closed', closedReason: 'expired' });
    const capped = await view(again.app, running.code);
    expect(capped.state).toBe('finished');
    expect(capped.standings!.map((standing) => standing.state)).toEqual(['timed-out', 'timed-out']);
  });
});

describe('when the database refuses the timer’s write', () => {
  /** Another connection holds the write lock: every write of the server fails until it lets go. */
  function lockOf(dataDir: string) {
    const locker = new Database(join(dataDir, DB_FILE));
    return {
      lock: () => locker.exec('BEGIN IMMEDIATE'),
      unlock: () => {
        locker.exec('ROLLBACK');
        locker.close();
      },
    };
  }
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-lifecycle-'));
    dirs.push(dir);
    return dir;
  };

  it('ends a grace period once the database takes writes again', async () => {
    const clock = new ManualClock();
    const dataDir = tempDir();
    const { app, code, b, spectator } = await runningRace(clock, dataDir);
    b.close();
    await spectator.next('race', (message) => message.race.racers[1]!.presence.state === 'reconnecting');
    const { lock, unlock } = lockOf(dataDir);
    lock();
    clock.advance(GRACE_MS);
    expect((await view(app, code)).progress.map((entry) => entry.status)).toEqual(['playing', 'disconnected']);
    unlock();
    clock.advance(STORAGE_RETRY_MS);
    expect((await view(app, code)).progress.map((entry) => entry.status)).toEqual(['playing', 'abandoned']);
  });

  it('closes an expired lobby once the database takes writes again', async () => {
    const clock = new ManualClock();
    const dataDir = tempDir();
    const { app, wsBase } = await serve(clock, dataDir);
    const ana = await createPlayer(app, 'Ana');
    const { code } = await createRace(app, ana, { seats: 2 });
    // Her socket open: no grace period of hers ends the lobby first.
    await connect(wsBase, ana, code);
    const { lock, unlock } = lockOf(dataDir);
    lock();
    clock.advance(HOUR);
    expect((await view(app, code)).state).toBe('lobby');
    unlock();
    clock.advance(STORAGE_RETRY_MS);
    expect(await view(app, code)).toMatchObject({ state: 'closed', closedReason: 'expired' });
  });
});
