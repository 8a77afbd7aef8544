/**
 * The storage seam beside the game store (ports.ts): players, replays and the daily board, each
 * an interface with one adapter per database (SQLite in server/db/, PostgreSQL in server/db/pg/).
 * As for games, a call may answer now (SQLite) or later (PostgreSQL); the services await it.
 */
import type { PlayerView } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';
import type { games, raceEntries, races } from './db/schema.js';
import type { GameStore, Pending } from './ports.js';

/** A game's stored row (both schemas have the same columns). */
export type GameRow = typeof games.$inferSelect;
export type RaceRow = typeof races.$inferSelect;
export type RaceEntryRow = typeof raceEntries.$inferSelect;

/** A finished game as a player's statistics read it. */
export interface FinishedGameRow {
  readonly variant: VariantId;
  readonly status: GameRow['status'];
  readonly foundations: number;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

export interface PlayerStore {
  create(name: string, tokenHash: string, createdAt: number): Pending<PlayerView>;
  byTokenHash(tokenHash: string): Pending<PlayerView | undefined>;
  byId(id: number): Pending<PlayerView | undefined>;
  /** The player's ended games, oldest end first. */
  finishedGames(playerId: number): Pending<FinishedGameRow[]>;
  /** Deletes players created before `createdBefore` who never played, raced or created a race; how many. */
  pruneUnused(createdBefore: number): Pending<number>;
}

/** A game with what its summary shows of its player and race. */
export interface SummaryRow {
  readonly game: GameRow;
  readonly name: string;
  readonly raceCode: string | null;
  readonly raceState: RaceRow['state'] | null;
  readonly raceRank: number | null;
}

/** Every game of a race with its move log, for the race replay. */
export interface RaceLogs {
  readonly games: GameRow[];
  readonly deals: { gameId: number; k: number; layout: string[] }[];
  readonly actions: { gameId: number; index: number; action: string; at: number }[];
}

export interface ReplayStore {
  summary(gameId: number): Pending<SummaryRow | undefined>;
  /** A player's games, newest first. */
  history(playerId: number, limit: number, offset: number): Pending<SummaryRow[]>;
  gameCount(playerId: number): Pending<number>;
  raceLogs(raceId: number): Pending<RaceLogs>;
}

/** A leaderboard row before ranking. */
export interface BoardRow {
  readonly gameId: number;
  readonly playerId: number;
  readonly name: string;
  readonly state: GameRow['status'];
  readonly foundations: number;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly rankKey: number | null;
}

/** The daily deal's stored facts; counts come from the covering index and the tallies (daily.ts). */
export interface DailyStore {
  /** The daily seeds' secret, made (once, whoever is first) on first use. */
  secret(made: string, now: number): Pending<string>;
  /** Finished attempts of the day in rank order, one page. */
  page(day: string, limit: number, offset: number): Pending<BoardRow[]>;
  /** Finished attempts with more than `foundations` cards home. */
  moreCards(day: string, foundations: number): Pending<number>;
  /** Finished attempts with rank keys in [from, rankKey). */
  rankKeysBetween(day: string, from: number, rankKey: number): Pending<number>;
  /** Attempts tied at `rankKey` stored before game `gameId`. */
  tiedBefore(day: string, rankKey: number, gameId: number): Pending<number>;
  finished(day: string): Pending<number>;
  playing(day: string): Pending<number>;
  /** The seed the day's attempts were dealt from, once one was. */
  storedSeed(day: string): Pending<string | undefined>;
  attempt(playerId: number, day: string): Pending<GameRow | undefined>;
}

/** Everything the service stores, on one database. */
export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  readonly games: GameStore;
  readonly players: PlayerStore;
  readonly replays: ReplayStore;
  readonly daily: DailyStore;
  /** The storage's reason when `error` is a failure to store (remembered for readiness), else undefined. */
  failure(error: unknown): string | undefined;
  /** Whether the database answers and takes writes now. */
  ready(): Promise<{ database: 'ok' | 'unavailable' | 'unreachable'; code?: string }>;
  close(): Promise<void>;
}
