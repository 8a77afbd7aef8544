/**
 * The services' seams. Storage: where games and their move logs are kept (SQLite by default:
 * server/db/game-store.ts). Transport: who hears about a change (the socket hub: server/hub.ts;
 * across instances, a message bus). Scheduler: when stored deadlines act, and where. The
 * services own the game logic and the order of a game's moves; adapters only store, deliver
 * and keep time.
 */
import type { EndState, GameKind, GameState, ServerMessage } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';

/**
 * A value now (a synchronous adapter such as SQLite) or later (a networked one). The service
 * continues at once on a plain value, so the synchronous path never waits for a microtask.
 */
export type Pending<T> = T | Promise<T>;

/** `next(value)` now for a plain value, after it for a promise: the synchronous path stays synchronous. */
export function after<T, U>(value: Pending<T>, next: (value: T) => Pending<U>): Pending<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `work()`, with `recover` taking over whether it throws now or rejects later. */
export function recovering<T>(work: () => Pending<T>, recover: (error: unknown) => Pending<T>): Pending<T> {
  let value: Pending<T>;
  try {
    value = work();
  } catch (error) {
    return recover(error);
  }
  return value instanceof Promise ? value.catch(recover) : value;
}

/** A game as stored, before its move log is read. */
export interface StoredGame {
  readonly id: number;
  readonly kind: GameKind;
  readonly playerId: number;
  readonly raceId: number | null;
  readonly variant: VariantId;
  /** Secret: only the server deals from it. */
  readonly seed: string;
  readonly status: GameState;
  readonly startedAt: number;
  /** When the game stops by itself (a race's time limit, the end of a daily attempt's day), or null. */
  readonly deadline: number | null;
  readonly finishedAt: number | null;
  /** A ghost race's: the game it races against, and the attempt whose redeal stream it redeals from (live-game.ts redealSeedOf). */
  readonly ghostOf: number | null;
  readonly redealFrom: number | null;
}

/** What a new game is stored with: its first deal and its counts. */
export interface NewGameRow {
  readonly kind: GameKind;
  readonly playerId: number;
  readonly raceId: number | null;
  readonly day: string | null;
  readonly seriesId: number | null;
  readonly seriesDeal: number | null;
  readonly variant: VariantId;
  readonly seed: string;
  readonly startedAt: number;
  readonly deadline: number | null;
  /** A ghost race's: the game it races against, and the attempt whose redeal stream it redeals from. */
  readonly ghostOf: number | null;
  readonly redealFrom: number | null;
  readonly foundations: number;
  /** makeLayout strings of deal 0. */
  readonly layout: string[];
}

/** The race whose start deals the games: stored as running (with its hard cap) in the games' transaction. */
export interface RaceStart {
  readonly raceId: number;
  readonly capAt: number | null;
}

/**
 * One move as stored: the log row with the cards home after it, the deal of a redeal, and, when
 * the move ends the game, its result and counts (while it plays they are read from the log).
 */
export interface MoveWrite {
  readonly gameId: number;
  readonly index: number;
  readonly action: string;
  readonly at: number;
  /** Set on a redeal: the layout dealt, stored as deal `k`. */
  readonly deal?: { readonly k: number; readonly layout: string[] };
  readonly counts: GameCounts;
  /** Set when the move ends the game. */
  readonly result?: { readonly status: 'won' | 'out-of-moves'; readonly finishedAt: number; readonly rankKey: number };
}

/**
 * What `appendMove` rejects with when another instance stored an action at that index first: the
 * game in this process's memory is behind the stored log.
 */
export class IndexTaken extends Error {
  constructor(
    readonly gameId: number,
    readonly index: number,
    /** The action stored at `index`. */
    readonly stored: string,
  ) {
    super(`action ${index} of game ${gameId} was stored elsewhere first ("${stored}")`);
    this.name = 'IndexTaken';
  }
}

/** A game ended without a move (resigned, timed out); stored only if it is still playing. */
export interface GameEnd {
  readonly gameId: number;
  readonly status: EndState;
  readonly finishedAt: number;
  readonly rankKey: number;
  /** As they stand at the end: stored with the result. */
  readonly counts: GameCounts;
}

/** What a game has done so far: cards home, redeals used, actions played. */
export interface GameCounts {
  readonly foundations: number;
  readonly redealsUsed: number;
  readonly moves: number;
}

/** A game's move log: every dealt layout (makeLayout strings, k = 0 first) and the actions in order. */
export interface MoveLog {
  deals: string[][];
  actions: string[];
}

/**
 * Where the game service keeps games. Every call may answer later: the service never has two
 * writes of one game in flight, applies a move to memory only once its write has resolved, and
 * acknowledges it only then; a rejected write changes nothing and is reported to the player. A
 * game being loaded is one turn of that game too, so its moves wait for the load.
 */
export interface GameStore {
  /** Stores new games and their first deals in one transaction, with the race they start marked running; their ids in order. */
  createGames(rows: readonly NewGameRow[], starts?: RaceStart): Pending<number[]>;
  loadGame(id: number): Pending<StoredGame | undefined>;
  loadMoveLog(id: number): Pending<MoveLog>;
  /** Ids of every game still playing (loaded at start). */
  playingGameIds(): Pending<number[]>;
  /** The move path: durable once it resolves. */
  appendMove(move: MoveWrite): Pending<void>;
  /** Whether it ended the game here: false when it had ended already (on another instance, say). */
  endGame(end: GameEnd): Pending<boolean>;
  /** The storage's own reason (`SQLITE_FULL`, a lost connection) when `error` is a failure to store that a retry may cure; undefined for a fault. */
  storageFailure(error: unknown): string | undefined;
  /** Whether `error` is a create refused by a unique key: the player's attempt at that day is stored already. */
  isDuplicate(error: unknown): boolean;
}

/** Who hears about games and races: a player's sockets (every tab) and a race's watchers. */
export interface Transport {
  toPlayer(playerId: number, message: ServerMessage): void;
  /** As toPlayer, written at once rather than with the rest of this turn's frames: for acks, which a player waits on. */
  toPlayerNow(playerId: number, message: ServerMessage): void;
  toRace(code: string, message: ServerMessage): void;
  isConnected(playerId: number): boolean;
  /** `listener` is told when a player's first socket opens or last socket closes. */
  onPresence(listener: (playerId: number, connected: boolean) => void): void;
  /** Closes a signed-out device's sockets, on every instance. */
  closeDevice(playerId: number, deviceId: number): void;
}

/**
 * The seam between the services and time. Every deadline the server acts on is stored (a race's
 * countdown, a lobby's limit, a racer's grace period, a game's time limit, the end of a day), so
 * a timer is only a way to act on it in time. A service names each kind of deadline it keeps,
 * says where they are stored and what to do when one is due; the scheduler arms them and decides
 * where they run: alone, here; beside other instances, on the one holding the timer lease, which
 * arms them all from the store when it takes over (scale/scheduler.ts, plugins/scheduler.ts). A
 * handler acts by a conditional write of the stored state, so a deadline fired twice (two owners
 * overlapping for a moment) changes things once.
 */
/** One deadline: a subject of its kind (a race id, `raceId:playerId`, a game id, a day) and when it is due. */
export interface StoredDeadline {
  readonly key: string;
  readonly at: number;
}

export interface DeadlineHandler {
  /**
   * The deadline `key` is due (planned for `at`): read the subject afresh and act if it still
   * applies. While this runs the deadline stays armed (a rescan leaves it alone); a failure the
   * storage may cure is tried again a moment later.
   */
  due(key: string, at: number): Pending<void>;
  /** Every deadline of this kind stored now, read on taking the timers over and at each rescan. */
  stored(): Pending<readonly StoredDeadline[]>;
}

export interface Scheduler {
  /** The handler of one kind of deadline. */
  handle(kind: string, handler: DeadlineHandler): void;
  /** Runs on taking the timers over (alone: at start), before the stored deadlines are armed. */
  onTakeover(work: () => Pending<void>): void;
  /** A deadline this instance just stored: armed wherever the timers run. */
  stored(kind: string, key: string, at: number): void;
  /** A deadline read here (a game loaded): armed if this instance runs the timers. */
  arm(kind: string, key: string, at: number): void;
  cancel(kind: string, key: string): void;
  /** Whether this instance runs the timers now (acts on a presence change, say). */
  readonly runsTimers: boolean;
}
