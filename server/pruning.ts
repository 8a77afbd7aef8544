/**
 * Identities nobody used: a name was chosen (a token handed out) and then nothing was ever
 * played, joined or created with it. Each costs a row and an index entry forever, and a script
 * can make many (rate limits slow that down, they do not undo it). After the retention period
 * such identities are deleted; their token then answers 401 like any unknown token, and the
 * client asks for a name again. Anyone who played even once is kept, with their history.
 */
import { and, eq, lt, notExists } from 'drizzle-orm';
import type { Db } from './db/index.js';
import { games, players, raceEntries, races, series } from './db/schema.js';

export interface PruningRules {
  /** How long an identity may stay unused before it is deleted. */
  retentionMs: number;
  /** How often the server looks for them. */
  intervalMs: number;
}

const DAY_MS = 86_400_000;
export const DEFAULT_PRUNING_RULES: PruningRules = { retentionMs: 30 * DAY_MS, intervalMs: 3_600_000 };

/** Deletes the identities created before `createdBefore` that have no game, no seat and no race or series of theirs; returns how many. */
export function pruneUnusedIdentities(db: Db, createdBefore: number): number {
  const unused = and(
    lt(players.createdAt, createdBefore),
    notExists(db.select({ one: games.id }).from(games).where(eq(games.playerId, players.id))),
    notExists(db.select({ one: raceEntries.raceId }).from(raceEntries).where(eq(raceEntries.playerId, players.id))),
    notExists(db.select({ one: races.id }).from(races).where(eq(races.creatorId, players.id))),
    notExists(db.select({ one: series.id }).from(series).where(eq(series.creatorId, players.id))),
  );
  return db.delete(players).where(unused).run().changes;
}
