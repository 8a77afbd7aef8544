/**
 * The one place where a game changes. An action is checked with the engine, appended to the
 * game's move log in a SQLite transaction (with the new deal after a redeal), and only then
 * acknowledged to the player and announced to the listeners (races broadcast it as progress).
 * Live positions are kept in memory and rebuilt from the move log when a game is loaded, so a
 * restart, even a crash, loses no acknowledged action. Race seats and daily attempts both play
 * through here; only how a game is created and who listens differ.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  attemptSeed,
  makeAction,
  makeLayout,
  parseAction,
  parseLayout,
  redealLayout,
  replayRecord,
  dealLayout,
  type Layout,
  type Position,
  type VariantId,
} from '../shared/index.js';
import type { AckBody, EndState, GameKind, GameSnapshot, GameState, GameStatus, PlayerView, ServerMessageOf } from '../contract/index.js';
import type { Clock } from './clock.js';
import { noteStorageFailure, STORAGE_RETRY_MS, transaction, type Db, type Transaction } from './db/index.js';
import { gameActions, gameDeals, games } from './db/schema.js';
import type { Refusal } from './errors.js';
import type { Hub } from './hub.js';
import { rankKey } from './standings.js';

export interface LiveGame {
  readonly id: number;
  readonly kind: GameKind;
  readonly playerId: number;
  readonly raceId: number | null;
  readonly variant: VariantId;
  /** Secret: only the server deals from it. */
  readonly seed: string;
  readonly startedAt: number;
  /** When the game stops by itself (a race's time limit, the end of a daily attempt's day), or null. */
  readonly deadline: number | null;
  /** Layouts dealt so far, as makeLayout strings: deals[k] after the k-th redeal. */
  readonly deals: string[][];
  /** The move log, canonical record notation. */
  readonly actions: string[];
  position: Position;
  state: GameState;
  finishedAt: number | null;
}

export interface NewGame {
  readonly kind: GameKind;
  readonly playerId: number;
  readonly raceId?: number;
  readonly day?: string;
  readonly variant: VariantId;
  readonly seed: string;
  readonly startedAt: number;
  readonly deadline?: number | null;
}

export interface ActionRequest {
  readonly gameId: number;
  readonly index: number;
  readonly action: string;
}

/** Called after every stored change of a game (an action, a resignation, a time-out). */
export type GameListener = (game: LiveGame) => void;

export const gameStatusOf = (game: LiveGame): GameStatus => ({
  state: game.state,
  foundations: game.position.foundationCount(),
  redealsUsed: game.position.redealsUsed,
  nextIndex: game.actions.length,
  finishedAt: game.finishedAt,
});

/** How long (wall time, as the busy timeout) moves are refused untried after one met a lock held elsewhere. */
const LOCKED_BACKOFF_MS = 250;

export class GameService {
  /** Set at shutdown: no more changes are taken. */
  closing = false;
  private readonly live = new Map<number, LiveGame>();
  private readonly timers = new Map<number, () => void>();
  private readonly listeners: GameListener[] = [];
  /** Until when moves are refused without trying, after one met a locked database. */
  private lockedUntil = 0;
  /** The move's writes, prepared once: building SQL per move would cost more than writing it. */
  private readonly store;
  private readonly transaction: Transaction;

  constructor(
    private readonly db: Db,
    private readonly hub: Hub,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transaction = transaction(db);
    const id = sql.placeholder('gameId');
    const value = (name: string) => sql`${sql.placeholder(name)}`;
    this.store = {
      action: db
        .insert(gameActions)
        .values({ gameId: id, index: sql.placeholder('index'), action: sql.placeholder('action'), at: sql.placeholder('at') })
        .prepare(),
      deal: db.insert(gameDeals).values({ gameId: id, k: sql.placeholder('k'), layout: sql.placeholder('layout') }).prepare(),
      // A move that leaves the game playing changes only its counts: writing the unchanged status
      // again would rewrite the `games_playing` index too, one more page in every commit.
      progress: db
        .update(games)
        .set({ foundations: value('foundations'), redealsUsed: value('redealsUsed'), moves: value('moves') })
        .where(eq(games.id, id))
        .prepare(),
      result: db
        .update(games)
        .set({
          foundations: value('foundations'),
          redealsUsed: value('redealsUsed'),
          moves: value('moves'),
          status: value('status'),
          finishedAt: value('finishedAt'),
          rankKey: value('rankKey'),
        })
        .where(eq(games.id, id))
        .prepare(),
    };
  }

  onChange(listener: GameListener): void {
    this.listeners.push(listener);
  }

  /**
   * Deals and stores new games in one transaction, together with `alongside` (a race start
   * creates every seat's game and marks the race running as one change).
   */
  create(specs: readonly NewGame[], alongside?: () => void): LiveGame[] {
    const created = this.transaction(() => {
      const rows = specs.map((spec) => {
        const layout = makeLayout(dealLayout(spec.seed, spec.variant));
        const position = this.rebuild(spec.variant, [layout], []);
        const { id } = this.db
          .insert(games)
          .values({
            kind: spec.kind,
            playerId: spec.playerId,
            raceId: spec.raceId ?? null,
            day: spec.day ?? null,
            variant: spec.variant,
            seed: spec.seed,
            status: 'playing',
            foundations: position.foundationCount(),
            startedAt: spec.startedAt,
            deadline: spec.deadline ?? null,
          })
          .returning({ id: games.id })
          .get();
        this.db.insert(gameDeals).values({ gameId: id, k: 0, layout }).run();
        return { spec, id, layout, position };
      });
      alongside?.();
      return rows;
    });
    return created.map(({ spec, id, layout, position }) =>
      this.track({
        id,
        kind: spec.kind,
        playerId: spec.playerId,
        raceId: spec.raceId ?? null,
        variant: spec.variant,
        seed: spec.seed,
        startedAt: spec.startedAt,
        deadline: spec.deadline ?? null,
        deals: [layout],
        actions: [],
        position,
        state: 'playing',
        finishedAt: null,
      }),
    );
  }

  /** Loads every unfinished game (at startup), re-arming deadlines; a past deadline ends its game now. */
  loadPlaying(): void {
    const rows = this.db.select({ id: games.id }).from(games).where(eq(games.status, 'playing')).all();
    for (const { id } of rows) {
      try {
        this.get(id);
      } catch (error) {
        this.log.error({ err: error, gameId: id }, 'cannot rebuild game from its move log');
      }
    }
  }

  /** A game, from memory or rebuilt from its move log; undefined when there is none. */
  get(id: number): LiveGame | undefined {
    const cached = this.live.get(id);
    if (cached) return cached;
    const row = this.db.select().from(games).where(eq(games.id, id)).get();
    if (!row) return undefined;
    const { deals, actions } = loadMoveLog(this.db, id);
    const game: LiveGame = {
      id,
      kind: row.kind,
      playerId: row.playerId,
      raceId: row.raceId,
      variant: row.variant,
      seed: row.seed,
      startedAt: row.startedAt,
      deadline: row.deadline,
      deals,
      actions,
      position: this.rebuild(row.variant, deals, actions),
      state: row.status,
      finishedAt: row.finishedAt,
    };
    // Finished games are rebuilt on demand (a late resend, a resync) and not kept.
    return game.state === 'playing' ? this.track(game) : game;
  }

  /** The live games of a player (to tell their opponents when they disconnect). */
  playingGamesOf(playerId: number): LiveGame[] {
    return [...this.live.values()].filter((game) => game.playerId === playerId);
  }

  snapshot(game: LiveGame, raceCode: string | null): GameSnapshot {
    return {
      type: 'game',
      gameId: game.id,
      raceCode,
      variant: game.variant,
      deals: game.deals,
      actions: game.actions,
      startedAt: game.startedAt,
      status: gameStatusOf(game),
    };
  }

  /**
   * Plays action `index` of a game for `player`. A new action is stored, acknowledged to all of
   * the player's sockets and announced; an action already applied at that index is only
   * acknowledged again. Anything else is refused and changes nothing.
   */
  play(player: PlayerView, request: ActionRequest): Refusal | undefined {
    const found = this.ownGame(player, request.gameId);
    if ('code' in found) return found;
    const game = found;
    const nextIndex = game.actions.length;
    const parsed = parseAction(request.action);
    if (request.index < nextIndex) {
      const stored = game.actions[request.index]!;
      if (parsed.ok && makeAction(parsed.value) === stored) {
        this.hub.toPlayer(game.playerId, { type: 'ack', ...this.ackOf(game, request.index) });
        return undefined;
      }
      return {
        code: 'index-conflict',
        field: 'index',
        nextIndex,
        message: `action ${request.index} of this game is already "${stored}"; the next action is number ${nextIndex}`,
      };
    }
    const over = this.overRefusal(game);
    if (over) return over;
    if (request.index > nextIndex) {
      return {
        code: 'index-ahead',
        field: 'index',
        nextIndex,
        message: `action ${request.index} is ahead of this game: the next action is number ${nextIndex} (resync first)`,
      };
    }
    if (!parsed.ok) return { code: 'illegal-action', field: 'action', nextIndex, message: parsed.error };
    const action = parsed.value;
    let nextLayout: Layout | undefined;
    if (action.type === 'redeal' && game.position.problem(action) === undefined) {
      nextLayout = redealLayout(redealSeedOf(game), game.position.redealsUsed + 1, game.position.gatheredCards());
    }
    const problem = game.position.problem(action, nextLayout);
    if (problem !== undefined) {
      return { code: 'illegal-action', field: 'action', nextIndex, message: `"${request.action}": ${problem}` };
    }

    const position = game.position.clone();
    position.play(action, nextLayout);
    const status = position.status();
    const state: GameState = status.won ? 'won' : status.over ? 'out-of-moves' : 'playing';
    const at = this.clock.now();
    const text = makeAction(action);
    const layout = nextLayout && makeLayout(nextLayout);
    // Each try at a locked database blocks the event loop for the busy timeout: right after one
    // failed, refuse at once for a moment rather than make every player's move wait its turn.
    if (Date.now() < this.lockedUntil) {
      return { code: 'storage-unavailable', nextIndex, message: 'the database is locked: nothing changed, send the move again in a moment' };
    }
    try {
      this.transaction(() => {
      this.store.action.run({ gameId: game.id, index: nextIndex, action: text, at });
      if (layout) this.store.deal.run({ gameId: game.id, k: position.redealsUsed, layout });
      const counts = { gameId: game.id, foundations: status.foundations, redealsUsed: status.redealsUsed, moves: nextIndex + 1 };
        if (state === 'playing') this.store.progress.run(counts);
        else this.store.result.run({ ...counts, status: state, finishedAt: at, rankKey: rankKey(status.foundations, at - game.startedAt) });
      });
    } catch (error) {
      // Rolled back, and nothing in memory has changed yet: the player may simply send it again.
      const code = noteStorageFailure(this.db, error);
      if (code === undefined) throw error;
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) this.lockedUntil = Date.now() + LOCKED_BACKOFF_MS;
      this.log.warn({ err: error, code, gameId: game.id, index: nextIndex }, 'cannot store an action');
      return { code: 'storage-unavailable', nextIndex, message: `the move could not be stored (${code}): nothing changed, send it again in a moment` };
    }
    // Stored: now the move counts.
    game.position = position;
    game.actions.push(text);
    if (layout) game.deals.push(layout);
    this.hub.toPlayerNow(game.playerId, { type: 'ack', gameId: game.id, index: nextIndex, action: text, ...(layout && { layout }) });
    if (state === 'playing') this.announce(game);
    else this.finish(game, state, at);
    return undefined;
  }

  /** Gives up a game. */
  resign(player: PlayerView, gameId: number): Refusal | undefined {
    const found = this.ownGame(player, gameId);
    if ('code' in found) return found;
    const over = this.overRefusal(found);
    if (over) return over;
    this.end(found, 'resigned', this.clock.now());
    return undefined;
  }

  /** Finishes a game whose player left it (lifecycle.ts): ranked as a resignation at `at`, when they left, with the cards home then. */
  abandon(game: LiveGame, at: number): void {
    if (this.closing || game.state !== 'playing') return;
    this.end(game, 'abandoned', at);
  }

  /**
   * What a reconnecting client missed: the acks after `lastIndex`, or the whole game when the
   * client claims more than the server has.
   */
  resync(
    player: PlayerView,
    gameId: number,
    lastIndex: number,
    raceCode: (game: LiveGame) => string | null,
  ): ServerMessageOf<'resynced'> | GameSnapshot | Refusal {
    const game = this.ownGame(player, gameId);
    if ('code' in game) return game;
    if (lastIndex >= game.actions.length) return this.snapshot(game, raceCode(game));
    const acks: AckBody[] = [];
    for (let index = lastIndex + 1; index < game.actions.length; index++) acks.push(this.ackOf(game, index));
    return { type: 'resynced', gameId, acks, status: gameStatusOf(game) };
  }

  /** Stops timers; the database is closed by its plugin. */
  close(): void {
    this.closing = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  private ownGame(player: PlayerView, gameId: number): LiveGame | Refusal {
    if (this.closing) return { code: 'server-closing', message: 'the server is shutting down: reconnect in a moment' };
    const game = this.get(gameId);
    if (!game) return { code: 'unknown-game', field: 'gameId', message: `there is no game ${gameId}` };
    if (game.playerId !== player.id) return { code: 'not-your-game', field: 'gameId', message: `game ${gameId} belongs to another player` };
    return game;
  }

  /**
   * Ends a game whose deadline has passed before its timer fired (a busy or just restarted
   * server), so nothing reads or plays it as still running.
   */
  expireIfDue(game: LiveGame): void {
    if (game.state === 'playing' && game.deadline !== null && this.clock.now() >= game.deadline) {
      this.end(game, 'timed-out', game.deadline);
    }
  }

  /** Refuses changes to a finished game, first ending it if its deadline has passed unseen. */
  private overRefusal(game: LiveGame): Refusal | undefined {
    this.expireIfDue(game);
    if (game.state === 'playing') return undefined;
    return {
      code: 'game-over',
      field: 'gameId',
      nextIndex: game.actions.length,
      message: `game ${game.id} is over (${game.state}): no more actions`,
    };
  }

  /** The ack of a stored action, identical every time it is asked for. */
  private ackOf(game: LiveGame, index: number): AckBody {
    const action = game.actions[index]!;
    if (action !== 'R') return { gameId: game.id, index, action };
    const k = game.actions.slice(0, index + 1).filter((text) => text === 'R').length;
    return { gameId: game.id, index, action, layout: game.deals[k]! };
  }

  /** Ends a playing game without an action (resignation, time limit). */
  private end(game: LiveGame, state: EndState, at: number): void {
    this.db
      .update(games)
      .set({ status: state, finishedAt: at, rankKey: rankKey(game.position.foundationCount(), at - game.startedAt) })
      .where(and(eq(games.id, game.id), eq(games.status, 'playing')))
      .run();
    this.finish(game, state, at);
  }

  private finish(game: LiveGame, state: EndState, at: number): void {
    game.state = state;
    game.finishedAt = at;
    this.live.delete(game.id);
    this.timers.get(game.id)?.();
    this.timers.delete(game.id);
    this.hub.toPlayer(game.playerId, { type: 'game-over', gameId: game.id, status: gameStatusOf(game) });
    this.announce(game);
  }

  private announce(game: LiveGame): void {
    for (const listener of this.listeners) {
      try {
        listener(game);
      } catch (error) {
        this.log.error({ err: error, gameId: game.id }, 'game listener failed');
      }
    }
  }

  private track(game: LiveGame): LiveGame {
    this.live.set(game.id, game);
    if (game.deadline !== null) this.armDeadline(game, game.deadline - this.clock.now());
    return game;
  }

  /** The time limit's timer; when its write fails for the storage, it is tried again until it is stored. */
  private armDeadline(game: LiveGame, ms: number): void {
    const deadline = game.deadline!;
    this.timers.set(
      game.id,
      this.clock.setTimer(ms, () => {
        this.timers.delete(game.id);
        if (this.closing || game.state !== 'playing') return;
        try {
          this.end(game, 'timed-out', deadline);
        } catch (error) {
          const code = noteStorageFailure(this.db, error);
          this.log.error({ err: error, code, gameId: game.id }, code ? 'cannot store a time-out: retrying' : 'ending a timed-out game failed');
          if (code !== undefined) this.armDeadline(game, STORAGE_RETRY_MS);
        }
      }),
    );
  }

  private rebuild(variant: VariantId, deals: readonly string[][], actions: readonly string[]): Position {
    const replay = replayRecord({ variant, deals: deals.map(storedLayout), actions });
    if (!replay.ok) throw new Error(`stored move log does not replay: ${JSON.stringify(replay.error)}`);
    return replay.value;
  }
}

/**
 * The seed a game's redeals come from. A daily attempt redeals from its own stream (the day's
 * seed and its game id): another identity copying its moves gets other layouts, so nobody can
 * preview, or choose among, the redeals of the day. Race seats share the race seed on purpose:
 * fair redeals, the same cards give every racer the same layout.
 */
export const redealSeedOf = (game: Pick<LiveGame, 'kind' | 'id' | 'seed'>): string =>
  game.kind === 'daily' ? attemptSeed(game.seed, game.id) : game.seed;

/** A stored layout (deals[k] of a game), read back; the server wrote it, so a failure is a fault. */
export function storedLayout(deal: readonly string[], k: number): Layout {
  const layout = parseLayout(deal);
  if (!layout.ok) throw new Error(`stored deal ${k} is unreadable: ${layout.error}`);
  return layout.value;
}

/** A game's stored move log: every dealt layout (makeLayout strings, k = 0 first) and the actions in order. */
export function loadMoveLog(db: Db, gameId: number): { deals: string[][]; actions: string[] } {
  const deals = db
    .select({ layout: gameDeals.layout })
    .from(gameDeals)
    .where(eq(gameDeals.gameId, gameId))
    .orderBy(asc(gameDeals.k))
    .all()
    .map((deal) => deal.layout);
  const actions = db
    .select({ action: gameActions.action })
    .from(gameActions)
    .where(eq(gameActions.gameId, gameId))
    .orderBy(asc(gameActions.index))
    .all()
    .map((row) => row.action);
  return { deals, actions };
}
