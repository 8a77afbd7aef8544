import { and, asc, desc, eq, gte, isNotNull, lte, notExists } from 'drizzle-orm';
import { after } from '../ports.js';
import type { RankedRacer, RatingRow, RatingStore } from '../stores.js';
import { wait, type Sql } from './sql.js';

/** Ratings and their history, on either database; the rated race's key makes a race count once. */
export function ratingStore(sql: Sql): RatingStore {
  const { db, all, transaction } = sql;
  const { players, raceEntries, races, ratedRaces, ratingChanges, ratings } = sql.t;
  const ratingOf = (playerId: number, variant: RatingRow['variant']) => and(eq(ratings.playerId, playerId), eq(ratings.variant, variant));
  const seatOfChange = and(eq(raceEntries.raceId, ratingChanges.raceId), eq(raceEntries.playerId, ratingChanges.playerId));

  return {
    ofPlayer: (playerId) => all(db.select().from(ratings).where(eq(ratings.playerId, playerId)).orderBy(asc(ratings.variant))),
    unapplied: () => {
      const applied = db.select({ one: ratedRaces.raceId }).from(ratedRaces).where(eq(ratedRaces.raceId, races.id));
      const rows = all(
        db
          .select({ id: races.id, finishedAt: races.finishedAt })
          .from(races)
          .where(and(eq(races.state, 'finished'), eq(races.rated, true), notExists(applied)))
          .orderBy(asc(races.finishedAt), asc(races.id)),
      );
      return after(rows, (found) => found.map(({ id, finishedAt }) => ({ id, finishedAt: finishedAt ?? 0 })));
    },
    apply: (raceId, appliedAt, rate) =>
      transaction(function* ({ db, one, all, run, lockingRows }) {
        // The race row's lock: another instance applying the same race waits here, then finds it applied.
        const race = yield* wait(one(lockingRows(db.select().from(races).where(eq(races.id, raceId)))));
        if (race?.state !== 'finished' || !race.rated || race.finishedAt === null) return false;
        if ((yield* wait(run(db.insert(ratedRaces).values({ raceId, appliedAt }).onConflictDoNothing()))) === 0) return false;
        const { variant, finishedAt: at } = race;
        const seats = db
          .select({ playerId: raceEntries.playerId, rank: raceEntries.rank })
          .from(raceEntries)
          .where(and(eq(raceEntries.raceId, raceId), isNotNull(raceEntries.rank)))
          .orderBy(asc(raceEntries.seat));
        const racers: RankedRacer[] = [];
        for (const { playerId, rank } of yield* wait(all(seats))) {
          const before = yield* wait(one(lockingRows(db.select().from(ratings).where(ratingOf(playerId, variant)))));
          racers.push({ playerId, rank: rank!, before });
        }
        const steps = rate(racers);
        for (const [i, { playerId, before: stored }] of racers.entries()) {
          const { before, after: moved } = steps[i]!;
          const rating = { mu: moved.mu, sigma: moved.sigma, games: (stored?.games ?? 0) + 1, updatedAt: at };
          if (stored) yield* wait(run(db.update(ratings).set(rating).where(ratingOf(playerId, variant))));
          else yield* wait(run(db.insert(ratings).values({ playerId, variant, ...rating })));
          const change = { raceId, playerId, variant, muBefore: before.mu, sigmaBefore: before.sigma, muAfter: moved.mu, sigmaAfter: moved.sigma, at };
          yield* wait(run(db.insert(ratingChanges).values(change)));
        }
        return true;
      }),
    changesOfRace: (raceId) =>
      after(all(db.select({ change: ratingChanges }).from(ratingChanges).innerJoin(raceEntries, seatOfChange).where(eq(ratingChanges.raceId, raceId)).orderBy(asc(raceEntries.seat))), (rows) =>
        rows.map(({ change }) => change),
      ),
    changesOfPlayer: (playerId) =>
      after(
        all(
          db
            .select({ change: ratingChanges, code: races.code })
            .from(ratingChanges)
            .innerJoin(races, eq(races.id, ratingChanges.raceId))
            .where(eq(ratingChanges.playerId, playerId))
            .orderBy(asc(ratingChanges.at), asc(ratingChanges.raceId)),
        ),
        (rows) => rows.map(({ change, code }) => ({ ...change, code })),
      ),
    board: (variant, activeSince, maxSigma, limit) =>
      after(
        all(
          db
            .select({ rating: ratings, name: players.name })
            .from(ratings)
            .innerJoin(players, eq(players.id, ratings.playerId))
            .where(and(eq(ratings.variant, variant), lte(ratings.sigma, maxSigma), gte(ratings.updatedAt, activeSince)))
            .orderBy(desc(ratings.mu), asc(ratings.playerId))
            .limit(limit),
        ),
        (rows) => rows.map(({ rating, name }) => ({ ...rating, name })),
      ),
    appliedRaces: (variant) =>
      after(
        all(
          db
            .select({ raceId: races.id, finishedAt: races.finishedAt, playerId: raceEntries.playerId, rank: raceEntries.rank })
            .from(ratedRaces)
            .innerJoin(races, eq(races.id, ratedRaces.raceId))
            .innerJoin(raceEntries, eq(raceEntries.raceId, races.id))
            .where(and(eq(races.variant, variant), isNotNull(raceEntries.rank)))
            .orderBy(asc(races.finishedAt), asc(races.id), asc(raceEntries.seat)),
        ),
        (rows) => rows.map((row) => ({ ...row, finishedAt: row.finishedAt ?? 0, rank: row.rank! })),
      ),
    variantsRacedBy: (playerId) =>
      after(
        all(
          db
            .selectDistinct({ variant: races.variant })
            .from(ratedRaces)
            .innerJoin(races, eq(races.id, ratedRaces.raceId))
            .innerJoin(raceEntries, eq(raceEntries.raceId, races.id))
            .where(and(eq(raceEntries.playerId, playerId), isNotNull(raceEntries.rank)))
            .orderBy(asc(races.variant)),
        ),
        (rows) => rows.map((row) => row.variant),
      ),
    replace: (variant, rows, changes) =>
      transaction(function* ({ db, run }) {
        yield* wait(run(db.delete(ratingChanges).where(eq(ratingChanges.variant, variant))));
        yield* wait(run(db.delete(ratings).where(eq(ratings.variant, variant))));
        // In slices: one statement's parameters stay well below either database's limit.
        for (let i = 0; i < rows.length; i += 500) yield* wait(run(db.insert(ratings).values(rows.slice(i, i + 500))));
        for (let i = 0; i < changes.length; i += 500) yield* wait(run(db.insert(ratingChanges).values(changes.slice(i, i + 500))));
      }),
  };
}
