import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateUnderLock, openPgDatabase } from '../../server/db/pg/index.js';
import journal from '../../migrations/pg/meta/_journal.json' with { type: 'json' };
import { createTestDatabase, type TestDatabase } from './pg.js';

describe('PostgreSQL migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('are applied exactly once when four instances start at the same time', async () => {
    const instances = await Promise.all(Array.from({ length: 4 }, () => openPgDatabase(database.url, { poolSize: 2 })));
    const { rows } = await instances[0]!.$client.query('select hash from drizzle.__drizzle_migrations');
    expect(rows).toHaveLength(journal.entries.length);
    await Promise.all(instances.map((instance) => instance.$client.end()));
  });

  it('leave nothing to do on the next start, and release their lock', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await migrateUnderLock(pool);
      const { rows } = await pool.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(rows[0].n).toBe(journal.entries.length);
      // This database's: the test files running beside this one migrate databases of their own.
      const locks = await pool.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`);
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('keep the daily tallies with triggers, as SQLite does', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    const tallies = async () => (await pool.query('select foundations, finished from daily_tallies order by foundations')).rows;
    const player = await pool.query(`insert into players (name, created_at) values ('ada', 1) returning id`);
    const playerId = player.rows[0].id;
    const game = await pool.query(
      `insert into games (kind, player_id, day, variant, seed, status, foundations, started_at)
       values ('daily', $1, '2026-12-01', 'classic', 's', 'playing', 4, 1) returning id`,
      [playerId],
    );
    expect(await tallies()).toEqual([]);
    await pool.query(`update games set status = 'out-of-moves', foundations = 20, rank_key = 99 where id = $1`, [game.rows[0].id]);
    expect(await tallies()).toEqual([{ foundations: 20, finished: 1 }]);
    await pool.query(`update games set foundations = 21 where id = $1`, [game.rows[0].id]);
    expect(await tallies()).toEqual([
      { foundations: 20, finished: 0 },
      { foundations: 21, finished: 1 },
    ]);
    await pool.query(
      `insert into games (kind, player_id, day, variant, seed, status, foundations, started_at, rank_key)
       values ('daily', $1, '2026-12-02', 'classic', 's', 'won', 52, 1, 5)`,
      [playerId],
    );
    expect((await pool.query(`select finished from daily_tallies where day = '2026-12-02'`)).rows).toEqual([{ finished: 1 }]);
    await pool.end();
  });
});
