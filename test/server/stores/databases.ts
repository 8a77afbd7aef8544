// The two databases every store's contract suite runs on: SQLite (in memory) and PostgreSQL (a
// fresh database on the test cluster that test/services.ts or .ci/run starts), each behind the
// same Storage. Rows a suite needs are made through the ports themselves.
import { afterAll, beforeAll } from 'vitest';
import type { PlayerView } from '../../../contract/index.js';
import { openDatabase } from '../../../server/db/index.js';
import { openPgDatabase } from '../../../server/db/pg/index.js';
import { pgStorage } from '../../../server/db/pg/storage.js';
import { sqliteStorage } from '../../../server/db/storage.js';
import type { NewGameRow } from '../../../server/ports.js';
import type { NewRace, Storage } from '../../../server/stores.js';
import { createTestDatabase } from '../pg.js';

async function onSqlite(): Promise<{ storage: Storage; drop(): Promise<void> }> {
  return { storage: sqliteStorage(openDatabase(':memory:')), drop: async () => {} };
}

async function onPostgres(): Promise<{ storage: Storage; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  return { storage: pgStorage(await openPgDatabase(database.url, { poolSize: 4 })), drop: () => database.drop() };
}

export const DATABASES = [
  ['SQLite', onSqlite],
  ['PostgreSQL', onPostgres],
] as const;

/** The storage of the suite being run, opened before its tests and closed after them. */
export function storageFor(open: (typeof DATABASES)[number][1]): () => Storage {
  let opened: Awaited<ReturnType<typeof open>> | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.storage.close();
    await opened?.drop();
  });
  return () => opened!.storage;
}

let names = 0;
/** A new player, named `name` (and a unique token hash). */
export async function addPlayer(storage: Storage, name: string, createdAt = 0): Promise<PlayerView> {
  return (await storage.players.create(name, { tokenHash: `hash-${name}-${++names}`, name: 'Firefox, Linux' }, createdAt)).player;
}

let codes = 0;
/** A new race created by `creatorId` (seated at seat 1); its id and code. */
export async function addRace(storage: Storage, creatorId: number, race: Partial<NewRace> = {}): Promise<{ id: number; code: string }> {
  const code = race.code ?? `R${String(++codes).padStart(5, '0')}`;
  const id = await storage.races.create({ code, variant: 'strict', seats: 4, seed: 'race-seed', state: 'lobby', creatorId, createdAt: 0, ...race }, 5);
  return { id, code };
}

/** A stored game's row: a race game unless said otherwise. */
export function gameRow(playerId: number, row: Partial<NewGameRow> = {}): NewGameRow {
  return { kind: 'race', playerId, raceId: null, day: null, seriesId: null, seriesDeal: null, variant: 'strict', seed: 'game-seed', startedAt: 100, deadline: null, ghostOf: null, redealFrom: null, foundations: 4, layout: ['AS 2S', 'KH'], ...row };
}

/** Stores `rows` as new games; their ids. */
export async function addGames(storage: Storage, ...rows: NewGameRow[]): Promise<number[]> {
  return storage.games.createGames(rows);
}

/** Ends a game without a move. */
export async function endGame(storage: Storage, gameId: number, status: 'won' | 'out-of-moves' | 'resigned', finishedAt: number, rankKey: number, foundations = 10): Promise<void> {
  await storage.games.endGame({ gameId, status, finishedAt, rankKey, counts: { foundations, redealsUsed: 0, moves: 3 } });
}
