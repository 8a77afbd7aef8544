/**
 * The storage seam beside the game store (ports.ts): players, races, series, replays and the
 * daily board, each an interface written once for both databases (server/db/*-store.ts over the
 * adapter in server/db/sql.ts). The rows are the port's own types: the schemas must fit them.
 * As for games, a call may answer now (SQLite) or later (PostgreSQL); the services await it.
 */
import type { ClosedReason, GameAnalysis, GameState, PlayerView, RaceState } from '../contract/index.js';
import type { REMATCH_ANSWERS, STORED_ANALYSIS_STATES } from '../contract/vocabulary.js';
import type { VariantId } from '../shared/index.js';
import type { GameStore, NewGameRow, Pending } from './ports.js';
import type { GhostStore } from './stores/ghosts.js';
import type { IdentityStore, NewDevice } from './stores/identity.js';
import type { FairPlayStore, ModerationStore } from './stores/moderation.js';
import type { RatingStore } from './stores/ratings.js';

// The ports of the later features live beside this file, one per concern; every port is named here.
export type { GhostCandidate, GhostStore } from './stores/ghosts.js';
export type { ChallengePurpose, DeviceRow, IdentityStore, LinkRefusal, NewDevice, PasskeyRow, SignedIn } from './stores/identity.js';
export type { FairPlayRow, FairPlayStore, ModerationStore, OutlierRow, OutlierRule, PlayerChange, ReportRow } from './stores/moderation.js';
export type { RankedRacer, RatingChangeRow, RatingRow, RatingStep, RatingStore } from './stores/ratings.js';

/** A game's stored row, its counts as they stand now (a playing game's read from its log). Times are epoch milliseconds. */
export interface GameRow extends Omit<NewGameRow, 'layout'> {
  readonly id: number;
  readonly status: GameState;
  readonly redealsUsed: number;
  readonly moves: number;
  readonly finishedAt: number | null;
  /** The result as one number once ended, smaller is better (standings.ts). */
  readonly rankKey: number | null;
}

export interface RaceRow {
  readonly id: number;
  readonly code: string;
  readonly variant: VariantId;
  readonly seats: number;
  readonly timeLimitSeconds: number | null;
  /** Secret until the race is finished. */
  readonly seed: string;
  readonly state: RaceState;
  readonly creatorId: number;
  readonly createdAt: number;
  readonly startsAt: number | null;
  readonly finishedAt: number | null;
  readonly lobbyClosesAt: number | null;
  /** The hard cap of a race without a time limit, set at the deal. */
  readonly capAt: number | null;
  readonly closedReason: ClosedReason | null;
  /** The race this one is a rematch of. */
  readonly rematchOf: number | null;
  /** Shown in the public lobby; else reached by its link only. */
  readonly listed: boolean;
  /** Whether its result moves its racers' ratings. */
  readonly rated: boolean;
}

export interface RaceEntryRow {
  readonly raceId: number;
  readonly playerId: number;
  /** 1-based, in join order. */
  readonly seat: number;
  readonly joinedAt: number;
  /** The final standing, once the race finished. */
  readonly rank: number | null;
  /** Since when the racer has had no open socket (the grace period runs from here), null while connected. */
  readonly goneSince: number | null;
  readonly rematch: (typeof REMATCH_ANSWERS)[number] | null;
}

/** A finished game as a player's statistics read it. */
export interface FinishedGameRow {
  readonly variant: VariantId;
  /** A daily attempt's day; null for other kinds. */
  readonly day: string | null;
  readonly status: GameRow['status'];
  readonly foundations: number;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

export interface PlayerStore {
  /** A new identity with its first device, in one transaction. */
  create(name: string, device: NewDevice, createdAt: number): Pending<{ player: PlayerView; deviceId: number }>;
  byId(id: number): Pending<PlayerView | undefined>;
  rename(playerId: number, name: string): Pending<PlayerView | undefined>;
  /** The player's ended games, oldest end first. */
  finishedGames(playerId: number): Pending<FinishedGameRow[]>;
  /** Deletes players created before `createdBefore` who never played, raced or created a race or series; how many. */
  pruneUnused(createdBefore: number): Pending<number>;
}

/** What a new race is stored with (its creator takes seat 1 in the same transaction); left out, a column is null. */
export type NewRace = Pick<RaceRow, 'code' | 'variant' | 'seats' | 'seed' | 'state' | 'creatorId' | 'createdAt'> & Partial<Omit<RaceRow, 'id' | 'code'>>;

/** A seated racer with their name, as the race view lists them. */
export interface RacerRow {
  readonly id: number;
  readonly name: string;
  readonly rank: number | null;
  readonly seat: number;
  readonly goneSince: number | null;
  readonly rematch: RaceEntryRow['rematch'];
}

/** A lobby seat freed: who the lobby passed to when it was the creator's (null: nobody is left). */
export interface FreedSeat {
  readonly heir?: PlayerView | null;
}

export interface RaceStore {
  byCode(code: string): Pending<RaceRow | undefined>;
  byId(id: number): Pending<RaceRow | undefined>;
  inState(state: RaceRow['state']): Pending<RaceRow[]>;
  /** How many races stand in each state (a state with none is left out). */
  countByState(): Pending<Partial<Record<RaceState, number>>>;
  /** The race asked for as the rematch of `raceId`, once someone did. */
  rematchOf(raceId: number): Pending<RaceRow | undefined>;
  /** Stores the race and seats its creator, in one transaction; its id. */
  create(race: NewRace, joinedAt: number): Pending<number>;
  update(raceId: number, change: Partial<Omit<RaceRow, 'id' | 'code'>>): Pending<void>;
  entries(raceId: number): Pending<RaceEntryRow[]>;
  entry(raceId: number, playerId: number): Pending<RaceEntryRow | undefined>;
  /** In seat order. */
  racers(raceId: number): Pending<RacerRow[]>;
  /** Seats a player after the last seat taken; a seat taken by another instance at the same moment fails as a duplicate. */
  seat(raceId: number, playerId: number, seat: number, joinedAt: number): Pending<void>;
  updateEntry(raceId: number, playerId: number, change: Partial<Pick<RaceEntryRow, 'goneSince' | 'rematch'>>): Pending<void>;
  /**
   * Frees a seat, only if the race is still a lobby and the player still seated in it (undefined
   * otherwise: nothing changed). When it was the creator's, the lobby passes to the next racer in
   * seat order (`heir`), or to nobody (null).
   */
  unseat(raceId: number, playerId: number): Pending<FreedSeat | undefined>;
  /** Entries of every lobby, countdown and running race. */
  liveEntries(): Pending<{ raceId: number; playerId: number; goneSince: number | null }[]>;
  /** Entries of every lobby, countdown and running race whose racer is stored as gone (a grace period running). */
  goneEntries(): Pending<{ raceId: number; playerId: number; goneSince: number }[]>;
  /** Running races none of whose games is still playing: their standings are due. */
  doneRunning(): Pending<RaceRow[]>;
  /** The lobbies, countdowns and running races `playerId` is seated in. */
  liveRacesOf(playerId: number): Pending<RaceRow[]>;
  /** The races `playerId` was seated in that finished at `since` or later. */
  finishedRacesOf(playerId: number, since: number): Pending<RaceRow[]>;
  games(raceId: number): Pending<GameRow[]>;
  gameIdOf(raceId: number, playerId: number): Pending<number | undefined>;
  /** Stores the standings and marks the race finished, in one transaction, only if it is still running; whether it did. */
  finish(raceId: number, ranks: readonly { playerId: number; rank: number }[], finishedAt: number): Pending<boolean>;
  /** Changes a race only if it is still in state `from` (not started, closed or dealt elsewhere meanwhile); whether it did. */
  transition(raceId: number, from: RaceRow['state'], change: Partial<Omit<RaceRow, 'id' | 'code'>>): Pending<boolean>;
}

/** The stored deadlines of playing games (time limits, hard caps, a daily's end of day), which the timer owner's rescan arms. */
export interface DeadlineStore {
  playing(): Pending<{ id: number; deadline: number }[]>;
}

/** A series: its deals' seeds come from its own, secret seed. */
export interface SeriesRow {
  readonly id: number;
  readonly code: string;
  readonly variant: VariantId;
  readonly seed: string;
  readonly creatorId: number;
  readonly createdAt: number;
}

/** A player's tallies over their games of one series. */
export interface SeriesTally {
  readonly played: number;
  readonly wins: number;
  readonly cards: number;
  readonly lastDeal: number | null;
  /** 1 while one of the games is being played, else 0. */
  readonly playing: number;
}

export interface SeriesStore {
  byCode(code: string): Pending<SeriesRow | undefined>;
  create(row: Omit<SeriesRow, 'id'>): Pending<void>;
  /** Every player of a series with their tallies, most wins first, then most cards, then who joined first. */
  standings(seriesId: number): Pending<(SeriesTally & { id: number; name: string })[]>;
  /** A player's games of a series in deal order. */
  gamesOf(seriesId: number, playerId: number): Pending<GameRow[]>;
  /** The series a player has been dealt in with their tallies, the last one played first. */
  ofPlayer(playerId: number): Pending<(SeriesTally & { code: string; variant: SeriesRow['variant'] })[]>;
}

/** A game with what its summary shows of its player and race. */
export interface SummaryRow {
  readonly game: GameRow;
  readonly name: string;
  readonly raceCode: string | null;
  readonly raceState: RaceRow['state'] | null;
  readonly raceRank: number | null;
  readonly seriesCode: string | null;
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

/** A game's stored analysis (a pending one has no row). */
export interface AnalysisRow {
  readonly gameId: number;
  readonly status: (typeof STORED_ANALYSIS_STATES)[number];
  /** The solver's findings when done. */
  readonly analysis: GameAnalysis | null;
  /** Why it is unavailable. */
  readonly reason: string | null;
  readonly createdAt: number;
}

/** What the analyses of a day's attempts add up to (analyses.ts). */
export interface DayFigures {
  /** Attempts with a stored par. */
  readonly analysed: number;
  /** Of those, the attempts with at least par's cards home. */
  readonly reachedPar: number;
  /** The first deal's maximum (the same layout for every attempt of the day), once one attempt is analysed. */
  readonly firstDeal: { readonly max: number; readonly exact: boolean } | null;
}

export interface AnalysisStore {
  byGame(gameId: number): Pending<AnalysisRow | undefined>;
  /** Stores a game's analysis; one stored already (by another instance) stays. */
  store(row: AnalysisRow): Pending<void>;
  /** Ended games whose seed is public (races finished, dailies of days before `today`) with no analysis, newest first. */
  missing(today: string, limit: number): Pending<number[]>;
  /** A day's ended attempts with no analysis, the ranked ones first in rank order. */
  missingOfDay(day: string, limit: number): Pending<number[]>;
  dayFigures(day: string): Pending<DayFigures>;
}


/** A player's entry in the quick-race pool. */
export interface PoolEntryRow {
  readonly playerId: number;
  readonly variant: VariantId;
  /** Their rating in the variant when they joined; null: none yet (pairs with anyone). */
  readonly rating: number | null;
  readonly joinedAt: number;
  /** The race the pool seated them in, once paired. */
  readonly raceId: number | null;
}

export interface PoolStore {
  /** Puts a player in the pool, waiting: one entry per player, so a second join (another tab, another instance) replaces the first. */
  join(entry: Omit<PoolEntryRow, 'raceId'>): Pending<void>;
  entry(playerId: number): Pending<PoolEntryRow | undefined>;
  /** The entries still waiting (not paired), of one variant or of every one, longest wait first. */
  waiting(variant?: VariantId): Pending<PoolEntryRow[]>;
  /** Takes a waiting player out (a paired entry stays); whether they were waiting. */
  leave(playerId: number): Pending<boolean>;
  /** Takes a player's entry out whatever it holds; whether there was one. */
  remove(playerId: number): Pending<boolean>;
  /**
   * In one transaction: stores the race, marks the players' entries paired with it and seats them
   * in the order given, only if every one of them is still waiting (another instance may have
   * paired one, or they left). The race's id, or undefined when nothing was stored.
   */
  form(race: NewRace, playerIds: readonly number[], at: number): Pending<number | undefined>;
}

/** A listed race and its racers, as the public lobby shows it. */
export interface ListedRaceRow {
  readonly id: number;
  readonly code: string;
  readonly variant: VariantId;
  readonly seats: number;
  readonly timeLimitSeconds: number | null;
  readonly rated: boolean;
  readonly state: RaceState;
  readonly createdAt: number;
  readonly startsAt: number | null;
  readonly creatorId: number;
  /** In seat order. */
  readonly racers: readonly PlayerView[];
}

export interface LobbyStore {
  /** Listed lobbies, countdowns and running races, newest first, with their racers. */
  listed(limit: number): Pending<ListedRaceRow[]>;
  /**
   * How many wait in the pool per variant and when the longest waiting joined, by variant name (a
   * variant nobody waits for is left out): one query, for the lobby's counts and the pool's metrics.
   */
  waitingByVariant(): Pending<{ variant: VariantId; count: number; oldestJoinedAt: number }[]>;
}

/** Everything the service stores, on one database. */
export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  readonly games: GameStore;
  readonly players: PlayerStore;
  readonly identities: IdentityStore;
  readonly races: RaceStore;
  readonly deadlines: DeadlineStore;
  readonly series: SeriesStore;
  readonly replays: ReplayStore;
  readonly daily: DailyStore;
  readonly analyses: AnalysisStore;
  readonly ratings: RatingStore;
  readonly ghosts: GhostStore;
  readonly moderation: ModerationStore;
  readonly fairPlay: FairPlayStore;
  readonly pool: PoolStore;
  readonly lobby: LobbyStore;
  /** The storage's reason when `error` is a failure to store (remembered for readiness), else undefined. */
  failure(error: unknown): string | undefined;
  /** Whether the database answers and takes writes now. */
  ready(): Promise<{ database: 'ok' | 'unavailable' | 'unreachable'; code?: string }>;
  close(): Promise<void>;
}
