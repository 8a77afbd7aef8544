// Timers have one owner: two instances on one PostgreSQL database and one Redis, sharing one
// manual clock. Only the holder of the timer lease arms timers; a race started, a lobby opened
// or a socket closed on the other instance reaches it by a notice; when the owner loses Redis
// (a crash, as far as the others can tell) or stops, the other takes every pending timer over
// from the store, and each fires exactly once.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAY_MS, dayOf, dayStart } from '../../contract/day.js';
import type { RaceEvent, RaceView, ServerMessage } from '../../contract/index.js';
import { api, Client, createPlayer, createRace, ManualClock, startServer, type TestPlayer, type TestServer } from './helpers.js';
import { createTestDatabase, type TestDatabase } from './pg.js';
import { relay } from './relay.js';

const COUNTDOWN_MS = 5000;
const LIMIT_MS = 60_000;
const GRACE_MS = 120_000;
const LOBBY_LIMIT_MS = 90_000;
/** Short, so a crashed owner is replaced quickly; graceful handovers must not wait for it. */
const SHORT_TTL_MS = 600;
/** Between the countdown and the lobby limit: a timer whose notice was lost is armed by then. */
const RESCAN_MS = 20_000;

function redisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
  return url;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Cluster {
  clock: ManualClock;
  database: TestDatabase;
  lease: string;
  start(options?: { redisUrl?: string; ttlMs?: number; lobbyLimitMs?: number }): Promise<TestServer>;
}

async function cluster(): Promise<Cluster> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const clock = new ManualClock();
  const lease = `test-${randomUUID()}`;
  return {
    clock,
    database,
    lease,
    async start({ redisUrl: url = redisUrl(), ttlMs = SHORT_TTL_MS, lobbyLimitMs = LOBBY_LIMIT_MS } = {}) {
      const server = await startServer({
        databaseUrl: database.url,
        redisUrl: url,
        redisPrefix: lease,
        timerLease: { name: lease, ttlMs, rescanMs: RESCAN_MS },
        clock,
        countdownMs: COUNTDOWN_MS,
        lifecycle: { graceMs: GRACE_MS, lobbyLimitMs },
        rateLimits: false,
      });
      let closed = false;
      const close = server.app.close.bind(server.app);
      server.app.close = (async () => {
        if (closed) return;
        closed = true;
        await close();
      }) as FastifyInstance['close'];
      cleanups.push(() => server.app.close());
      return server;
    },
  };
}

/** Timers armed on an instance (its owned clock). */
const armed = (app: FastifyInstance): number => app.scheduler.clock.pending;

/** The race events an instance told its watchers (the race's code and the event), in order. */
const told = (spy: { mock: { calls: [string, ServerMessage][] } }): [string, RaceEvent][] =>
  spy.mock.calls.flatMap(([code, message]) => (message.type === 'race-event' ? [[code, message.event] as [string, RaceEvent]] : []));

const owner = async (app: FastifyInstance): Promise<void> => vi.waitFor(() => expect(app.scheduler.runsTimers).toBe(true), { timeout: 10_000, interval: 20 });

/**
 * Waits for `check` to pass, running the timers due meanwhile: a timer armed from a stored
 * time already past (a notice or a takeover that came after the clock moved) fires at once.
 */
const settle = async (clock: ManualClock, check: () => Promise<void> | void): Promise<void> =>
  vi.waitFor(
    async () => {
      clock.advance(0);
      await check();
    },
    { timeout: 10_000, interval: 20 },
  );

const raceState = async (app: FastifyInstance, code: string): Promise<string> => (await api(app, 'GET', `/api/races/${code}`)).body.race.state;

/** A lobby of two made on `app`, started there: the race in countdown. */
async function startedRace(app: FastifyInstance, options: object = {}): Promise<{ code: string }> {
  const racers = [await createPlayer(app, 'Ana'), await createPlayer(app, 'Bob')];
  const { code } = await createRace(app, racers[0]!, { seats: 2, ...options });
  await api(app, 'POST', `/api/races/${code}/join`, racers[1]);
  expect((await api(app, 'POST', `/api/races/${code}/start`, racers[0])).body.race.state).toBe('countdown');
  return { code };
}

/** Two instances: A, the timer owner, reaches Redis through a relay the test can cut; B directly. */
async function ownerBehindRelay(start: Cluster['start']): Promise<{ link: Awaited<ReturnType<typeof relay>>; a: TestServer; b: TestServer }> {
  const link = await relay(new URL(redisUrl()));
  cleanups.push(() => link.close());
  const a = await start({ redisUrl: link.url });
  await owner(a.app);
  return { link, a, b: await start() };
}

/** Cleo and Dan, made on `server`, each with a socket there. */
async function cleoAndDan(server: TestServer): Promise<{ cleo: TestPlayer; dan: TestPlayer; tabs: Client[] }> {
  const [cleo, dan] = [await createPlayer(server.app, 'Cleo'), await createPlayer(server.app, 'Dan')];
  const tabs = await Promise.all([cleo, dan].map((player) => Client.connect(server.wsBase, player)));
  return { cleo, dan, tabs };
}

describe('timers on two instances', () => {
  it('run on the lease holder only: a race started elsewhere is dealt once, by the owner, and its time limit ends it once', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    const deals = [vi.spyOn(a.app.games, 'create'), vi.spyOn(b.app.games, 'create')];
    const ends = [vi.spyOn(a.app.storage.games, 'endGame'), vi.spyOn(b.app.storage.games, 'endGame')];

    const { code } = await startedRace(b.app, { timeLimitSeconds: LIMIT_MS / 1000 });
    expect(b.app.scheduler.runsTimers).toBe(false);
    expect(armed(b.app)).toBe(0);

    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    expect(deals.map((spy) => spy.mock.calls.length)).toEqual([1, 0]);
    expect(armed(b.app)).toBe(0);

    clock.advance(LIMIT_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('finished'));
    expect(ends.map((spy) => spy.mock.calls.length)).toEqual([2, 0]);
    const view = (await api(b.app, 'GET', `/api/races/${code}`)).body.race;
    expect(view.standings.map((standing: { state: string }) => standing.state)).toEqual(['timed-out', 'timed-out']);
  });

  it('reach the owner from the other instance: a lobby made there closes at its limit, a racer who left there is abandoned after the grace period', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    const ana = await createPlayer(b.app, 'Ana');
    const lobby = await createRace(b.app, ana, { seats: 2 });
    // Both racers on B's sockets, so only Bob's leaving starts a grace period.
    const players = [await createPlayer(b.app, 'Cleo'), await createPlayer(b.app, 'Bob')];
    const sockets = await Promise.all(players.map((player) => Client.connect(b.wsBase, player)));
    const { code } = await createRace(b.app, players[0]!, { seats: 2 });
    await api(b.app, 'POST', `/api/races/${code}/join`, players[1]);
    await api(b.app, 'POST', `/api/races/${code}/start`, players[0]);
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    // Bob closes his socket on B: A, the owner, hears of it through shared presence, stores when he left and arms his grace period.
    sockets[1]!.close();
    await vi.waitFor(async () => expect((await api(b.app, 'GET', `/api/races/${code}`)).body.race.racers[1].presence.state).toBe('reconnecting'), { timeout: 10_000, interval: 20 });

    clock.advance(GRACE_MS);
    await settle(clock, async () => {
      const view = (await api(b.app, 'GET', `/api/races/${code}`)).body.race;
      expect(view.progress.map((progress: { name: string; status: string }) => [progress.name, progress.status])).toEqual([
        ['Cleo', 'playing'],
        ['Bob', 'abandoned'],
      ]);
    });
    await settle(clock, async () => expect((await api(b.app, 'GET', `/api/races/${lobby.code}`)).body.race).toMatchObject({ state: 'closed', closedReason: 'expired' }));
    expect(armed(b.app)).toBe(0);
    sockets[0]!.close();
  });

  it('move to the other instance when the owner loses Redis: its pending countdown and time limits fire there, once', async () => {
    const { clock, start } = await cluster();
    const { link, a, b } = await ownerBehindRelay(start);
    const running = await startedRace(b.app, { timeLimitSeconds: LIMIT_MS / 1000 });
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, running.code)).toBe('running'));
    const waiting = await startedRace(b.app);
    // The countdown and both time limits.
    await vi.waitFor(() => expect(armed(a.app)).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 10 });
    const deals = [vi.spyOn(a.app.games, 'create'), vi.spyOn(b.app.games, 'create')];
    const ends = [vi.spyOn(a.app.storage.games, 'endGame'), vi.spyOn(b.app.storage.games, 'endGame')];

    // A's connections to Redis drop: it cannot renew, gives its timers up, and B takes them once the lease expires.
    const cutAt = Date.now();
    await link.cut();
    await owner(b.app);
    const takeoverMs = Date.now() - cutAt;
    expect(a.app.scheduler.runsTimers).toBe(false);
    expect(armed(a.app)).toBe(0);
    console.log(`takeover after the owner lost Redis: ${takeoverMs} ms (lease ${SHORT_TTL_MS} ms)`);

    clock.advance(LIMIT_MS);
    await settle(clock, async () => expect(await raceState(b.app, waiting.code)).toBe('running'));
    await settle(clock, async () => expect(await raceState(b.app, running.code)).toBe('finished'));
    expect(deals.map((spy) => spy.mock.calls.length)).toEqual([0, 1]);
    expect(ends.map((spy) => spy.mock.calls.length)).toEqual([0, 2]);
    await link.restore();
  });

  it('are not forgotten when a notice is lost: the owner arms them from the store at its next rescan, and each fires once, there', async () => {
    const { clock, start, lease } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    // Every notice B sends the owner is lost on the way (a Redis hiccup).
    const bus = b.app.bus!;
    const publish = bus.publish.bind(bus);
    const lost = vi.spyOn(bus, 'publish').mockImplementation(async (topic, payload) => (topic === lease ? 0 : publish(topic, payload)));
    const apps = [a.app, b.app];
    const deals = apps.map((app) => vi.spyOn(app.games, 'create'));
    const ends = apps.map((app) => vi.spyOn(app.storage.games, 'endGame'));
    const announced = apps.map((app) => vi.spyOn(app.transport, 'toRace'));

    // A lobby (its limit), a race in countdown without a time limit whose racers have no socket
    // (the deal, their grace periods), a daily attempt (the end of its day): all stored on B.
    const lobby = await createRace(b.app, await createPlayer(b.app, 'Ana'), { seats: 2 });
    const { code } = await startedRace(b.app);
    const attempt = (await api(b.app, 'POST', '/api/daily/start', await createPlayer(b.app, 'Eve'))).body.game;
    expect(lost.mock.calls.filter(([topic]) => topic === lease).length).toBeGreaterThanOrEqual(4);

    clock.advance(RESCAN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    expect(deals.map((spy) => spy.mock.calls.filter(([specs]) => specs[0]?.kind === 'race').length)).toEqual([1, 0]);

    clock.advance(GRACE_MS);
    await settle(clock, async () => expect((await api(b.app, 'GET', `/api/races/${lobby.code}`)).body.race).toMatchObject({ state: 'closed', closedReason: 'expired' }));
    await settle(clock, async () => {
      const view = (await api(b.app, 'GET', `/api/races/${code}`)).body.race;
      expect(view.standings?.map((standing: { state: string }) => standing.state)).toEqual(['abandoned', 'abandoned']);
    });
    const events = (spy: (typeof announced)[number]) => told(spy).map(([raceCode, event]) => `${raceCode === code ? 'race' : 'lobby'} ${event.kind}`).sort();
    // Told after the stored end, which the view may show first.
    await vi.waitFor(() => expect(announced.map(events)).toEqual([['lobby closed', 'race abandoned', 'race abandoned'], []]), { timeout: 10_000, interval: 10 });

    clock.advance(dayStart(dayOf(clock.now())) + DAY_MS - clock.now());
    const endsOf = (spy: (typeof ends)[number]) => spy.mock.calls.filter(([end]) => end.gameId === attempt.gameId).map(([end]) => end.status);
    await settle(clock, () => expect(ends.map(endsOf)).toEqual([['timed-out'], []]));
    expect(ends.map((spy) => spy.mock.calls.length)).toEqual([3, 0]);
  });

  it('finish at a rescan a race whose last game ended on an instance that did not store the standings', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    const { code } = await startedRace(b.app);
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    // B ends both games and dies before it stores the standings.
    vi.spyOn(b.app.storage.races, 'finish').mockResolvedValue(false);
    const finishes = vi.spyOn(a.app.storage.races, 'finish');
    const race = (await b.app.storage.races.byCode(code))!;
    for (const game of await b.app.storage.races.games(race.id)) {
      expect(await b.app.games.resign((await b.app.storage.players.byId(game.playerId))!, game.id)).toBeUndefined();
    }
    expect(await raceState(b.app, code)).toBe('running');

    clock.advance(RESCAN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('finished'));
    expect(finishes).toHaveBeenCalledTimes(1);
  });

  it('leave a timer that is firing alone at a rescan: a deal or a lobby close still being stored is not started again', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const lobby = await createRace(a.app, await createPlayer(a.app, 'Ana'), { seats: 2 });
    const { code } = await startedRace(a.app);
    // The deal's games and the lobby's close wait until the rescan round is over.
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { games, races } = a.app.storage;
    const [createGames, transition] = [games.createGames.bind(games), races.transition.bind(races)];
    const creates = vi.spyOn(games, 'createGames').mockImplementation(async (...args) => held.then(() => createGames(...args)));
    const closes = vi.spyOn(races, 'transition').mockImplementation(async (...args) => held.then(() => transition(...args)));
    const rounds = vi.spyOn(a.app.scheduler, 'rescan');

    clock.advance(LOBBY_LIMIT_MS);
    await vi.waitFor(() => expect([creates.mock.calls.length, closes.mock.calls.length]).toEqual([1, 1]), { timeout: 10_000, interval: 10 });
    clock.advance(RESCAN_MS);
    await vi.waitFor(() => expect(rounds).toHaveBeenCalled(), { timeout: 10_000, interval: 10 });
    await rounds.mock.results[0]!.value;
    clock.advance(0);
    release();
    await settle(clock, async () => expect(await raceState(a.app, code)).toBe('running'));
    expect(await raceState(a.app, lobby.code)).toBe('closed');
    expect([creates.mock.calls.length, closes.mock.calls.length]).toEqual([1, 1]);
  });

  it('end a grace period from the stored time: a racer stored as gone since later than the timer knew is judged from then', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const [cleo, dan] = [await createPlayer(a.app, 'Cleo'), await createPlayer(a.app, 'Dan')];
    const tabs = await Promise.all([cleo, dan].map((player) => Client.connect(a.wsBase, player)));
    const { code } = await createRace(a.app, cleo, { seats: 2 });
    await api(a.app, 'POST', `/api/races/${code}/join`, dan);
    await api(a.app, 'POST', `/api/races/${code}/start`, cleo);
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(a.app, code)).toBe('running'));
    const race = (await a.app.storage.races.byCode(code))!;
    tabs[1]!.close();
    await vi.waitFor(async () => expect((await a.app.storage.races.entry(race.id, dan.id))?.goneSince).toBe(clock.now()), { timeout: 10_000, interval: 10 });
    // He came back and left again on an instance whose news never reached this one.
    const later = clock.now() + GRACE_MS / 2;
    await a.app.storage.races.updateEntry(race.id, dan.id, { goneSince: later });

    const entries = vi.spyOn(a.app.storage.races, 'entry');
    const gameIds = vi.spyOn(a.app.storage.races, 'gameIdOf');
    clock.advance(GRACE_MS);
    // The timer read his entry and, once the turn that read it is over, had not gone on to his game.
    await vi.waitFor(() => expect(entries).toHaveBeenCalled(), { timeout: 10_000, interval: 10 });
    await Promise.all(entries.mock.results.map((result) => result.value));
    await new Promise((resolve) => setImmediate(resolve));
    expect(gameIds).not.toHaveBeenCalled();
    const dans = async () => (await api(a.app, 'GET', `/api/races/${code}`)).body.race.progress[1];
    expect((await dans()).status).toBe('disconnected');
    clock.advance(GRACE_MS / 2);
    await settle(clock, async () => expect(await dans()).toMatchObject({ status: 'abandoned', finishedAt: later }));
    tabs[0]!.close();
  });

  it('start no grace period at a rescan: a racer the owner has not yet heard connect elsewhere is not taken for gone', async () => {
    const { clock, start } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    const ana = await createPlayer(b.app, 'Ana');
    const socket = await Client.connect(b.wsBase, ana);
    await vi.waitFor(() => expect(a.app.transport.isConnected(ana.id)).toBe(true), { timeout: 10_000, interval: 10 });
    const { code } = await createRace(b.app, ana, { seats: 2 });
    // The owner's view of presence lags behind: as far as it knows, Ana has no socket.
    vi.spyOn(a.app.transport, 'isConnected').mockReturnValue(false);
    const writes = vi.spyOn(a.app.storage.races, 'updateEntry');
    const rounds = vi.spyOn(a.app.scheduler, 'rescan');

    clock.advance(RESCAN_MS);
    await vi.waitFor(() => expect(rounds).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 10 });
    await rounds.mock.results[0]!.value;
    expect(writes).not.toHaveBeenCalled();
    const race = (await b.app.storage.races.byCode(code))!;
    expect((await b.app.storage.races.entry(race.id, ana.id))?.goneSince).toBeNull();
    socket.close();
  });

  it('change the stored state once when a stale owner fires them too: one deal, one end per game, one finish, one close', async () => {
    const { clock, start, database } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    // B's lease is gone but it has not noticed yet: it keeps arming and firing (the window a lease's expiry leaves).
    b.app.scheduler.clock.owner = true;
    const apps = [a.app, b.app];
    const announced = apps.map((app) => vi.spyOn(app.transport, 'toRace'));
    const ends = apps.map((app) => vi.spyOn(app.storage.games, 'endGame'));
    const finishes = apps.map((app) => vi.spyOn(app.storage.races, 'finish'));
    const ana = await createPlayer(b.app, 'Ana');
    const lobby = await createRace(b.app, ana, { seats: 2 });
    const { code } = await startedRace(b.app, { timeLimitSeconds: LIMIT_MS / 1000 });
    // B, believing it runs the timers, tells A nothing: A arms them from the store, as its next rescan does.
    await a.app.scheduler.rescan();
    expect(armed(a.app)).toBeGreaterThanOrEqual(armed(b.app));

    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    cleanups.push(() => sql.end());
    const { rows } = await sql.query<{ id: number }>('select g.id from games g join races r on r.id = g.race_id where r.code = $1', [code]);
    expect(rows).toHaveLength(2);
    // Both arm both deadlines.
    for (const app of apps) await app.scheduler.rescan();

    clock.advance(LOBBY_LIMIT_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('finished'));
    await settle(clock, async () => expect(await raceState(b.app, lobby.code)).toBe('closed'));
    const outcomes = async (spies: { mock: { results: { value: unknown }[] } }[]) =>
      (await Promise.all(spies.flatMap((spy) => spy.mock.results.map((result) => result.value)))).filter((value) => value === true).length;
    expect(await outcomes(ends)).toBe(2);
    expect(await outcomes(finishes)).toBe(1);
    // Told after the stored close, which the view may show first.
    const closes = () => announced.flatMap(told).filter(([announcedCode, event]) => announcedCode === lobby.code && event.kind === 'closed');
    await vi.waitFor(() => expect(closes()).toHaveLength(1), { timeout: 10_000, interval: 10 });
  });

  it('free a seat and abandon a game once when a stale owner acts too, and a seat left twice at once is freed once', async () => {
    const { clock, start } = await cluster();
    // Lobbies outlive Bob's grace period.
    const a = await start({ lobbyLimitMs: 2 * GRACE_MS });
    await owner(a.app);
    const b = await start({ lobbyLimitMs: 2 * GRACE_MS });
    b.app.scheduler.clock.owner = true;
    const apps = [a.app, b.app];
    const announced = apps.map((app) => vi.spyOn(app.transport, 'toRace'));
    const unseats = apps.map((app) => vi.spyOn(app.storage.races, 'unseat'));
    const ends = apps.map((app) => vi.spyOn(app.storage.games, 'endGame'));
    const seatReads = apps.map((app) => vi.spyOn(app.storage.races, 'entry'));
    // A lobby whose creator stays and whose Bob has no socket (his grace period runs on both), and Fay, who will leave.
    const [ana, bob, fay, cleo, dan] = await Promise.all(['Ana', 'Bob', 'Fay', 'Cleo', 'Dan'].map((name) => createPlayer(b.app, name)));
    const sockets = await Promise.all([ana!, cleo!, dan!].map((player) => Client.connect(b.wsBase, player)));
    const lobby = await createRace(b.app, ana!, { seats: 3 });
    for (const player of [bob!, fay!]) await api(b.app, 'POST', `/api/races/${lobby.code}/join`, player);
    // A race whose Dan leaves once it runs: both instances hear of it and arm his grace period.
    const { code } = await createRace(b.app, cleo!, { seats: 2 });
    await api(b.app, 'POST', `/api/races/${code}/join`, dan);
    await api(b.app, 'POST', `/api/races/${code}/start`, cleo);
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    sockets[2]!.close();
    await vi.waitFor(async () => expect((await api(a.app, 'GET', `/api/races/${code}`)).body.race.racers[1].presence.state).toBe('reconnecting'), { timeout: 10_000, interval: 20 });
    // Only the owner heard it as a timer matter; the stale one arms Dan's grace period from the store
    // too. And the owner arms Bob's from the store: the stale one, sure it runs the timers, armed it
    // at his join and told nobody (before, the owner held it only if its own rescan had come since).
    for (const app of apps) await app.scheduler.rescan();

    // The second answers as if she had left, or finds her seat freed already (not-seated).
    const left = await Promise.all(apps.map((app) => api(app, 'POST', `/api/races/${lobby.code}/leave`, fay)));
    expect(left.map((answer) => (answer.status === 200 ? 200 : answer.body.code)).sort()).toContain(200);
    expect(left.filter((answer) => answer.status !== 200 && answer.body.code !== 'not-seated')).toEqual([]);
    const readsBefore = seatReads.map((spy) => spy.mock.calls.length);
    clock.advance(GRACE_MS);
    await settle(clock, async () => {
      const view = (await api(b.app, 'GET', `/api/races/${lobby.code}`)).body.race;
      expect(view.racers.map((racer: { name: string }) => racer.name)).toEqual(['Ana']);
    });
    await settle(clock, async () => expect((await api(b.app, 'GET', `/api/races/${code}`)).body.race.progress[1].status).toBe('abandoned'));
    const outcomes = async (spies: { mock: { results: { value: unknown }[] } }[]) =>
      (await Promise.all(spies.flatMap((spy) => spy.mock.results.map((result) => result.value)))).filter((value) => value !== undefined && value !== false).length;
    // Both instances judge Bob's grace period, the stale owner maybe after the view shows his seat
    // freed (and a rescan may judge it again): each reads his seat, and tries to free it whenever
    // it still finds it. Waited for, then counted.
    const bobsSeatReads = (i: number) => seatReads[i]!.mock.calls.slice(readsBefore[i]).flatMap(([, playerId], at) => (playerId === bob!.id ? [seatReads[i]!.mock.results[readsBefore[i]! + at]!.value] : []));
    await vi.waitFor(() => expect(apps.map((_, i) => bobsSeatReads(i).length > 0)).toEqual([true, true]), { timeout: 10_000, interval: 10 });
    const foundSeated = await Promise.all(apps.map(async (_, i) => (await Promise.all(bobsSeatReads(i))).filter((entry) => entry !== undefined).length));
    const bobsUnseats = () => unseats.map((spy) => spy.mock.calls.filter(([, playerId]) => playerId === bob!.id).length);
    await vi.waitFor(() => expect(bobsUnseats()).toEqual(foundSeated), { timeout: 10_000, interval: 10 });
    expect(await outcomes(unseats)).toBe(2);
    expect(await outcomes(ends)).toBe(1);
    // Told after the stored end (which the view shows first); a second one would come with it.
    const events = () => announced.flatMap(told).map(([, event]) => `${event.kind} ${event.player?.name}`).sort();
    await vi.waitFor(() => expect(events()).toContain('abandoned Dan'), { timeout: 10_000, interval: 10 });
    expect(events()).toEqual(['abandoned Dan', 'left Fay', 'unseated Bob']);
    for (const socket of sockets) socket.close();
  });

  it('send one race view per presence change, from the owner, to the watchers of both instances', async () => {
    const { start } = await cluster();
    const a = await start();
    await owner(a.app);
    const b = await start();
    const [ana, bob] = [await createPlayer(b.app, 'Ana'), await createPlayer(b.app, 'Bob')];
    const { code } = await createRace(b.app, ana, { seats: 2 });
    await api(b.app, 'POST', `/api/races/${code}/join`, bob);
    const watchers = await Promise.all([a, b].map((server) => Client.connect(server.wsBase)));
    for (const watcher of watchers) {
      watcher.send({ type: 'watch', code });
      await watcher.next('race', ({ race }) => race.racers.length === 2);
    }
    const seatIs = (seat: number, state: string) => ({ race }: { race: RaceView }) => race.racers[seat]!.presence.state === state;
    // The racers come online one at a time, each told by the owner, so that no view of a
    // connection is still on its way when the counting starts.
    const tabs: Client[] = [];
    for (const [seat, player] of [ana, bob].entries()) {
      tabs.push(await Client.connect(b.wsBase, player));
      for (const watcher of watchers) await watcher.next('race', seatIs(seat, 'online'));
    }
    const views = [a, b].map((server) => vi.spyOn(server.app.transport, 'toRace'));

    tabs[1]!.close();
    for (const watcher of watchers) await watcher.next('race', seatIs(1, 'reconnecting'));
    tabs[1] = await Client.connect(b.wsBase, bob);
    for (const watcher of watchers) await watcher.next('race', seatIs(1, 'online'));
    expect(views.map((spy) => spy.mock.calls.filter(([, message]) => message.type === 'race').length)).toEqual([2, 0]);
    for (const socket of [...tabs, ...watchers]) socket.close();
  });

  it('deal once when the owner loses Redis as its countdown ends, whichever of the two deals', async () => {
    const { clock, start } = await cluster();
    const { link, a, b } = await ownerBehindRelay(start);
    const { cleo, dan, tabs } = await cleoAndDan(b);
    const { code } = await createRace(b.app, cleo, { seats: 2, timeLimitSeconds: LIMIT_MS / 1000 });
    await api(b.app, 'POST', `/api/races/${code}/join`, dan);
    await api(b.app, 'POST', `/api/races/${code}/start`, cleo);
    // A has the countdown: the notice of the start has been read.
    const raceId = String((await b.app.storage.races.byCode(code))!.id);
    await vi.waitFor(() => expect(a.app.scheduler.has('race-deal', raceId)).toBe(true), { timeout: 10_000, interval: 10 });
    const deals = [vi.spyOn(a.app.games, 'create'), vi.spyOn(b.app.games, 'create')];
    const ends = [vi.spyOn(a.app.storage.games, 'endGame'), vi.spyOn(b.app.storage.games, 'endGame')];

    // The countdown ends as A is cut off: A deals if it still holds the lease then, else B once it takes over.
    await link.cut();
    clock.advance(COUNTDOWN_MS);
    await owner(b.app);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    // Whoever dealt, each racer gets their game (from A once it reaches Redis again).
    await link.restore();
    await Promise.all(tabs.map((tab) => tab.next('game')));
    expect(deals.flatMap((spy) => spy.mock.calls)).toHaveLength(1);

    clock.advance(LIMIT_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('finished'));
    expect(deals.flatMap((spy) => spy.mock.calls)).toHaveLength(1);
    expect(ends.map((spy) => spy.mock.calls.length)).toEqual([0, 2]);
    for (const tab of tabs) tab.close();
  });

  it('store and tell, on taking over, a racer who left while nobody owned the timers', async () => {
    const { clock, start } = await cluster();
    const { link, a, b } = await ownerBehindRelay(start);
    const { cleo, dan, tabs } = await cleoAndDan(b);
    const { code } = await createRace(b.app, cleo, { seats: 2 });
    await api(b.app, 'POST', `/api/races/${code}/join`, dan);
    await api(b.app, 'POST', `/api/races/${code}/start`, cleo);
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    await Promise.all(tabs.map((tab) => tab.next('game')));
    const watcher = await Client.connect(b.wsBase);
    watcher.send({ type: 'watch', code });
    await watcher.next('race', ({ race }) => race.state === 'running');
    const ends = [vi.spyOn(a.app.storage.games, 'endGame'), vi.spyOn(b.app.storage.games, 'endGame')];

    // A is cut off; Dan leaves on B before B owns the timers, so nobody stores it then.
    await link.cut();
    tabs[1]!.close();
    await owner(b.app);
    await watcher.next('race', ({ race }) => race.racers[1]!.presence.state === 'reconnecting');
    clock.advance(GRACE_MS);
    await settle(clock, async () => expect((await api(b.app, 'GET', `/api/races/${code}`)).body.race.progress[1].status).toBe('abandoned'));
    expect(ends.map((spy) => spy.mock.calls.length)).toEqual([0, 1]);
    await link.restore();
    for (const socket of [tabs[0]!, watcher]) socket.close();
  });

  it('hand over at once when the owner stops: the other instance does not wait for the lease to expire', async () => {
    const { clock, start } = await cluster();
    // A lease that outlives the test's waits: only the release explains a takeover.
    const a = await start({ ttlMs: 60_000 });
    await owner(a.app);
    const b = await start({ ttlMs: 60_000 });
    const { code } = await startedRace(b.app);
    const deals = vi.spyOn(b.app.games, 'create');

    await a.app.close();
    // Nothing armed stays behind on the stopped one, its next rescan round included.
    expect(armed(a.app)).toBe(0);
    await vi.waitFor(() => expect(b.app.scheduler.runsTimers).toBe(true), { timeout: 5000, interval: 10 });
    clock.advance(COUNTDOWN_MS);
    await settle(clock, async () => expect(await raceState(b.app, code)).toBe('running'));
    expect(deals).toHaveBeenCalledTimes(1);
  });
});
