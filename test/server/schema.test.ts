// Each dialect's tables (server/db/tables.ts through its kit) are what its migrations build: a
// change to the description without its generated migration fails here, in either dialect.
import { readFileSync } from 'node:fs';
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import * as pgSchema from '../../server/db/pg/schema.js';
import * as sqliteSchema from '../../server/db/schema.js';

/** The snapshot drizzle-kit left with the newest migration in `folder`. */
function lastSnapshot(folder: string) {
  const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${folder}/meta/${path}`, import.meta.url), 'utf8'));
  const { entries } = read('_journal.json') as { entries: { idx: number }[] };
  return read(`${String(entries.at(-1)!.idx).padStart(4, '0')}_snapshot.json`);
}

describe('the tables', () => {
  it('on SQLite need no migration beyond migrations/', async () => {
    const current = await generateSQLiteDrizzleJson(sqliteSchema);
    expect(await generateSQLiteMigration(lastSnapshot('migrations'), current)).toEqual([]);
  });

  it('on PostgreSQL need no migration beyond migrations/pg', async () => {
    const current = generateDrizzleJson(pgSchema);
    expect(await generateMigration(lastSnapshot('migrations/pg'), current)).toEqual([]);
  });
});
