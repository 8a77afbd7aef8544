import { and, asc, eq, lt, ne, notExists } from 'drizzle-orm';
import type { PlayerView } from '../../contract/index.js';
import type { FinishedGameRow, PlayerStore } from '../stores.js';
import type { Db } from './index.js';
import { games, players, raceEntries, races, series } from './schema.js';

/** Players on SQLite, answering in the same turn. */
export class SqlitePlayerStore implements PlayerStore {
  constructor(private readonly db: Db) {}

  create(name: string, tokenHash: string, createdAt: number): PlayerView {
    // `.all()`, never `.get()`: an autocommit INSERT … RETURNING stopped after its first row
    // commits without ever running SQLite's automatic checkpoint (the log would grow forever).
    const [player] = this.db.insert(players).values({ name, tokenHash, createdAt }).returning({ id: players.id, name: players.name }).all();
    return player!;
  }

  byTokenHash(tokenHash: string): PlayerView | undefined {
    return this.db.select({ id: players.id, name: players.name }).from(players).where(eq(players.tokenHash, tokenHash)).get();
  }

  byId(id: number): PlayerView | undefined {
    return this.db.select({ id: players.id, name: players.name }).from(players).where(eq(players.id, id)).get();
  }

  finishedGames(playerId: number): FinishedGameRow[] {
    return this.db
      .select({ variant: games.variant, status: games.status, foundations: games.foundations, startedAt: games.startedAt, finishedAt: games.finishedAt })
      .from(games)
      .where(and(eq(games.playerId, playerId), ne(games.status, 'playing')))
      .orderBy(asc(games.finishedAt), asc(games.id))
      .all();
  }

  pruneUnused(createdBefore: number): number {
    const { db } = this;
    const unused = and(
      lt(players.createdAt, createdBefore),
      notExists(db.select({ one: games.id }).from(games).where(eq(games.playerId, players.id))),
      notExists(db.select({ one: raceEntries.raceId }).from(raceEntries).where(eq(raceEntries.playerId, players.id))),
      notExists(db.select({ one: races.id }).from(races).where(eq(races.creatorId, players.id))),
      notExists(db.select({ one: series.id }).from(series).where(eq(series.creatorId, players.id))),
    );
    return db.delete(players).where(unused).run().changes;
  }
}
