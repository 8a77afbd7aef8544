import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { Checkpointer, type CheckpointLog } from './checkpointer.js';
import * as schema from './schema.js';
import { flow, type Sql } from './sql.js';

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

export interface DatabaseOptions {
  synchronous?: SynchronousMode;
  /**
   * How long a statement waits for another connection's lock before failing SQLITE_BUSY. Short:
   * better-sqlite3 waits synchronously, with the whole event loop, so a lock held elsewhere must
   * become a quick refusal (`storage-unavailable`), not a freeze of every player.
   */
  busyTimeoutMs?: number;
  /** 'worker' (the default for a file): checkpoints on their own thread; 'auto': SQLite's, inside commits. */
  checkpoints?: 'worker' | 'auto';
  /** Past this the log is truncated by a blocking checkpoint (see checkpointer.ts). */
  walLimitBytes?: number;
  log?: CheckpointLog;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 50;
/** What the log file is cut back to whenever the writer starts it over. */
export const JOURNAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_WAL_LIMIT_BYTES = 64 * 1024 * 1024;
// An idle round only reads the log header; often enough that a burst of writes restarts the log within a few dozen commits.
const CHECKPOINT_INTERVAL_MS = 25;

const checkpointers = new WeakMap<Database.Database, Checkpointer>();
const quietLog: CheckpointLog = { warn() {}, error() {} };

/**
 * Opens (creating it on first start) the database in `dataDir`, or an in-memory one for
 * ':memory:', and applies the pending migrations. Close it with `closeDatabase`.
 */
export function openDatabase(dataDir: string, options: DatabaseOptions = {}): Db {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, DB_FILE);
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  const db = drizzle(sqlite, { schema });
  // Migrations may wait for a lock as long as they need: nobody is playing yet.
  sqlite.pragma('busy_timeout = 5000');
  migrate(db, { migrationsFolder: MIGRATIONS });
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
  if (file !== ':memory:' && (options.checkpoints ?? 'worker') === 'worker') {
    const checkpointer = new Checkpointer(
      sqlite,
      file,
      { intervalMs: CHECKPOINT_INTERVAL_MS, walLimitBytes: options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES },
      options.log ?? quietLog,
    );
    checkpointers.set(sqlite, checkpointer);
  }
  return db;
}

/** Stops the checkpointer, then closes the connection (the last one checkpoints and removes the log). */
export async function closeDatabase(db: Db): Promise<void> {
  await checkpointers.get(db.$client)?.stop();
  db.$client.close();
}

/**
 * SQLite result codes that mean the storage, not the request, failed: the disk is full or
 * failing, another process holds a lock, the file went read-only. Anything else from SQLite
 * (a constraint, a syntax error) is a bug and stays one.
 */
const STORAGE_FAILURES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
] as const;

/** How long a failed background write (a timer's) waits before it is tried again. */
export const STORAGE_RETRY_MS = 1000;
/** After a storage failure the server reports itself not ready for this long, unless a write probe says otherwise sooner. */
const UNAVAILABLE_FOR_MS = 5000;

const lastFailures = new WeakMap<Database.Database, { at: number; code: string }>();

/** Remembers a storage failure of `db` (for readiness) and returns its code, or undefined when `error` is not one. */
export function noteStorageFailure(db: Db, error: unknown): string | undefined {
  const code = storageFailureCode(error);
  if (code !== undefined) lastFailures.set(db.$client, { at: Date.now(), code });
  return code;
}

/**
 * Whether the database takes writes: a write lock can be taken now (within the short busy
 * timeout), and no failure other than a lock (a full disk, an I/O error: a probe cannot see
 * those) happened in the last few seconds.
 */
export function storageReady(db: Db): { ready: true } | { ready: false; code: string } {
  const failure = lastFailures.get(db.$client);
  const lockOnly = failure?.code.startsWith('SQLITE_BUSY') || failure?.code.startsWith('SQLITE_LOCKED');
  if (failure && !lockOnly && Date.now() - failure.at < UNAVAILABLE_FOR_MS) return { ready: false, code: failure.code };
  if (db.$client.memory) return { ready: true };
  try {
    db.$client.exec('BEGIN IMMEDIATE; ROLLBACK');
    if (lockOnly) lastFailures.delete(db.$client);
    return { ready: true };
  } catch (error) {
    const code = noteStorageFailure(db, error);
    if (code === undefined) throw error;
    return { ready: false, code };
  }
}

/** The SQLite code (e.g. SQLITE_FULL, SQLITE_IOERR_WRITE) when `error` is a storage failure. */
export function storageFailureCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return undefined;
  return STORAGE_FAILURES.some((failure) => code === failure || code.startsWith(`${failure}_`)) ? code : undefined;
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

/** The stores' adapter on SQLite: every query answers in the same turn. */
export function sqliteSql(db: Db): Sql {
  const inTransaction = transaction(db);
  const sql: Sql = {
    kind: 'sqlite',
    db,
    t: schema,
    // `.all()`, never `.get()`: an autocommit INSERT … RETURNING stopped after its first row
    // commits without ever running SQLite's automatic checkpoint (the log would grow forever).
    one: (query) => query.all()[0],
    all: (query) => query.all(),
    run: (query) => (query.run() as Database.RunResult).changes,
    prepare(query) {
      const prepared = query.prepare();
      return { all: (values) => prepared.all(values), one: (values) => prepared.get(values) };
    },
    transaction: (steps) =>
      inTransaction(() => {
        const result = flow(steps(sql));
        if (result instanceof Promise) throw new Error('a SQLite transaction must not wait');
        return result;
      }),
    // One writer holds the whole database for the transaction: nothing to lock row by row.
    lockingRows: (query) => query,
    failure: (error) => noteStorageFailure(db, error),
    isDuplicate: (error) => error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE',
  };
  return sql;
}
