import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { SynchronousMode } from '../index.js';
import * as schema from './schema.js';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

const MIGRATIONS = fileURLToPath(new URL('../../../migrations/pg', import.meta.url));
/** The advisory lock key the migrations run under ("lucie" in ASCII): instances starting together migrate one at a time. */
export const MIGRATION_LOCK_KEY = 0x6c75636965;
/** How long an instance waits for another's migration before giving up on starting. */
const MIGRATION_LOCK_TIMEOUT = '60s';

export interface PgOptions {
  /** Connections in this instance's pool. */
  poolSize?: number;
  /**
   * NORMAL (the default, as for SQLite): synchronous_commit off, a commit returns once it is in
   * PostgreSQL's memory: a crash of any instance keeps it, a crash of the PostgreSQL server may
   * lose the last few hundred milliseconds. FULL: each commit waits for its WAL flush.
   */
  synchronous?: SynchronousMode;
}

/**
 * Connects to the PostgreSQL database at `url` and applies its pending migrations (migrations/pg)
 * under an advisory lock, so several instances starting at once migrate exactly once: the first
 * applies them, the others wait for it, then find nothing left to do.
 */
export async function openPgDatabase(url: string, options: PgOptions = {}): Promise<PgDb> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    options: `-c synchronous_commit=${options.synchronous === 'FULL' ? 'on' : 'off'}`,
  });
  // An idle connection that breaks (the server restarts) must not crash the process; the pool drops it.
  pool.on('error', () => {});
  try {
    await migrateUnderLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return drizzle(pool, { schema });
}

export async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`set lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`);
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await client.query('reset lock_timeout');
    }
  } finally {
    client.release();
  }
}
