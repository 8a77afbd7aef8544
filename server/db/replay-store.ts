import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { RaceLogs, ReplayStore, SummaryRow } from '../stores.js';
import type { Db } from './index.js';
import { currentGameRow, gameActions, gameDeals, games, players, raceEntries, races, series } from './schema.js';

const summaryRows = (db: Db) =>
  db
    .select({ game: currentGameRow, name: players.name, raceCode: races.code, raceState: races.state, raceRank: raceEntries.rank, seriesCode: series.code })
    .from(games)
    .innerJoin(players, eq(players.id, games.playerId))
    .leftJoin(races, eq(races.id, games.raceId))
    .leftJoin(series, eq(series.id, games.seriesId))
    .leftJoin(raceEntries, and(eq(raceEntries.raceId, games.raceId), eq(raceEntries.playerId, games.playerId)));

/** Game summaries and race logs on SQLite; the summary queries are prepared once. */
export class SqliteReplayStore implements ReplayStore {
  private readonly query;

  constructor(private readonly db: Db) {
    const playerId = sql.placeholder('playerId');
    this.query = {
      one: summaryRows(db).where(eq(games.id, sql.placeholder('id'))).prepare(),
      history: summaryRows(db)
        .where(eq(games.playerId, playerId))
        .orderBy(desc(games.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(),
      total: db.select({ n: count() }).from(games).where(eq(games.playerId, playerId)).prepare(),
    };
  }

  summary(id: number): SummaryRow | undefined {
    return this.query.one.get({ id });
  }

  history(playerId: number, limit: number, offset: number): SummaryRow[] {
    return this.query.history.all({ playerId, limit, offset });
  }

  gameCount(playerId: number): number {
    return this.query.total.get({ playerId })!.n;
  }

  raceLogs(raceId: number): RaceLogs {
    const rows = this.db.select(currentGameRow).from(games).where(eq(games.raceId, raceId)).all();
    const ids = rows.map((game) => game.id);
    return {
      games: rows,
      deals: this.db.select().from(gameDeals).where(inArray(gameDeals.gameId, ids)).orderBy(asc(gameDeals.gameId), asc(gameDeals.k)).all(),
      actions: this.db.select().from(gameActions).where(inArray(gameActions.gameId, ids)).orderBy(asc(gameActions.gameId), asc(gameActions.index)).all(),
    };
  }
}
