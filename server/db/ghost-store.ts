import { and, asc, desc, eq, isNotNull, lt, ne, or } from 'drizzle-orm';
import { after } from '../ports.js';
import type { GhostCandidate, GhostStore } from '../stores.js';
import type { Sql } from './sql.js';

/** What ghost races read, on either database: a game's timeline, a player's ghost race, the games worth racing. */
export function ghostStore({ db, t: { gameActions, games, races }, one, all }: Sql): GhostStore {
  return {
    actionTimes: (gameId) =>
      after(all(db.select({ at: gameActions.at }).from(gameActions).where(eq(gameActions.gameId, gameId)).orderBy(asc(gameActions.index))), (rows) =>
        rows.map((row) => row.at),
      ),
    playing: (playerId) =>
      after(
        one(
          db
            .select({ id: games.id, ghostOf: games.ghostOf })
            .from(games)
            .where(and(eq(games.playerId, playerId), eq(games.kind, 'ghost'), eq(games.status, 'playing'))),
        ),
        (row) => (row && row.ghostOf !== null ? { id: row.id, ghostOf: row.ghostOf } : undefined),
      ),
    candidates: (variant, playerId, today, limit) => {
      const seedPublic = or(and(eq(games.kind, 'race'), eq(races.state, 'finished')), and(eq(games.kind, 'daily'), lt(games.day, today)));
      return after(
        all(
          db
            .select({ id: games.id, rankKey: games.rankKey })
            .from(games)
            .leftJoin(races, eq(races.id, games.raceId))
            .where(and(eq(games.variant, variant), ne(games.playerId, playerId), ne(games.status, 'playing'), isNotNull(games.rankKey), seedPublic))
            .orderBy(desc(games.id))
            .limit(limit),
        ),
        (rows) => rows as GhostCandidate[],
      );
    },
  };
}
