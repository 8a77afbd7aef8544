import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { RaceLogs, ReplayStore, SummaryRow } from '../../stores.js';
import type { PgDb } from './index.js';
import { currentGameRow, gameActions, gameDeals, games, players, raceEntries, races, series } from './schema.js';

const summaryRows = (db: PgDb) =>
  db
    .select({ game: currentGameRow, name: players.name, raceCode: races.code, raceState: races.state, raceRank: raceEntries.rank, seriesCode: series.code })
    .from(games)
    .innerJoin(players, eq(players.id, games.playerId))
    .leftJoin(races, eq(races.id, games.raceId))
    .leftJoin(series, eq(series.id, games.seriesId))
    .leftJoin(raceEntries, and(eq(raceEntries.raceId, games.raceId), eq(raceEntries.playerId, games.playerId)));

/** Game summaries and race logs on PostgreSQL. */
export class PgReplayStore implements ReplayStore {
  constructor(private readonly db: PgDb) {}

  async summary(id: number): Promise<SummaryRow | undefined> {
    const [row] = await summaryRows(this.db).where(eq(games.id, id));
    return row;
  }

  async history(playerId: number, limit: number, offset: number): Promise<SummaryRow[]> {
    return await summaryRows(this.db).where(eq(games.playerId, playerId)).orderBy(desc(games.id)).limit(limit).offset(offset);
  }

  async gameCount(playerId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(games).where(eq(games.playerId, playerId));
    return row!.n;
  }

  async raceLogs(raceId: number): Promise<RaceLogs> {
    const rows = await this.db.select(currentGameRow).from(games).where(eq(games.raceId, raceId));
    const ids = rows.map((game) => game.id);
    const [deals, actions] = await Promise.all([
      this.db.select().from(gameDeals).where(inArray(gameDeals.gameId, ids)).orderBy(asc(gameDeals.gameId), asc(gameDeals.k)),
      this.db.select().from(gameActions).where(inArray(gameActions.gameId, ids)).orderBy(asc(gameActions.gameId), asc(gameActions.index)),
    ]);
    return { games: rows, deals, actions };
  }
}
