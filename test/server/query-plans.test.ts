// Queries that look at every identity run synchronously on the event loop: without an index each
// of pruning's "did this player ever ..." checks scans a whole table per identity, and 10 000
// identities froze the server for about 5 s (with the indexes: under 20 ms). SQLite's own plan
// says whether an index is used, with no timing involved.
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../server/db/index.js';
import { SqlitePlayerStore } from '../../server/db/player-store.js';

let db: Db | undefined;
afterEach(() => {
  if (db) closeDatabase(db);
  db = undefined;
});

/** Every statement `run` prepares on the connection, with SQLite's plan for it. */
function plansOf(sqlite: Database.Database, run: () => void): { sql: string; plan: string[] }[] {
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
    plan: (sqlite.prepare(`explain query plan ${sql}`).all(...placeholders(sql)) as { detail: string }[]).map((row) => row.detail),
  }));
}

/** Values for a statement's `?` placeholders (a plan does not depend on them). */
const placeholders = (sql: string): number[] => Array.from(sql.matchAll(/\?/g), () => 0);

describe('query plans', () => {
  it('pruning finds unused identities through indexes, never by scanning a table per identity', () => {
    db = openDatabase(':memory:', {});
    const plans = plansOf(db.$client, () => new SqlitePlayerStore(db!).pruneUnused(Date.now()));
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
