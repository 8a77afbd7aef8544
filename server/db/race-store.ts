import { and, asc, eq, gte, inArray, isNotNull, notExists, sql as raw } from 'drizzle-orm';
import { after } from '../ports.js';
import type { RaceStore } from '../stores.js';
import { done, theRow, wait, type Rows, type Sql } from './sql.js';

const LIVE_STATES = ['lobby', 'countdown', 'running'] as const;

type Seat = { raceId: number; playerId: number; goneSince: number | null };

/** Races and their seats, on either database; the unique keys (code, seat) decide between instances. */
export function raceStore(sql: Sql): RaceStore {
  const { db, kind, one, all, run, transaction } = sql;
  const { games, players, raceEntries, races, currentGameRow } = sql.t;
  const entryOf = (raceId: number, playerId: number) => and(eq(raceEntries.raceId, raceId), eq(raceEntries.playerId, playerId));
  const racesOf = (query: Rows<{ race: (typeof races)['$inferSelect'] }>) => after(all(query), (rows) => rows.map((row) => row.race));

  /**
   * The seats of the live races. PostgreSQL looks them up by race from the array of the live
   * races' ids: as a join its planner prefers scanning every seat ever taken (10 ms at 200 000
   * seats, 1.6 ms this way). SQLite has no arrays, and its planner drives the join from races_state.
   */
  function liveSeats(goneOnly: boolean): Rows<Seat> {
    const fields = { raceId: raceEntries.raceId, playerId: raceEntries.playerId, goneSince: raceEntries.goneSince };
    const gone = goneOnly ? isNotNull(raceEntries.goneSince) : undefined;
    if (kind === 'postgres') {
      const live = db.select({ id: races.id }).from(races).where(inArray(races.state, [...LIVE_STATES]));
      return db.select(fields).from(raceEntries).where(and(raw`${raceEntries.raceId} = any(array(${live}))`, gone));
    }
    return db
      .select(fields)
      .from(raceEntries)
      .innerJoin(races, eq(races.id, raceEntries.raceId))
      .where(and(inArray(races.state, [...LIVE_STATES]), gone));
  }

  return {
    byCode: (code) => one(db.select().from(races).where(eq(races.code, code))),
    byId: (id) => one(db.select().from(races).where(eq(races.id, id))),
    inState: (state) => all(db.select().from(races).where(eq(races.state, state))),
    rematchOf: (raceId) => one(db.select().from(races).where(eq(races.rematchOf, raceId)).limit(1)),
    create: (race, joinedAt) =>
      transaction(function* ({ db, one, run }) {
        const { id } = yield* wait(theRow(one(db.insert(races).values(race).returning({ id: races.id }))));
        yield* wait(run(db.insert(raceEntries).values({ raceId: id, playerId: race.creatorId, seat: 1, joinedAt })));
        return id;
      }),
    update: (raceId, change) => done(run(db.update(races).set(change).where(eq(races.id, raceId)))),
    entries: (raceId) => all(db.select().from(raceEntries).where(eq(raceEntries.raceId, raceId)).orderBy(asc(raceEntries.seat))),
    entry: (raceId, playerId) => one(db.select().from(raceEntries).where(entryOf(raceId, playerId))),
    racers: (raceId) =>
      all(
        db
          .select({ id: players.id, name: players.name, rank: raceEntries.rank, seat: raceEntries.seat, goneSince: raceEntries.goneSince, rematch: raceEntries.rematch })
          .from(raceEntries)
          .innerJoin(players, eq(players.id, raceEntries.playerId))
          .where(eq(raceEntries.raceId, raceId))
          .orderBy(asc(raceEntries.seat)),
      ),
    seat: (raceId, playerId, seat, joinedAt) => done(run(db.insert(raceEntries).values({ raceId, playerId, seat, joinedAt }))),
    updateEntry: (raceId, playerId, change) => done(run(db.update(raceEntries).set(change).where(entryOf(raceId, playerId)))),
    unseat: (raceId, playerId) =>
      transaction(function* ({ db, one, run, lockingRows }) {
        // The race row's lock: a start, a close or another unseat of this race waits for this one, then sees what it did.
        const race = yield* wait(one(lockingRows(db.select({ state: races.state, creatorId: races.creatorId }).from(races).where(eq(races.id, raceId)))));
        if (race?.state !== 'lobby') return undefined;
        if ((yield* wait(run(db.delete(raceEntries).where(entryOf(raceId, playerId))))) === 0) return undefined;
        if (race.creatorId !== playerId) return {};
        const heir = yield* wait(
          one(
            db
              .select({ id: players.id, name: players.name })
              .from(raceEntries)
              .innerJoin(players, eq(players.id, raceEntries.playerId))
              .where(eq(raceEntries.raceId, raceId))
              .orderBy(asc(raceEntries.seat))
              .limit(1),
          ),
        );
        if (heir) yield* wait(run(db.update(races).set({ creatorId: heir.id }).where(eq(races.id, raceId))));
        return { heir: heir ?? null };
      }),
    liveEntries: () => all(liveSeats(false)),
    goneEntries: () => all(liveSeats(true)) as ReturnType<RaceStore['goneEntries']>,
    doneRunning: () => {
      const playing = db.select({ id: games.id }).from(games).where(and(eq(games.raceId, races.id), eq(games.status, 'playing')));
      return all(db.select().from(races).where(and(eq(races.state, 'running'), notExists(playing))));
    },
    liveRacesOf: (playerId) =>
      racesOf(
        db
          .select({ race: races })
          .from(raceEntries)
          .innerJoin(races, eq(races.id, raceEntries.raceId))
          .where(and(eq(raceEntries.playerId, playerId), inArray(races.state, [...LIVE_STATES]))),
      ),
    finishedRacesOf: (playerId, since) =>
      racesOf(
        db
          .select({ race: races })
          .from(raceEntries)
          .innerJoin(races, eq(races.id, raceEntries.raceId))
          .where(and(eq(raceEntries.playerId, playerId), eq(races.state, 'finished'), gte(races.finishedAt, since))),
      ),
    games: (raceId) => all(db.select(currentGameRow).from(games).where(eq(games.raceId, raceId))),
    gameIdOf: (raceId, playerId) => after(one(db.select({ id: games.id }).from(games).where(and(eq(games.raceId, raceId), eq(games.playerId, playerId)))), (row) => row?.id),
    finish: (raceId, ranks, finishedAt) =>
      transaction(function* ({ db, run }) {
        // Only a running race finishes; on PostgreSQL the row lock this takes makes a second instance finishing it wait, then change nothing.
        const finished = yield* wait(run(db.update(races).set({ state: 'finished', finishedAt }).where(and(eq(races.id, raceId), eq(races.state, 'running')))));
        if (finished === 0) return false;
        for (const { playerId, rank } of ranks) yield* wait(run(db.update(raceEntries).set({ rank }).where(entryOf(raceId, playerId))));
        return true;
      }),
    transition: (raceId, from, change) => after(run(db.update(races).set(change).where(and(eq(races.id, raceId), eq(races.state, from)))), (changed) => changed > 0),
  };
}
