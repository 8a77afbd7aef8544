import { and, asc, desc, eq, isNull, max, sql as raw } from 'drizzle-orm';
import type { SeriesStore } from '../stores.js';
import { done, type Sql } from './sql.js';

/**
 * Series, on either database. Groups are by primary keys, so that the names and codes they show
 * are grouped too (PostgreSQL requires it).
 */
export function seriesStore({ db, t: { currentGameRow, games, players, series }, one, all, run }: Sql): SeriesStore {
  // A player's tallies over their games of a series (one group per player and series). PostgreSQL
  // answers sums as bigint, which node-postgres reads as strings.
  const total = (expression: ReturnType<typeof raw>) => raw<number>`${expression}`.mapWith(Number);
  const tally = {
    played: total(raw`sum(case when ${games.status} <> 'playing' then 1 else 0 end)`),
    wins: total(raw`sum(case when ${games.status} = 'won' then 1 else 0 end)`),
    cards: total(raw`sum(case when ${games.status} <> 'playing' then ${games.foundations} else 0 end)`),
    lastDeal: max(games.seriesDeal),
    playing: total(raw`max(case when ${games.status} = 'playing' then 1 else 0 end)`),
  };
  const tallies = <Fields extends object>(fields: Fields) => db.select({ ...fields, ...tally }).from(games);
  return {
    byCode: (code) => one(db.select().from(series).where(eq(series.code, code))),
    create: (row) => done(run(db.insert(series).values(row))),
    standings: (seriesId) => {
      const perPlayer = tallies({ id: players.id, name: players.name }).innerJoin(players, eq(players.id, games.playerId));
      // A banned player leaves the board while the ban lasts (moderation.ts); their games stay stored.
      return all(perPlayer.where(and(eq(games.seriesId, seriesId), isNull(players.bannedAt))).groupBy(players.id).orderBy(desc(tally.wins), desc(tally.cards), asc(players.id)));
    },
    // Read from the games_series_player_deal index.
    gamesOf: (seriesId, playerId) =>
      all(db.select(currentGameRow).from(games).where(and(eq(games.seriesId, seriesId), eq(games.playerId, playerId))).orderBy(asc(games.seriesDeal))),
    ofPlayer: (playerId) => {
      const perSeries = tallies({ code: series.code, variant: series.variant }).innerJoin(series, eq(series.id, games.seriesId));
      return all(perSeries.where(eq(games.playerId, playerId)).groupBy(series.id).orderBy(desc(max(games.id))));
    },
  };
}
