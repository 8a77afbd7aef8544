import { and, asc, eq, lt, ne, notExists } from 'drizzle-orm';
import type { PlayerView } from '../../../contract/index.js';
import type { FinishedGameRow, PlayerStore } from '../../stores.js';
import type { PgDb } from './index.js';
import { games, players, raceEntries, races, series } from './schema.js';

/** Players on PostgreSQL: one statement per call. */
export class PgPlayerStore implements PlayerStore {
  constructor(private readonly db: PgDb) {}

  async create(name: string, tokenHash: string, createdAt: number): Promise<PlayerView> {
    const [player] = await this.db.insert(players).values({ name, tokenHash, createdAt }).returning({ id: players.id, name: players.name });
    return player!;
  }

  async byTokenHash(tokenHash: string): Promise<PlayerView | undefined> {
    const [player] = await this.db.select({ id: players.id, name: players.name }).from(players).where(eq(players.tokenHash, tokenHash));
    return player;
  }

  async byId(id: number): Promise<PlayerView | undefined> {
    const [player] = await this.db.select({ id: players.id, name: players.name }).from(players).where(eq(players.id, id));
    return player;
  }

  async finishedGames(playerId: number): Promise<FinishedGameRow[]> {
    return await this.db
      .select({ variant: games.variant, status: games.status, foundations: games.foundations, startedAt: games.startedAt, finishedAt: games.finishedAt })
      .from(games)
      .where(and(eq(games.playerId, playerId), ne(games.status, 'playing')))
      .orderBy(asc(games.finishedAt), asc(games.id));
  }

  async pruneUnused(createdBefore: number): Promise<number> {
    const { db } = this;
    const unused = and(
      lt(players.createdAt, createdBefore),
      notExists(db.select({ one: games.id }).from(games).where(eq(games.playerId, players.id))),
      notExists(db.select({ one: raceEntries.raceId }).from(raceEntries).where(eq(raceEntries.playerId, players.id))),
      notExists(db.select({ one: races.id }).from(races).where(eq(races.creatorId, players.id))),
      notExists(db.select({ one: series.id }).from(series).where(eq(series.creatorId, players.id))),
    );
    return (await db.delete(players).where(unused)).rowCount ?? 0;
  }
}
