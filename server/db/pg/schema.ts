// The tables on PostgreSQL (when DATABASE_URL is set): described in ../tables.ts, built here with
// PostgreSQL's builders. `npm run db:generate:pg` makes migrations/pg/ from this file.
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { defineTables, type Kit } from '../tables.js';

/**
 * PostgreSQL's columns under the names SQLite's kit gives them. The tables keep SQLite's types
 * (the stores' queries are typed by those, sql.ts), which read the same rows: 64-bit integers
 * read as numbers, booleans as booleans, JSON parsed.
 */
const pgKit = {
  kind: 'postgres',
  table: pgTable,
  index,
  uniqueIndex,
  primaryKey,
  text,
  int: (name: string) => integer(name),
  long: (name: string) => bigint(name, { mode: 'number' }),
  id: (name: string) => integer(name).primaryKey().generatedByDefaultAsIdentity(),
  flag: (name: string) => boolean(name),
  float: (name: string) => doublePrecision(name),
  json: (name: string) => jsonb(name),
} as unknown as Kit;

export const { players, devices, deviceLinks, passkeys, passkeyChallenges, races, raceEntries, poolEntries, series, games, dailyTallies, secrets, gameDeals, gameActions, currentGameRow, gameAnalyses, ratings, ratedRaces, ratingChanges, reports, operatorActions, gameFairPlay } = defineTables(pgKit);
