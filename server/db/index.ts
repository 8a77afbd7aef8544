import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
export const DB_FILE = 'lucie.db';

/**
 * When a commit returns. NORMAL (WAL): the move is in the write-ahead log in the OS before its
 * ack, so any crash of the process (kill -9 included) keeps it; a power cut or kernel crash may
 * lose the last few. FULL: fsync on every commit, surviving power cuts too, at about 1 ms per move
 * with the event loop blocked.
 */
export const SYNCHRONOUS_MODES = ['NORMAL', 'FULL'] as const;
export type SynchronousMode = (typeof SYNCHRONOUS_MODES)[number];

/**
 * Opens (creating it on first start) the database in `dataDir`, or an in-memory one for
 * ':memory:', and applies the pending migrations.
 */
export function openDatabase(dataDir: string, synchronous: SynchronousMode = 'NORMAL'): Db {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, DB_FILE);
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  return db;
}

/**
 * Runs `work` in one SQLite transaction (nested calls become savepoints). The better-sqlite3
 * wrapper is made once: making it per call prepares BEGIN/COMMIT every time.
 */
export type Transaction = <T>(work: () => T) => T;
export function transaction(db: Db): Transaction {
  const run = db.$client.transaction((work: () => unknown) => work());
  return <T>(work: () => T) => run(work) as T;
}
