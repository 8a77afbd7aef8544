import { and, asc, desc, eq, max, sql } from 'drizzle-orm';
import type { GameRow, SeriesRow, SeriesStore, SeriesTally } from '../stores.js';
import type { Db } from './index.js';
import { currentGameRow, games, players, series } from './schema.js';

/** A player's tallies over their games of a series (one group per player and series). */
const tally = {
  played: sql<number>`sum(case when ${games.status} <> 'playing' then 1 else 0 end)`,
  wins: sql<number>`sum(case when ${games.status} = 'won' then 1 else 0 end)`,
  cards: sql<number>`sum(case when ${games.status} <> 'playing' then ${games.foundations} else 0 end)`,
  lastDeal: max(games.seriesDeal),
  playing: sql<number>`max(case when ${games.status} = 'playing' then 1 else 0 end)`,
};

/** Series on SQLite, answering in the same turn. */
export class SqliteSeriesStore implements SeriesStore {
  constructor(private readonly db: Db) {}

  byCode(code: string): SeriesRow | undefined {
    return this.db.select().from(series).where(eq(series.code, code)).get();
  }

  create(row: Omit<SeriesRow, 'id'>): void {
    this.db.insert(series).values(row).run();
  }

  standings(seriesId: number): (SeriesTally & { id: number; name: string })[] {
    return this.db
      .select({ id: players.id, name: players.name, ...tally })
      .from(games)
      .innerJoin(players, eq(players.id, games.playerId))
      .where(eq(games.seriesId, seriesId))
      .groupBy(games.playerId)
      .orderBy(desc(tally.wins), desc(tally.cards), asc(games.playerId))
      .all();
  }

  /** Read from the games_series_player_deal index. */
  gamesOf(seriesId: number, playerId: number): GameRow[] {
    return this.db
      .select(currentGameRow)
      .from(games)
      .where(and(eq(games.seriesId, seriesId), eq(games.playerId, playerId)))
      .orderBy(asc(games.seriesDeal))
      .all();
  }

  ofPlayer(playerId: number): (SeriesTally & { code: string; variant: SeriesRow['variant'] })[] {
    return this.db
      .select({ code: series.code, variant: series.variant, ...tally })
      .from(games)
      .innerJoin(series, eq(series.id, games.seriesId))
      .where(eq(games.playerId, playerId))
      .groupBy(series.id)
      .orderBy(desc(max(games.id)))
      .all();
  }
}
