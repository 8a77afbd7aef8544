import { and, asc, count, desc, eq, inArray, isNull, min } from 'drizzle-orm';
import { after } from '../ports.js';
import type { LobbyStore } from '../stores.js';
import { flow, wait, type Sql } from './sql.js';

/** What the public lobby lists, on either database: listed lobbies, listed races under way, and the pool's counts. */
export function lobbyStore(sql: Sql): LobbyStore {
  const { db, all } = sql;
  const { players, poolEntries, raceEntries, races } = sql.t;
  const listedIn = (states: ('lobby' | 'countdown' | 'running')[]) => and(eq(races.listed, true), inArray(races.state, states));
  const raceFields = { id: races.id, code: races.code, variant: races.variant, seats: races.seats, timeLimitSeconds: races.timeLimitSeconds, rated: races.rated, state: races.state, createdAt: races.createdAt, startsAt: races.startsAt, creatorId: races.creatorId };
  /** The racers of `raceIds` in seat order. */
  const racersOf = (raceIds: number[]) =>
    raceIds.length === 0
      ? []
      : all(
          db
            .select({ raceId: raceEntries.raceId, id: players.id, name: players.name })
            .from(raceEntries)
            .innerJoin(players, eq(players.id, raceEntries.playerId))
            .where(inArray(raceEntries.raceId, raceIds))
            .orderBy(asc(raceEntries.raceId), asc(raceEntries.seat)),
        );
  return {
    listed: (limit) =>
      flow(
        (function* () {
          const rows = yield* wait(all(db.select(raceFields).from(races).where(listedIn(['lobby', 'countdown', 'running'])).orderBy(desc(races.createdAt), desc(races.id)).limit(limit)));
          const racers = yield* wait(racersOf(rows.map((row) => row.id)));
          return rows.map((row) => ({ ...row, racers: racers.filter((racer) => racer.raceId === row.id).map(({ id, name }) => ({ id, name })) }));
        })(),
      ),
    waitingByVariant: () =>
      after(
        all(
          db
            .select({ variant: poolEntries.variant, count: count(), oldestJoinedAt: min(poolEntries.joinedAt) })
            .from(poolEntries)
            .where(isNull(poolEntries.raceId))
            .groupBy(poolEntries.variant)
            .orderBy(asc(poolEntries.variant)),
        ),
        // A group holds one entry at least: its oldest is never null.
        (rows) => rows.map((row) => ({ ...row, oldestJoinedAt: row.oldestJoinedAt! })),
      ),
  };
}
