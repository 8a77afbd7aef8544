import { and, asc, eq, lt, ne, notExists } from 'drizzle-orm';
import type { PlayerStore } from '../stores.js';
import { theRow, wait, type Sql } from './sql.js';

/** Players, on either database. */
export function playerStore({ db, t: { devices, games, players, poolEntries, raceEntries, races, series }, one, all, run, transaction }: Sql): PlayerStore {
  const view = { id: players.id, name: players.name };
  return {
    create: (name, device, createdAt) =>
      transaction(function* ({ db, one }) {
        const player = yield* wait(theRow(one(db.insert(players).values({ name, createdAt }).returning(view))));
        const { id } = yield* wait(theRow(one(db.insert(devices).values({ ...device, playerId: player.id, createdAt, lastSeenAt: createdAt }).returning({ id: devices.id }))));
        return { player, deviceId: id };
      }),
    byId: (id) => one(db.select(view).from(players).where(eq(players.id, id))),
    rename: (playerId, name) => one(db.update(players).set({ name }).where(eq(players.id, playerId)).returning(view)),
    finishedGames: (playerId) =>
      all(
        db
          .select({ variant: games.variant, day: games.day, status: games.status, foundations: games.foundations, startedAt: games.startedAt, finishedAt: games.finishedAt })
          .from(games)
          .where(and(eq(games.playerId, playerId), ne(games.status, 'playing')))
          .orderBy(asc(games.finishedAt), asc(games.id)),
      ),
    pruneUnused: (createdBefore) =>
      run(
        db.delete(players).where(
          and(
            lt(players.createdAt, createdBefore),
            notExists(db.select({ one: games.id }).from(games).where(eq(games.playerId, players.id))),
            notExists(db.select({ one: raceEntries.raceId }).from(raceEntries).where(eq(raceEntries.playerId, players.id))),
            notExists(db.select({ one: races.id }).from(races).where(eq(races.creatorId, players.id))),
            notExists(db.select({ one: series.id }).from(series).where(eq(series.creatorId, players.id))),
            notExists(db.select({ one: poolEntries.playerId }).from(poolEntries).where(eq(poolEntries.playerId, players.id))),
          ),
        ),
      ),
  };
}
