import { and, asc, count, desc, eq, inArray, sql as raw } from 'drizzle-orm';
import { after } from '../ports.js';
import type { ReplayStore } from '../stores.js';
import { both, theRow, type Sql } from './sql.js';

/** Game summaries and race logs, on either database; the summary queries are prepared once. */
export function replayStore({ db, t: { currentGameRow, gameActions, gameDeals, games, players, raceEntries, races, series }, prepare, all }: Sql): ReplayStore {
  const summaries = () =>
    db
      .select({ game: currentGameRow, name: players.name, raceCode: races.code, raceState: races.state, raceRank: raceEntries.rank, seriesCode: series.code })
      .from(games)
      .innerJoin(players, eq(players.id, games.playerId))
      .leftJoin(races, eq(races.id, games.raceId))
      .leftJoin(series, eq(series.id, games.seriesId))
      .leftJoin(raceEntries, and(eq(raceEntries.raceId, games.raceId), eq(raceEntries.playerId, games.playerId)));
  const playerId = raw.placeholder('playerId');
  const one = prepare(summaries().where(eq(games.id, raw.placeholder('id'))));
  const history = prepare(summaries().where(eq(games.playerId, playerId)).orderBy(desc(games.id)).limit(raw.placeholder('limit')).offset(raw.placeholder('offset')));
  const total = prepare(db.select({ n: count() }).from(games).where(eq(games.playerId, playerId)));
  return {
    summary: (id) => one.one({ id }),
    history: (playerId, limit, offset) => history.all({ playerId, limit, offset }),
    gameCount: (playerId) => after(theRow(total.one({ playerId })), (row) => row.n),
    raceLogs: (raceId) =>
      after(all(db.select(currentGameRow).from(games).where(eq(games.raceId, raceId))), (rows) => {
        const ids = rows.map((game) => game.id);
        const logs = both(
          all(db.select().from(gameDeals).where(inArray(gameDeals.gameId, ids)).orderBy(asc(gameDeals.gameId), asc(gameDeals.k))),
          all(db.select().from(gameActions).where(inArray(gameActions.gameId, ids)).orderBy(asc(gameActions.gameId), asc(gameActions.index))),
        );
        return after(logs, ([deals, actions]) => ({ games: rows, deals, actions }));
      }),
  };
}
