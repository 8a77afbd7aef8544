// Domain events (server/events.ts): each is emitted once, after the write that makes it true.
// Every listener here reads the store as the event arrives: what the event announces must be
// stored by then. race-finished runs on two instances sharing PostgreSQL and Redis, where both
// hear of the last game's end and only the one whose write finished the race may emit it.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAY_MS, dayStart } from '../../contract/day.js';
import type { DomainEvent, DomainEventType } from '../../server/events.js';
import type { Pending } from '../../server/ports.js';
import { api, autoplay, createPlayer, createRace, ManualClock, startServer, TEST_DAILY_SECRET, type TestServer } from './helpers.js';
import { createTestDatabase } from './pg.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const started = await startServer(options);
  cleanups.push(() => started.app.close());
  return started;
}

/** Every event of `type` the app emits, each with what the store held as it was emitted. */
function heard<K extends DomainEventType, S>(app: FastifyInstance, type: K, stored: (event: DomainEvent<K>) => Pending<S>) {
  const events: { event: DomainEvent<K>; stored: Pending<S> }[] = [];
  app.events.on(type, (event) => void events.push({ event, stored: stored(event) }));
  return events;
}

describe('domain events', () => {
  it('player-created: once per identity, once it is stored', async () => {
    const { app } = await server();
    const created = heard(app, 'player-created', ({ player }) => app.storage.players.byId(player.id));
    const ana = await createPlayer(app, 'Ana');
    expect(created.map(({ event }) => event)).toEqual([{ type: 'player-created', player: { id: ana.id, name: 'Ana' } }]);
    expect(await created[0]!.stored).toEqual({ id: ana.id, name: 'Ana' });
    // A refused name stores nobody and says nothing.
    expect((await api(app, 'POST', '/api/players', undefined, { name: '' })).status).toBe(400);
    expect(created).toHaveLength(1);
  });

  it('game-ended: once per game, with its result stored; and daily-closed once at midnight', async () => {
    const clock = new ManualClock();
    const { app } = await server({ clock, dailySecret: TEST_DAILY_SECRET });
    const ended = heard(app, 'game-ended', ({ gameId }) => app.storage.games.loadGame(gameId));
    const closed = heard(app, 'daily-closed', () => undefined);
    const ana = await createPlayer(app, 'Ana');
    const { body } = await api(app, 'POST', '/api/daily/start', ana);
    const gameId: number = body.game.gameId;
    // homeFirst wins this day's deal in 67 actions (helpers.ts).
    await autoplay(app, ana, gameId);
    expect(ended.map(({ event }) => event)).toEqual([
      {
        type: 'game-ended',
        gameId,
        kind: 'daily',
        playerId: ana.id,
        raceId: null,
        variant: 'strict',
        state: 'won',
        foundations: 52,
        moves: 67,
        startedAt: clock.now(),
        finishedAt: clock.now(),
      },
    ]);
    expect(await ended[0]!.stored).toMatchObject({ id: gameId, status: 'won', finishedAt: clock.now() });
    // Resigning the finished game is refused and ends nothing again.
    expect((await api(app, 'POST', '/api/daily/start', ana)).body.code).toBe('daily-played');
    expect(ended).toHaveLength(1);

    expect(closed).toEqual([]);
    const midnight = dayStart('2026-11-29') + DAY_MS;
    clock.advance(midnight - 1 - clock.now());
    expect(closed).toEqual([]);
    clock.advance(1);
    expect(closed.map(({ event }) => event)).toEqual([{ type: 'daily-closed', day: '2026-11-29' }]);
    clock.advance(DAY_MS);
    expect(closed.map(({ event }) => event.day)).toEqual(['2026-11-29', '2026-11-30']);
  });

  it('race-finished: once across two instances, with the standings stored, when its last games end on both at once', async () => {
    const url = process.env.TEST_REDIS_URL;
    if (!url) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const clock = new ManualClock();
    const lease = `test-${randomUUID()}`;
    const options = { databaseUrl: database.url, redisUrl: url, redisPrefix: lease, timerLease: { name: lease }, clock, rateLimits: false as const };
    const a = await server(options);
    await vi.waitFor(() => expect(a.app.scheduler.runsTimers).toBe(true), { timeout: 10_000, interval: 20 });
    const b = await server(options);
    const instances = [a.app, b.app];
    const finishes = instances.map((app) => heard(app, 'race-finished', ({ raceId }) => app.storage.races.byId(raceId)));
    const ends = instances.map((app) => heard(app, 'game-ended', () => undefined));

    const [ana, bob] = [await createPlayer(a.app, 'Ana'), await createPlayer(b.app, 'Bob')];
    const { code } = await createRace(a.app, ana, { seats: 2 });
    await api(b.app, 'POST', `/api/races/${code}/join`, bob);
    await api(a.app, 'POST', `/api/races/${code}/start`, ana);
    const racers = async () => (await api(a.app, 'GET', `/api/races/${code}`)).body.race;
    // The owner deals when the countdown (none here) ends on the test's clock.
    await vi.waitFor(
      async () => {
        clock.advance(0);
        expect((await racers()).progress).toHaveLength(2);
      },
      { timeout: 10_000, interval: 20 },
    );
    const gameOf = async (playerId: number): Promise<number> => (await racers()).progress.find((row: { playerId: number }) => row.playerId === playerId).gameId;
    // Ana's game ends on A, Bob's on B at the same moment: both instances may find the race done
    // and try to store its standings; the conditional write lets one of them.
    const [anaGame, bobGame] = [await gameOf(ana.id), await gameOf(bob.id)];
    expect(await Promise.all([a.app.games.resign(ana, anaGame), b.app.games.resign(bob, bobGame)])).toEqual([undefined, undefined]);
    await vi.waitFor(async () => expect((await racers()).state).toBe('finished'), { timeout: 10_000, interval: 20 });
    // Whatever rescan rounds or notices still run, no second emission.
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Each game's end on the instance that stored it; the race's on whichever stored its standings.
    expect(ends.map((heardThere) => heardThere.map(({ event }) => event.playerId))).toEqual([[ana.id], [bob.id]]);
    const finished = finishes.flat();
    expect(finished).toHaveLength(1);
    const { event, stored } = finished[0]!;
    expect(event).toMatchObject({ type: 'race-finished', code, finishedAt: clock.now() });
    expect(event.standings.map(({ playerId, rank, state }) => ({ playerId, rank, state }))).toEqual([
      { playerId: ana.id, rank: 1, state: 'resigned' },
      { playerId: bob.id, rank: 1, state: 'resigned' },
    ]);
    expect(await stored).toMatchObject({ code, state: 'finished', finishedAt: clock.now() });
  });
});
