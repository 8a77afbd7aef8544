import { and, asc, desc, eq, max, sql } from 'drizzle-orm';
import type { GameRow, SeriesRow, SeriesStore, SeriesTally } from '../../stores.js';
import type { PgDb } from './index.js';
import { currentGameRow, games, players, series } from './schema.js';

/** As on SQLite; PostgreSQL answers sums as bigint, which node-postgres reads as strings. */
const tally = {
  played: sql<number>`sum(case when ${games.status} <> 'playing' then 1 else 0 end)`.mapWith(Number),
  wins: sql<number>`sum(case when ${games.status} = 'won' then 1 else 0 end)`.mapWith(Number),
  cards: sql<number>`sum(case when ${games.status} <> 'playing' then ${games.foundations} else 0 end)`.mapWith(Number),
  lastDeal: max(games.seriesDeal),
  playing: sql<number>`max(case when ${games.status} = 'playing' then 1 else 0 end)`.mapWith(Number),
};

/** Series on PostgreSQL; groups are by primary keys, so the names and codes they show are grouped too. */
export class PgSeriesStore implements SeriesStore {
  constructor(private readonly db: PgDb) {}

  async byCode(code: string): Promise<SeriesRow | undefined> {
    const [row] = await this.db.select().from(series).where(eq(series.code, code));
    return row;
  }

  async create(row: Omit<SeriesRow, 'id'>): Promise<void> {
    await this.db.insert(series).values(row);
  }

  async standings(seriesId: number): Promise<(SeriesTally & { id: number; name: string })[]> {
    return await this.db
      .select({ id: players.id, name: players.name, ...tally })
      .from(games)
      .innerJoin(players, eq(players.id, games.playerId))
      .where(eq(games.seriesId, seriesId))
      .groupBy(players.id)
      .orderBy(desc(tally.wins), desc(tally.cards), asc(players.id));
  }

  async gamesOf(seriesId: number, playerId: number): Promise<GameRow[]> {
    return await this.db
      .select(currentGameRow)
      .from(games)
      .where(and(eq(games.seriesId, seriesId), eq(games.playerId, playerId)))
      .orderBy(asc(games.seriesDeal));
  }

  async ofPlayer(playerId: number): Promise<(SeriesTally & { code: string; variant: SeriesRow['variant'] })[]> {
    return await this.db
      .select({ code: series.code, variant: series.variant, ...tally })
      .from(games)
      .innerJoin(series, eq(series.id, games.seriesId))
      .where(eq(games.playerId, playerId))
      .groupBy(series.id)
      .orderBy(desc(max(games.id)));
  }
}
