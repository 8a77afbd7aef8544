// Queries that look at every identity run synchronously on the event loop: without an index each
// of pruning's "did this player ever ..." checks scans a whole table per identity, and 10 000
// identities froze the server for about 5 s (with the indexes: under 20 ms). SQLite's own plan
// says whether an index is used, with no timing involved. On PostgreSQL the daily board's
// queries are planned with scans and sorts priced out: any left had no index to serve them.
import type Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Leaderboard } from '../../server/daily.js';
import { dailyStore } from '../../server/db/daily-store.js';
import { deadlineStore } from '../../server/db/game-store.js';
import { closeDatabase, openDatabase, sqliteSql, type Db } from '../../server/db/index.js';
import { playerStore } from '../../server/db/player-store.js';
import { raceStore } from '../../server/db/race-store.js';
import { openPgDatabase, pgSql } from '../../server/db/pg/index.js';
import * as pgSchema from '../../server/db/pg/schema.js';
import { rankKey } from '../../server/standings.js';
import type { DeadlineStore, RaceStore } from '../../server/stores.js';
import { createTestDatabase, pgPlansOf, type TestDatabase } from './pg.js';

let db: Db | undefined;
afterEach(() => {
  if (db) closeDatabase(db);
  db = undefined;
});

/**
 * Every statement `run` prepares on the connection, with SQLite's plan for it when `bound` fills
 * each placeholder (SQLite picks a partial index only for a value the index covers).
 */
function plansOf(sqlite: Database.Database, run: () => void, bound: unknown = 0): { sql: string; plan: string[] }[] {
  const prepared: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
  try {
    run();
  } finally {
    sqlite.prepare = prepare;
  }
  return prepared.map((sql) => ({
    sql,
    plan: (sqlite.prepare(`explain query plan ${sql}`).all(...placeholders(sql, bound)) as { detail: string }[]).map((row) => row.detail),
  }));
}

/** Values for a statement's `?` placeholders. */
const placeholders = (sql: string, bound: unknown): unknown[] => Array.from(sql.matchAll(/\?/g), () => bound);

describe('query plans', () => {
  it('pruning finds unused identities through indexes, never by scanning a table per identity', () => {
    db = openDatabase(':memory:', {});
    const plans = plansOf(db.$client, () => playerStore(sqliteSql(db!)).pruneUnused(Date.now()));
    expect(plans.length).toBeGreaterThan(0);
    const lines = plans.flatMap(({ plan }) => plan);
    // The outer loop may scan players (or search them by created_at); every correlated check must search an index.
    const scans = lines.filter((line) => /^SCAN /.test(line) && !/^SCAN players\b/.test(line));
    expect(scans).toEqual([]);
    for (const table of ['games', 'race_entries', 'races', 'series']) {
      expect(lines.some((line) => line.startsWith(`SEARCH ${table} USING`) && /INDEX/.test(line))).toBe(true);
    }
  });
});

/** What the timer owner reads at every rescan (plugins/scheduler.ts), and at a takeover. */
const rescanReads = (deadlines: DeadlineStore, races: RaceStore): (() => unknown)[] => [
  () => deadlines.playing(),
  () => races.inState('countdown'),
  () => races.inState('lobby'),
  () => races.goneEntries(),
  () => races.liveEntries(),
  () => races.doneRunning(),
];

describe('query plans of the timer owner', () => {
  it('reads deadlines, countdowns, lobbies, gone racers and finished games through indexes, never scanning games, races or seats', () => {
    db = openDatabase(':memory:', {});
    // 'playing': the games_playing index covers that status only.
    const plans = plansOf(db.$client, () => rescanReads(deadlineStore(sqliteSql(db!)), raceStore(sqliteSql(db!))).forEach((read) => read()), 'playing');
    expect(plans).toHaveLength(6);
    const lines = plans.flatMap(({ plan }) => plan);
    expect(lines.filter((line) => /^SCAN /.test(line))).toEqual([]);
    expect(lines.some((line) => line.includes('INDEX games_playing'))).toBe(true);
    expect(lines.some((line) => line.includes('INDEX races_state'))).toBe(true);
  });
});

describe('query plans on PostgreSQL', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => database?.drop());

  it("reads a day's leaderboard through indexes and the tallies, never scanning or sorting the day", async () => {
    database = await createTestDatabase();
    const pgDb = await openPgDatabase(database.url, { poolSize: 1 });
    const pool = pgDb.$client;
    try {
      const day = '2026-11-29';
      const { db, one, run } = pgSql(pgDb);
      const player = await one(db.insert(pgSchema.players).values({ name: 'Ana', createdAt: 1 }).returning());
      await run(db.insert(pgSchema.games).values({
        kind: 'daily', playerId: player!.id, day, variant: 'strict', seed: 's', status: 'out-of-moves', foundations: 20, startedAt: 0, finishedAt: 60_000, rankKey: rankKey(20, 60_000),
      }));
      const board = new Leaderboard(dailyStore(pgSql(pgDb)));
      // Scans and sorts priced out: a plan that still has one had no index to use instead.
      const plans = await pgPlansOf(
        pool,
        async () => {
          await board.view(day, { limit: 50, offset: 0 }, player!.id, true);
          await board.page(day, { limit: 50, offset: 50_000 });
        },
        ['enable_seqscan = off', 'enable_sort = off'],
      );
      expect(plans.length).toBeGreaterThanOrEqual(5);
      expect(plans.flatMap((plan) => plan.fullReads('games').map((read) => `${read}: ${plan.text}`))).toEqual([]);
      expect(plans.some((plan) => plan.nodes.some((node) => node.startsWith('Index Only Scan using games_daily_board')))).toBe(true);
    } finally {
      await pool.end();
    }
  });
  it('reads what the timer owner rescans through indexes, never scanning games, races or seats', async () => {
    database ??= await createTestDatabase();
    const pgDb = await openPgDatabase(database.url, { poolSize: 1 });
    try {
      const plans = await pgPlansOf(pgDb.$client, async () => {
          for (const read of rescanReads(deadlineStore(pgSql(pgDb)), raceStore(pgSql(pgDb)))) await read();
        }, ['enable_seqscan = off']);
      expect(plans).toHaveLength(6);
      expect(plans.flatMap((plan) => ['games', 'races', 'race_entries'].flatMap((table) => plan.fullReads(table).map((read) => `${read}: ${plan.text}`)))).toEqual([]);
    } finally {
      await pgDb.$client.end();
    }
  });
});
