// Real server processes (test/support/cluster.ts) on storage of their own, as the multi-process
// tests start them: a fresh PostgreSQL database, a Redis namespace (a prefix) and a data folder,
// an instant countdown and no rate limits unless the test says otherwise, and a connection to
// read the database with. `close()` ends the instances and drops it all.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, vi } from 'vitest';
import { Cluster, type Instance } from '../support/cluster.js';
import { createTestDatabase } from './pg.js';

export interface SharedStorage {
  cluster: Cluster;
  /** A connection to the instances' database. */
  sql: pg.Client;
  url: string;
  close(): Promise<void>;
}

/** Storage for instances started with `cluster.start(n)`; `env` goes on top of the defaults above. */
export async function sharedStorage(env: Record<string, string> = {}): Promise<SharedStorage> {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) throw new Error('TEST_REDIS_URL is not set: the test setup (test/services.ts) starts Redis');
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'lucie-instances-'));
  const cluster = new Cluster({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `lucie-test-${randomBytes(4).toString('hex')}`,
    DATA_DIR: dataDir,
    COUNTDOWN_MS: '0',
    RATE_LIMITS: 'off',
    ...env,
  });
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  return {
    cluster,
    sql,
    url: database.url,
    async close() {
      await cluster.close();
      await sql.end();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** When an instance logged taking the timer lease (pino's `time`), each time it did. */
export const leasesTaken = (instance: Instance): number[] =>
  instance
    .output()
    .split('\n')
    .filter((line) => line.includes('timer lease acquired'))
    .map((line) => (JSON.parse(line) as { time: number }).time);

/** The index of the one instance that logged taking the timer lease (waits up to 10 s for it). */
export async function timerOwner(instances: readonly Instance[]): Promise<number> {
  const owners = () => instances.flatMap((instance, i) => (leasesTaken(instance).length > 0 ? [i] : []));
  await vi.waitFor(() => expect(owners()).toHaveLength(1), { timeout: 10_000, interval: 50 });
  return owners()[0]!;
}
