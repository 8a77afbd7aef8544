import { and, asc, count, eq, gte, inArray, isNotNull, notExists, sql as raw, type SQL } from 'drizzle-orm';
import { after } from '../ports.js';
import type { RaceRow, RaceStore } from '../stores.js';
import { done, theRow, wait, type Rows, type Sql } from './sql.js';

const LIVE_STATES = ['lobby', 'countdown', 'running'] as const;

/** Races and their seats, on either database; the unique keys (code, seat) decide between instances. */
export function raceStore(sql: Sql): RaceStore {
  const { db, kind, one, all, run, transaction } = sql;
  const { games, players, raceEntries, races, currentGameRow } = sql.t;
  const entryOf = (raceId: number, playerId: number) => and(eq(raceEntries.raceId, raceId), eq(raceEntries.playerId, playerId));
  const isLive = inArray(races.state, [...LIVE_STATES]);
  const racer = { id: players.id, name: players.name };
  const seatsOf = (raceId: number) => eq(raceEntries.raceId, raceId);
  const seatsPlayer = eq(players.id, raceEntries.playerId);
  const bySeat = asc(raceEntries.seat);
  /** The races of `playerId`'s seats that `where` keeps. */
  const racesOf = (playerId: number, where: SQL | undefined) =>
    after(all(db.select({ race: races }).from(raceEntries).innerJoin(races, eq(races.id, raceEntries.raceId)).where(and(eq(raceEntries.playerId, playerId), where))), (rows) =>
      rows.map((row): RaceRow => row.race),
    );

  /**
   * The seats of the live races. PostgreSQL looks them up by race from the array of the live
   * races' ids: as a join its planner prefers scanning every seat ever taken (10 ms at 200 000
   * seats, 1.6 ms this way). SQLite has no arrays, and its planner drives the join from races_state.
   */
  function liveSeats(where?: SQL): Rows<{ raceId: number; playerId: number; goneSince: number | null }> {
    const seats = db.select({ raceId: raceEntries.raceId, playerId: raceEntries.playerId, goneSince: raceEntries.goneSince }).from(raceEntries);
    if (kind === 'postgres') return seats.where(and(raw`${raceEntries.raceId} = any(array(${db.select({ id: races.id }).from(races).where(isLive)}))`, where));
    return seats.innerJoin(races, eq(races.id, raceEntries.raceId)).where(and(isLive, where));
  }

  return {
    byCode: (code) => one(db.select().from(races).where(eq(races.code, code))),
    byId: (id) => one(db.select().from(races).where(eq(races.id, id))),
    inState: (state) => all(db.select().from(races).where(eq(races.state, state))),
    countByState: () =>
      after(all(db.select({ state: races.state, count: count() }).from(races).groupBy(races.state)), (rows) =>
        Object.fromEntries(rows.map((row) => [row.state, row.count])),
      ),
    rematchOf: (raceId) => one(db.select().from(races).where(eq(races.rematchOf, raceId)).limit(1)),
    create: (race, joinedAt) =>
      transaction(function* ({ db, one, run }) {
        const { id } = yield* wait(theRow(one(db.insert(races).values(race).returning({ id: races.id }))));
        yield* wait(run(db.insert(raceEntries).values({ raceId: id, playerId: race.creatorId, seat: 1, joinedAt })));
        return id;
      }),
    update: (raceId, change) => done(run(db.update(races).set(change).where(eq(races.id, raceId)))),
    entries: (raceId) => all(db.select().from(raceEntries).where(seatsOf(raceId)).orderBy(asc(raceEntries.seat))),
    entry: (raceId, playerId) => one(db.select().from(raceEntries).where(entryOf(raceId, playerId))),
    racers: (raceId) => {
      const seat = { rank: raceEntries.rank, seat: raceEntries.seat, goneSince: raceEntries.goneSince, rematch: raceEntries.rematch };
      return all(db.select({ ...racer, ...seat }).from(raceEntries).innerJoin(players, seatsPlayer).where(seatsOf(raceId)).orderBy(bySeat));
    },
    seat: (raceId, playerId, seat, joinedAt) => done(run(db.insert(raceEntries).values({ raceId, playerId, seat, joinedAt }))),
    updateEntry: (raceId, playerId, change) => done(run(db.update(raceEntries).set(change).where(entryOf(raceId, playerId)))),
    unseat: (raceId, playerId) =>
      transaction(function* ({ db, one, run, lockingRows }) {
        // The race row's lock: a start, a close or another unseat of this race waits for this one, then sees what it did.
        const race = yield* wait(one(lockingRows(db.select({ state: races.state, creatorId: races.creatorId }).from(races).where(eq(races.id, raceId)))));
        if (race?.state !== 'lobby') return undefined;
        if ((yield* wait(run(db.delete(raceEntries).where(entryOf(raceId, playerId))))) === 0) return undefined;
        if (race.creatorId !== playerId) return {};
        const heir = yield* wait(one(db.select(racer).from(raceEntries).innerJoin(players, seatsPlayer).where(seatsOf(raceId)).orderBy(bySeat).limit(1)));
        if (heir) yield* wait(run(db.update(races).set({ creatorId: heir.id }).where(eq(races.id, raceId))));
        return { heir: heir ?? null };
      }),
    liveEntries: () => all(liveSeats()),
    goneEntries: () => all(liveSeats(isNotNull(raceEntries.goneSince))) as ReturnType<RaceStore['goneEntries']>,
    doneRunning: () => {
      const playing = db.select({ id: games.id }).from(games).where(and(eq(games.raceId, races.id), eq(games.status, 'playing')));
      return all(db.select().from(races).where(and(eq(races.state, 'running'), notExists(playing))));
    },
    liveRacesOf: (playerId) => racesOf(playerId, isLive),
    finishedRacesOf: (playerId, since) => racesOf(playerId, and(eq(races.state, 'finished'), gte(races.finishedAt, since))),
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
