import { and, asc, count, desc, eq, gt, isNull, sql as raw } from 'drizzle-orm';
import { after } from '../ports.js';
import type { FairPlayStore } from '../stores.js';
import { done, theRow, type Sql } from './sql.js';

/** Games' fair-play figures, on either database; a player's are averaged over their games. */
export function fairPlayStore({ db, t: { gameActions, gameFairPlay, games, players, races }, one, all, run }: Sql): FairPlayStore {
  // Averages are numeric on PostgreSQL, which node-postgres reads as strings.
  const mean = (expression: ReturnType<typeof raw>) => raw<number | null>`avg(${expression})`.mapWith((value: unknown) => (value === null ? null : Number(value)));
  const figures = {
    games: count().mapWith(Number),
    accuracy: mean(raw`case when ${gameFairPlay.judged} > 0 then ${gameFairPlay.kept} * 1.0 / ${gameFairPlay.judged} end`),
    medianMs: mean(raw`${gameFairPlay.medianMs}`),
  };
  const relativeSpread = mean(raw`case when ${gameFairPlay.medianMs} > 0 then ${gameFairPlay.spreadMs} * 1.0 / ${gameFairPlay.medianMs} end`);
  return {
    moveTimes: (gameId) => after(all(db.select({ at: gameActions.at }).from(gameActions).where(eq(gameActions.gameId, gameId)).orderBy(asc(gameActions.index))), (rows) => rows.map((row) => row.at)),
    store: (row) => done(run(db.insert(gameFairPlay).values(row).onConflictDoNothing())),
    byGame: (gameId) => one(db.select().from(gameFairPlay).where(eq(gameFairPlay.gameId, gameId))),
    ofPlayer: (playerId) => theRow(one(db.select(figures).from(gameFairPlay).where(eq(gameFairPlay.playerId, playerId)))),
    outliers: (rule, limit) =>
      after(
        all(
          db
            .select({ id: players.id, name: players.name, bannedAt: players.bannedAt, ...figures, relativeSpread })
            .from(gameFairPlay)
            .innerJoin(games, eq(games.id, gameFairPlay.gameId))
            .innerJoin(players, eq(players.id, gameFairPlay.playerId))
            // Only rated races: where a result moves a rating, an engine's help would pay.
            .innerJoin(races, eq(races.id, games.raceId))
            .where(and(eq(races.rated, true), gt(gameFairPlay.judged, 0), isNull(players.bannedAt)))
            .groupBy(players.id)
            .having(
              and(
                raw`count(*) >= ${rule.minGames}`,
                raw`${figures.accuracy} >= ${rule.minAccuracy}`,
                raw`${figures.medianMs} <= ${rule.maxMedianMs}`,
                raw`${relativeSpread} <= ${rule.maxRelativeSpread}`,
              ),
            )
            .orderBy(desc(figures.accuracy), asc(players.id))
            .limit(limit),
        ),
        (rows) => rows.map(({ id, name, bannedAt, ...rest }) => ({ player: { id, name, bannedAt }, ...rest })),
      ),
  };
}
