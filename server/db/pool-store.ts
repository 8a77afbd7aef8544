import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { after, recovering } from '../ports.js';
import type { PoolStore } from '../stores.js';
import { theRow, wait, type Sql } from './sql.js';

/** Thrown inside `form` to roll it back: one of the players was no longer waiting. */
class NotAllWaiting extends Error {}

/** The quick-race pool, on either database: the player key keeps one entry per player, and `form` claims its entries or changes nothing. */
export function poolStore(sql: Sql): PoolStore {
  const { db, one, all, run, transaction } = sql;
  const { poolEntries, races, raceEntries } = sql.t;
  const waitingOnly = isNull(poolEntries.raceId);
  return {
    join: (entry) =>
      after(
        run(
          db
            .insert(poolEntries)
            .values({ ...entry, raceId: null })
            .onConflictDoUpdate({ target: poolEntries.playerId, set: { variant: entry.variant, rating: entry.rating, joinedAt: entry.joinedAt, raceId: null } }),
        ),
        () => undefined,
      ),
    entry: (playerId) => one(db.select().from(poolEntries).where(eq(poolEntries.playerId, playerId))),
    waiting: (variant) =>
      all(
        db
          .select()
          .from(poolEntries)
          .where(and(waitingOnly, variant === undefined ? undefined : eq(poolEntries.variant, variant)))
          .orderBy(asc(poolEntries.joinedAt), asc(poolEntries.playerId)),
      ),
    leave: (playerId) => after(run(db.delete(poolEntries).where(and(eq(poolEntries.playerId, playerId), waitingOnly))), (count) => count > 0),
    remove: (playerId) => after(run(db.delete(poolEntries).where(eq(poolEntries.playerId, playerId))), (count) => count > 0),
    form: (race, playerIds, at) =>
      recovering(
        () =>
          transaction(function* ({ db, one, run }) {
            const { id } = yield* wait(theRow(one(db.insert(races).values(race).returning({ id: races.id }))));
            // On PostgreSQL a second instance claiming one of these rows waits for this transaction, then finds it taken.
            const claimed = yield* wait(run(db.update(poolEntries).set({ raceId: id }).where(and(inArray(poolEntries.playerId, [...playerIds]), waitingOnly))));
            if (claimed !== playerIds.length) throw new NotAllWaiting();
            for (const [index, playerId] of playerIds.entries()) yield* wait(run(db.insert(raceEntries).values({ raceId: id, playerId, seat: index + 1, joinedAt: at })));
            return id as number | undefined;
          }),
        (error) => {
          if (error instanceof NotAllWaiting) return undefined;
          throw error;
        },
      ),
  };
}
