import { and, asc, eq, gte, inArray, isNotNull, notExists } from 'drizzle-orm';
import type { FreedSeat, GameRow, NewRace, RaceEntryRow, RacerRow, RaceRow, RaceStore } from '../stores.js';
import { transaction, type Db, type Transaction } from './index.js';
import { currentGameRow, games, players, raceEntries, races } from './schema.js';

const LIVE_STATES = ['lobby', 'countdown', 'running'] as const;
const entryOf = (raceId: number, playerId: number) => and(eq(raceEntries.raceId, raceId), eq(raceEntries.playerId, playerId));

/** Races and their seats on SQLite, answering in the same turn. */
export class SqliteRaceStore implements RaceStore {
  private readonly transaction: Transaction;

  constructor(private readonly db: Db) {
    this.transaction = transaction(db);
  }

  byCode(code: string): RaceRow | undefined {
    return this.db.select().from(races).where(eq(races.code, code)).get();
  }

  byId(id: number): RaceRow | undefined {
    return this.db.select().from(races).where(eq(races.id, id)).get();
  }

  inState(state: RaceRow['state']): RaceRow[] {
    return this.db.select().from(races).where(eq(races.state, state)).all();
  }

  rematchOf(raceId: number): RaceRow | undefined {
    return this.db.select().from(races).where(eq(races.rematchOf, raceId)).get();
  }

  create(race: NewRace, joinedAt: number): number {
    return this.transaction(() => {
      const { id } = this.db.insert(races).values(race).returning({ id: races.id }).get();
      this.db.insert(raceEntries).values({ raceId: id, playerId: race.creatorId, seat: 1, joinedAt }).run();
      return id;
    });
  }

  update(raceId: number, change: Partial<Omit<RaceRow, 'id' | 'code'>>): void {
    this.db.update(races).set(change).where(eq(races.id, raceId)).run();
  }

  entries(raceId: number): RaceEntryRow[] {
    return this.db.select().from(raceEntries).where(eq(raceEntries.raceId, raceId)).orderBy(asc(raceEntries.seat)).all();
  }

  entry(raceId: number, playerId: number): RaceEntryRow | undefined {
    return this.db.select().from(raceEntries).where(entryOf(raceId, playerId)).get();
  }

  racers(raceId: number): RacerRow[] {
    return this.db
      .select({ id: players.id, name: players.name, rank: raceEntries.rank, seat: raceEntries.seat, goneSince: raceEntries.goneSince, rematch: raceEntries.rematch })
      .from(raceEntries)
      .innerJoin(players, eq(players.id, raceEntries.playerId))
      .where(eq(raceEntries.raceId, raceId))
      .orderBy(asc(raceEntries.seat))
      .all();
  }

  seat(raceId: number, playerId: number, seat: number, joinedAt: number): void {
    this.db.insert(raceEntries).values({ raceId, playerId, seat, joinedAt }).run();
  }

  updateEntry(raceId: number, playerId: number, change: Partial<Pick<RaceEntryRow, 'goneSince' | 'rematch'>>): void {
    this.db.update(raceEntries).set(change).where(entryOf(raceId, playerId)).run();
  }

  unseat(raceId: number, playerId: number): FreedSeat | undefined {
    return this.transaction(() => {
      const race = this.db.select({ state: races.state, creatorId: races.creatorId }).from(races).where(eq(races.id, raceId)).get();
      if (race?.state !== 'lobby') return undefined;
      if (this.db.delete(raceEntries).where(entryOf(raceId, playerId)).run().changes === 0) return undefined;
      if (race.creatorId !== playerId) return {};
      const heir = this.db
        .select({ id: players.id, name: players.name })
        .from(raceEntries)
        .innerJoin(players, eq(players.id, raceEntries.playerId))
        .where(eq(raceEntries.raceId, raceId))
        .orderBy(asc(raceEntries.seat))
        .get();
      if (heir) this.db.update(races).set({ creatorId: heir.id }).where(eq(races.id, raceId)).run();
      return { heir: heir ?? null };
    });
  }

  liveEntries(): { raceId: number; playerId: number; goneSince: number | null }[] {
    return this.db
      .select({ raceId: raceEntries.raceId, playerId: raceEntries.playerId, goneSince: raceEntries.goneSince })
      .from(raceEntries)
      .innerJoin(races, eq(races.id, raceEntries.raceId))
      .where(inArray(races.state, [...LIVE_STATES]))
      .all();
  }

  goneEntries(): { raceId: number; playerId: number; goneSince: number }[] {
    return this.db
      .select({ raceId: raceEntries.raceId, playerId: raceEntries.playerId, goneSince: raceEntries.goneSince })
      .from(raceEntries)
      .innerJoin(races, eq(races.id, raceEntries.raceId))
      .where(and(inArray(races.state, [...LIVE_STATES]), isNotNull(raceEntries.goneSince)))
      .all() as { raceId: number; playerId: number; goneSince: number }[];
  }

  doneRunning(): RaceRow[] {
    const playing = this.db.select({ id: games.id }).from(games).where(and(eq(games.raceId, races.id), eq(games.status, 'playing')));
    return this.db.select().from(races).where(and(eq(races.state, 'running'), notExists(playing))).all();
  }

  liveRacesOf(playerId: number): RaceRow[] {
    return this.db
      .select({ race: races })
      .from(raceEntries)
      .innerJoin(races, eq(races.id, raceEntries.raceId))
      .where(and(eq(raceEntries.playerId, playerId), inArray(races.state, [...LIVE_STATES])))
      .all()
      .map((row) => row.race);
  }

  finishedRacesOf(playerId: number, since: number): RaceRow[] {
    return this.db
      .select({ race: races })
      .from(raceEntries)
      .innerJoin(races, eq(races.id, raceEntries.raceId))
      .where(and(eq(raceEntries.playerId, playerId), eq(races.state, 'finished'), gte(races.finishedAt, since)))
      .all()
      .map((row) => row.race);
  }

  games(raceId: number): GameRow[] {
    return this.db.select(currentGameRow).from(games).where(eq(games.raceId, raceId)).all();
  }

  gameIdOf(raceId: number, playerId: number): number | undefined {
    return this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.raceId, raceId), eq(games.playerId, playerId)))
      .get()?.id;
  }

  finish(raceId: number, ranks: readonly { playerId: number; rank: number }[], finishedAt: number): boolean {
    return this.transaction(() => {
      const { changes } = this.db
        .update(races)
        .set({ state: 'finished', finishedAt })
        .where(and(eq(races.id, raceId), eq(races.state, 'running')))
        .run();
      if (changes === 0) return false;
      for (const { playerId, rank } of ranks) this.db.update(raceEntries).set({ rank }).where(entryOf(raceId, playerId)).run();
      return true;
    });
  }

  transition(raceId: number, from: RaceRow['state'], change: Partial<Omit<RaceRow, 'id' | 'code'>>): boolean {
    const { changes } = this.db
      .update(races)
      .set(change)
      .where(and(eq(races.id, raceId), eq(races.state, from)))
      .run();
    return changes > 0;
  }
}
