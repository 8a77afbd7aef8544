// The game service on each storage behind the port, with the same tests: SQLite (the default,
// answering in the same turn) and PostgreSQL (answering later, on the test cluster that
// test/services.ts or .ci/run starts). Two services on one database stand for two instances.
// Then what only a shared networked database has: two instances playing the same game, and an
// instance that loses its database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerView, ServerMessage } from '../../contract/index.js';
import { makeAction, makeBoard } from '../../shared/index.js';
import { closeDatabase, openDatabase } from '../../server/db/index.js';
import * as sqlite from '../../server/db/schema.js';
import { pgStorage as pgStores } from '../../server/db/pg/storage.js';
import { sqliteStorage as sqliteStores } from '../../server/db/storage.js';
import { openPgDatabase, pgSql, type PgDb } from '../../server/db/pg/index.js';
import * as pgSchema from '../../server/db/pg/schema.js';
import { DomainEvents } from '../../server/events.js';
import type { GameStore, Scheduler, Transport } from '../../server/ports.js';
import type { LiveGame } from '../../server/games/live-game.js';
import { GameService } from '../../server/games/service.js';
import { Refusal } from '../../server/errors.js';
import { homeFirst, ManualClock } from './helpers.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

/** One database, two instances' stores on it, and rows the game service does not write itself. */
interface Storage {
  readonly stores: [GameStore, GameStore];
  addPlayer(name: string): Promise<PlayerView>;
  addRace(creatorId: number): Promise<number>;
  raceState(raceId: number): Promise<{ state: string; capAt: number | null }>;
  close(): Promise<void>;
}

async function sqliteStorage(): Promise<Storage> {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-stores-'));
  const dbs = [openDatabase(dir), openDatabase(dir)] as const;
  const db = dbs[0];
  return {
    stores: [sqliteStores(dbs[0]).games, sqliteStores(dbs[1]).games],
    addPlayer: async (name) => db.insert(sqlite.players).values({ name, createdAt: 0 }).returning({ id: sqlite.players.id, name: sqlite.players.name }).get(),
    addRace: async (creatorId) =>
      db.insert(sqlite.races).values({ code: `R${creatorId}`, variant: 'strict', seats: 2, seed: 'race-seed', state: 'countdown', creatorId, createdAt: 0 }).returning({ id: sqlite.races.id }).get().id,
    raceState: async (id) => db.select({ state: sqlite.races.state, capAt: sqlite.races.capAt }).from(sqlite.races).where(eq(sqlite.races.id, id)).get()!,
    async close() {
      await Promise.all(dbs.map((each) => closeDatabase(each)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pgStorage(): Promise<Storage & { dbs: [PgDb, PgDb] }> {
  const database: TestDatabase = await createTestDatabase();
  const dbs: [PgDb, PgDb] = [await openPgDatabase(database.url, { poolSize: 4 }), await openPgDatabase(database.url, { poolSize: 4 })];
  const { db, one } = pgSql(dbs[0]);
  return {
    dbs,
    stores: [pgStores(dbs[0]).games, pgStores(dbs[1]).games],
    addPlayer: async (name) =>
      (await one(db.insert(pgSchema.players).values({ name, createdAt: 0 }).returning({ id: pgSchema.players.id, name: pgSchema.players.name })))!,
    addRace: async (creatorId) =>
      (await one(db.insert(pgSchema.races).values({ code: `R${creatorId}`, variant: 'strict', seats: 2, seed: 'race-seed', state: 'countdown', creatorId, createdAt: 0 }).returning({ id: pgSchema.races.id })))!.id,
    raceState: async (id) => (await one(db.select({ state: pgSchema.races.state, capAt: pgSchema.races.capAt }).from(pgSchema.races).where(eq(pgSchema.races.id, id))))!,
    async close() {
      await Promise.all(dbs.map((each) => each.$client.end().catch(() => {})));
      await database.drop();
    },
  };
}

/** A listener that throws fails the test. */
const fail = (error: unknown): never => {
  throw error;
};
/** Deadlines are not under test here. */
const unscheduled: Scheduler = { handle() {}, onTakeover() {}, stored() {}, arm() {}, cancel() {}, runsTimers: true };
const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;

function instance(store: GameStore) {
  const sent: ServerMessage[] = [];
  const record = (_to: unknown, message: ServerMessage) => void sent.push(message);
  const transport: Transport = { toPlayer: record, toPlayerNow: record, toRace: record, isConnected: () => true, onPresence: () => {}, closeDevice: () => {} };
  return { games: new GameService({ store, transport, clock: new ManualClock(), log: silent, events: new DomainEvents(fail), scheduler: unscheduled, othersWrite: false }), acks: () => sent.filter((message) => message.type === 'ack') };
}

/** Plays `homeFirst` through the service to the end or `limit` actions; every answer must be an acknowledgement. */
async function playOut(games: GameService, player: PlayerView, game: LiveGame, limit = Number.POSITIVE_INFINITY): Promise<void> {
  for (let action = homeFirst(game.position); action && game.actions.length < limit; action = homeFirst(game.position)) {
    const refusal = await games.play(player, { gameId: game.id, index: game.actions.length, action: makeAction(action) });
    if (refusal) throw new Error(`${refusal.code}: ${refusal.message}`);
  }
}

describe.each([
  ['SQLite', sqliteStorage],
  ['PostgreSQL', pgStorage],
] as const)('the game service on %s', (_name, open) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await open();
  });
  afterAll(async () => storage?.close());

  it('stores a game played to its end, redeals included, so another instance rebuilds the same position', async () => {
    const ana = await storage.addPlayer('ana');
    const first = instance(storage.stores[0]);
    const [game] = await first.games.create([{ kind: 'race', playerId: ana.id, variant: 'strict', seed: 'stores-1', startedAt: 0 }]);
    await playOut(first.games, ana, game!);
    expect(game!.state).not.toBe('playing');
    expect(game!.actions).toContain('R');
    expect(first.acks()).toHaveLength(game!.actions.length);
    const other = instance(storage.stores[1]);
    const again = (await other.games.get(game!.id))!;
    expect(again).toMatchObject({ state: game!.state, actions: game!.actions, deals: game!.deals, finishedAt: game!.finishedAt });
    expect(makeBoard(again.position)).toBe(makeBoard(game!.position));
    expect(await other.games.loadPlaying()).toBeUndefined();
    expect(other.games.live(game!.id)).toBeUndefined();
  });

  it('marks the race the games start running, with its cap, in the same write', async () => {
    const bo = await storage.addPlayer('bo');
    const raceId = await storage.addRace(bo.id);
    const { games } = instance(storage.stores[0]);
    const dealt = await games.create([{ kind: 'race', playerId: bo.id, raceId, variant: 'strict', seed: 'race-seed', startedAt: 0 }], { raceId, capAt: 1234 });
    expect(dealt.map((game) => game.raceId)).toEqual([raceId]);
    expect(await storage.raceState(raceId)).toEqual({ state: 'running', capAt: 1234 });
  });

  it('refuses a second daily attempt of a player and day as a duplicate, and lets the other instance load the playing one', async () => {
    const cy = await storage.addPlayer('cy');
    const attempt = { kind: 'daily' as const, playerId: cy.id, day: '2026-11-29', variant: 'strict' as const, seed: 'daily', startedAt: 0 };
    const first = instance(storage.stores[0]);
    const [game] = await first.games.create([attempt]);
    await playOut(first.games, cy, game!, 3);
    const other = instance(storage.stores[1]);
    const error = await Promise.resolve()
      .then(() => other.games.create([attempt]))
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(other.games.isDuplicate(error)).toBe(true);
    await other.games.loadPlaying();
    expect(other.games.live(game!.id)?.actions).toEqual(game!.actions);
  });

  it('acknowledges the same action sent to both at once on both, and stores it once', async () => {
    const eve = await storage.addPlayer('eve');
    const [a, b] = storage.stores.map(instance);
    const [game] = await a!.games.create([{ kind: 'race', playerId: eve.id, variant: 'strict', seed: 'stores-3', startedAt: 0 }]);
    await b!.games.get(game!.id);
    const action = makeAction(homeFirst(game!.position)!);
    const outcomes = await Promise.all([a!, b!].map(({ games }) => games.play(eve, { gameId: game!.id, index: 0, action })));
    expect(outcomes).toEqual([undefined, undefined]);
    expect([a!, b!].map(({ acks }) => acks().map((ack) => [ack.index, ack.action]))).toEqual([[[0, action]], [[0, action]]]);
    expect((await storage.stores[0].loadMoveLog(game!.id)).actions).toEqual([action]);
  });

  it('refuses the later of two different actions at one index as an index conflict, and plays on from the stored one', async () => {
    const flo = await storage.addPlayer('flo');
    const [a, b] = storage.stores.map(instance);
    const [game] = await a!.games.create([{ kind: 'race', playerId: flo.id, variant: 'strict', seed: 'stores-4', startedAt: 0 }]);
    const copy = (await b!.games.get(game!.id))!;
    const [one, two] = game!.position.legalActions().map(makeAction);
    expect(await a!.games.play(flo, { gameId: game!.id, index: 0, action: one! })).toBeUndefined();
    const refused = await b!.games.play(flo, { gameId: game!.id, index: 0, action: two! });
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ code: 'index-conflict', nextIndex: 1 });
    // Instance b read the game again: its next move is validated against the stored log.
    const fresh = b!.games.live(game!.id)!;
    expect(fresh).not.toBe(copy);
    expect(fresh.actions).toEqual([one]);
    await playOut(b!.games, flo, fresh, 3);
    expect((await storage.stores[0].loadMoveLog(game!.id)).actions).toEqual(fresh.actions);
  });

  it('stores a resignation, once', async () => {
    const di = await storage.addPlayer('di');
    const { games } = instance(storage.stores[0]);
    const [game] = await games.create([{ kind: 'race', playerId: di.id, variant: 'strict', seed: 'stores-2', startedAt: 0 }]);
    expect(await games.resign(di, game!.id)).toBeUndefined();
    expect((await games.resign(di, game!.id))?.code).toBe('game-over');
    expect(await storage.stores[1].loadGame(game!.id)).toMatchObject({ status: 'resigned' });
  });

  it('keeps the first end of a game when another instance ends it too', async () => {
    const gil = await storage.addPlayer('gil');
    const [a, b] = storage.stores.map(instance);
    const [game] = await a!.games.create([{ kind: 'race', playerId: gil.id, variant: 'strict', seed: 'stores-5', startedAt: 0 }]);
    const copy = (await b!.games.get(game!.id))!;
    expect(await a!.games.resign(gil, game!.id)).toBeUndefined();
    // Instance b still holds the game as playing: its late end must not overwrite the stored one.
    await b!.games.abandon(copy, 99);
    expect(await storage.stores[0].loadGame(game!.id)).toMatchObject({ status: 'resigned', finishedAt: game!.finishedAt });
  });
});

describe('an instance on PostgreSQL', () => {
  let storage: Awaited<ReturnType<typeof pgStorage>>;
  beforeAll(async () => {
    storage = await pgStorage();
  });
  afterAll(async () => storage?.close());

  it('refuses moves with storage-unavailable and acknowledges none once its database is gone', async () => {
    const cy = await storage.addPlayer('cy');
    const { games, acks } = instance(storage.stores[1]);
    const [game] = await games.create([{ kind: 'race', playerId: cy.id, variant: 'strict', seed: 'stores-5', startedAt: 0 }]);
    await storage.dbs[1].$client.end();
    const refused = await games.play(cy, { gameId: game!.id, index: 0, action: makeAction(homeFirst(game!.position)!) });
    expect(refused).toMatchObject({ code: 'storage-unavailable', nextIndex: 0 });
    expect(acks()).toEqual([]);
    expect(game!.actions).toEqual([]);
  });
});
