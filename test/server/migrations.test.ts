// Migrations carry stored games forward: a database made before 0004 keeps every move, in
// order, in the move log that 0004 rebuilds WITHOUT ROWID (one page per move in the WAL); a game
// in play across 0009 keeps its counts, then takes them from its log; an identity's token before
// 0012 becomes its first device.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeDatabase, DB_FILE, openDatabase } from '../../server/db/index.js';
import { currentGameRow, games } from '../../server/db/schema.js';
import { sqliteStorage } from '../../server/db/storage.js';

const MIGRATIONS = new URL('../../migrations', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-migrations-'));
  dirs.push(dir);
  return dir;
};

/** A database migrated up to (not including) migration `upTo`, as an older server left it. */
function databaseBefore(upTo: number): string {
  const folder = tempDir();
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx < upTo);
  writeFileSync(journalFile, JSON.stringify(journal));
  const dataDir = tempDir();
  const sqlite = new Database(join(dataDir, DB_FILE));
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  sqlite.exec("insert into players (name, token_hash, created_at) values ('Ana', 'h', 1)");
  sqlite.exec("insert into games (kind, player_id, variant, seed, status, foundations, started_at) values ('race', 1, 'strict', 's', 'playing', 0, 1)");
  sqlite.exec("insert into game_actions (game_id, action_index, action, at) values (1, 1, 'f2>f1', 7), (1, 0, 'f1>h', 5)");
  sqlite.close();
  return dataDir;
}

describe('migration 0004, the move log without rowid', () => {
  it('keeps every stored move of an older database, in order', async () => {
    const db = openDatabase(databaseBefore(4));
    try {
      const table = db.$client.prepare("select sql from sqlite_master where name = 'game_actions'").get() as { sql: string };
      expect(table.sql).toMatch(/\) WITHOUT ROWID$/);
      expect(db.$client.prepare('select game_id, action_index, action, at from game_actions order by game_id, action_index').all()).toEqual([
        { game_id: 1, action_index: 0, action: 'f1>h', at: 5 },
        { game_id: 1, action_index: 1, action: 'f2>f1', at: 7 },
      ]);
      // The key still refuses a second action at an index.
      expect(() => db.$client.exec("insert into game_actions (game_id, action_index, action, at) values (1, 1, 'f3>f1', 9)")).toThrow(/UNIQUE|PRIMARY KEY/);
    } finally {
      await closeDatabase(db);
    }
  });
});

describe('migration 0009, the cards home in the move log', () => {
  it('reads a game in play across it from its own counts until its next move, then from its log', async () => {
    const dataDir = databaseBefore(9);
    const sqlite = new Database(join(dataDir, DB_FILE));
    // What every move wrote before 0009: the game's counts, in its row.
    sqlite.exec('update games set foundations = 2, moves = 2 where id = 1');
    sqlite.close();
    const db = openDatabase(dataDir);
    try {
      const counted = () => db.select(currentGameRow).from(games).where(eq(games.id, 1)).get()!;
      expect(counted()).toMatchObject({ foundations: 2, moves: 2, redealsUsed: 0 });
      db.$client.exec("insert into game_actions (game_id, action_index, action, at, foundations) values (1, 2, 'f3>h', 9, 3)");
      expect(counted()).toMatchObject({ foundations: 3, moves: 3, redealsUsed: 0 });
    } finally {
      await closeDatabase(db);
    }
  });
});

describe('migration 0012, devices', () => {
  it('makes each identity’s one token the first device of it, so the token keeps working, and drops the column', async () => {
    // Entry 10 of the journal is 0012_devices (numbered apart from the branches merged beside it).
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
    const devicesIdx = journal.entries.find((entry) => entry.tag === '0012_devices')!.idx;
    const db = openDatabase(databaseBefore(devicesIdx));
    try {
      expect(db.$client.prepare('select player_id, token_hash, name, created_at, last_seen_at, signed_out_at from devices').all()).toEqual([
        { player_id: 1, token_hash: 'h', name: '', created_at: 1, last_seen_at: 1, signed_out_at: null },
      ]);
      // The token lives on the device now (later migrations add other columns, never it).
      expect((db.$client.prepare('select * from players').all() as object[]).map((row) => Object.keys(row).includes('token_hash'))).toEqual([false]);
      expect(await sqliteStorage(db).identities.byTokenHash('h')).toEqual({ player: { id: 1, name: 'Ana' }, deviceId: 1, lastSeenAt: 1, bannedAt: null });
    } finally {
      await closeDatabase(db);
    }
  });
});
