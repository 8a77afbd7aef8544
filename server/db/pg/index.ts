import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { SynchronousMode } from '../index.js';
import { flow, type Preparable, type Prepared, type Sql } from '../sql.js';
import * as schema from './schema.js';

// No relational schema given to drizzle: the stores build their queries on the tables in `t` (pgSql).
export type PgDb = NodePgDatabase & { $client: pg.Pool };
type PgQueries = Pick<NodePgDatabase, 'select' | 'insert' | 'update' | 'delete' | 'transaction'>;

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
  return drizzle(pool);
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

/** The stores' adapter on PostgreSQL: every query answers later, on the pool or the transaction's connection. */
export function pgSql(db: PgQueries): Sql {
  const rows = async <T>(query: unknown) => (await (query as PromiseLike<T[]>)) as T[];
  const sql: Sql = {
    kind: 'postgres',
    db: db as unknown as Sql['db'],
    t: schema,
    one: async <T>(query: unknown) => (await rows<T>(query))[0],
    all: (query) => rows(query),
    run: async (query) => (await (query as unknown as PromiseLike<pg.QueryResult>)).rowCount ?? 0,
    prepare<T>(query: Preparable<T>): Prepared<T> {
      // Unnamed: PostgreSQL plans each run for its values, as for any other query.
      const prepared = (query as unknown as { prepare(name?: string): { execute(values: Record<string, unknown>): Promise<T[]> } }).prepare(undefined);
      const execute = (values: Record<string, unknown>) => prepared.execute(values);
      return { all: execute, one: async (values: Record<string, unknown>) => (await execute(values))[0] };
    },
    transaction: (steps) => db.transaction(async (tx) => flow(steps(pgSql(tx)))),
    // FOR NO KEY UPDATE: a writer of the same row waits for this transaction, while inserts
    // that only reference the row (a seat joining a race) go on.
    lockingRows: (query) => (query as unknown as { for(strength: string): unknown }).for('no key update') as typeof query,
    failure: pgFailureCode,
    isDuplicate: (error) => causes(error).some((cause) => (cause as { code?: unknown }).code === UNIQUE_VIOLATION),
  };
  return sql;
}

/** PostgreSQL's unique_violation. */
export const UNIQUE_VIOLATION = '23505';
/** SQLSTATE classes a retry may cure: connection exceptions, insufficient resources, operator intervention (a shutdown, a restart). */
const RETRYABLE_CLASSES = ['08', '53', '57'];
/** Errors of the socket under the pool: the server is unreachable or the connection broke. */
const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'];
/** node-postgres's own messages when it has no usable connection. */
const POOL_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'Cannot use a pool after calling end on the pool'];

/** The SQLSTATE or socket code when `error` means PostgreSQL cannot be reached or cannot take the write now. */
export function pgFailureCode(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.includes(code) || RETRYABLE_CLASSES.includes(code.slice(0, 2)))) return code;
    if (POOL_MESSAGES.some((message) => cause.message.includes(message))) return 'connection-lost';
  }
  return undefined;
}

/** An error and its causes (drizzle wraps the driver's error). */
export function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let cause = error; cause instanceof Error && chain.length < 8; cause = cause.cause) chain.push(cause);
  return chain;
}
