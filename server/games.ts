/**
 * The one place where a game changes. An action is checked with the engine, appended to the
 * game's move log through the storage port (with the new deal after a redeal), and only then
 * acknowledged to the player and announced to the listeners (races broadcast it as progress).
 * Live positions are kept in memory and rebuilt from the move log when a game is loaded, so a
 * restart, even a crash, loses no acknowledged action. Race seats and daily attempts both play
 * through here; only how a game is created and who listens differ.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  attemptSeed,
  makeAction,
  makeLayout,
  parseAction,
  parseLayout,
  problemText,
  redealLayout,
  replayRecord,
  dealLayout,
  type Layout,
  type Position,
  type VariantId,
} from '../shared/index.js';
import type { AckBody, EndState, GameKind, GameSnapshot, GameState, GameStatus, PlayerView, ServerMessageOf } from '../contract/index.js';
import type { Clock } from './clock.js';
import { STORAGE_RETRY_MS } from './db/index.js';
import { Refusal } from './errors.js';
import { soleOwner, type TimerOwner } from './ownership.js';
import { after, IndexTaken, type GameStore, type MoveWrite, type Pending, type RaceStart, type StoredGame, type Transport } from './ports.js';
import { rankKey } from './standings.js';

/** A game in memory: its stored identity, plus what its move log rebuilds. */
export interface LiveGame extends Pick<StoredGame, 'id' | 'kind' | 'playerId' | 'raceId' | 'variant' | 'seed' | 'startedAt' | 'deadline'> {
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
  readonly series?: { readonly id: number; readonly deal: number };
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

const ignore = (): void => {};

/** How long (wall time, as the busy timeout) moves are refused untried after one met a lock held elsewhere. */
const LOCKED_BACKOFF_MS = 250;

export class GameService {
  /** Set at shutdown: no more changes are taken. */
  closing = false;
  private readonly playing = new Map<number, LiveGame>();
  private readonly timers = new Map<number, () => void>();
  private readonly listeners: GameListener[] = [];
  /** Games with a load or a write in flight, and the work waiting for it: never two writes of one game at once. */
  private readonly writing = new Map<number, Promise<void>>();
  /** Games being read from an asynchronous store: every caller gets the same one. */
  private readonly loading = new Map<number, Promise<LiveGame | undefined>>();
  /** Games whose end (a resignation, a time-out) is being stored by an asynchronous store, and how they end. */
  private readonly ending = new Map<number, EndState>();
  /** Until when moves are refused without trying, after one met a locked database. */
  private lockedUntil = 0;
  /** Other instances share the store: a game in memory may be behind its stored log (they played it since). */
  readonly shared: boolean;

  constructor(
    private readonly store: GameStore,
    private readonly transport: Transport,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    { shared = false }: { shared?: boolean } = {},
    /** Deadlines are timers of the timer owner (ownership.ts). */
    private readonly owner: TimerOwner = soleOwner(clock),
  ) {
    this.shared = shared;
  }

  onChange(listener: GameListener): void {
    this.listeners.push(listener);
  }

  /**
   * Deals and stores new games in one transaction, together with the race they start (a race
   * start creates every seat's game and marks the race running as one change).
   */
  create(specs: readonly NewGame[], starts?: RaceStart): Pending<LiveGame[]> {
    const dealt = specs.map((spec) => {
      const layout = makeLayout(dealLayout(spec.seed, spec.variant));
      return { spec, layout, position: this.rebuild(spec.variant, [layout], []) };
    });
    const ids = this.store.createGames(
      dealt.map(({ spec, layout, position }) => ({
        kind: spec.kind,
        playerId: spec.playerId,
        raceId: spec.raceId ?? null,
        day: spec.day ?? null,
        seriesId: spec.series?.id ?? null,
        seriesDeal: spec.series?.deal ?? null,
        variant: spec.variant,
        seed: spec.seed,
        startedAt: spec.startedAt,
        deadline: spec.deadline ?? null,
        foundations: position.foundationCount(),
        layout,
      })),
      starts,
    );
    return after(ids, (ids) => {
      // A deadline stored here is the owner's to act on.
      dealt.forEach(({ spec }, i) => {
        if (spec.deadline != null) this.owner.changed({ gameId: ids[i]! });
      });
      return dealt.map(({ spec, layout, position }, i) =>
      this.track({
        id: ids[i]!,
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
    });
  }

  /** On becoming the timer owner: the deadlines of the games in memory armed again, every other playing game loaded (and its deadline armed). */
  resume(): Pending<void> {
    for (const game of this.playing.values()) {
      if (game.deadline !== null) this.armDeadline(game, game.deadline - this.clock.now());
    }
    return this.loadPlaying();
  }

  /** On the timer owner, for a game stored elsewhere: its deadline armed from the stored game. */
  rearm(gameId: number): Pending<void> {
    return after(this.get(gameId), (game) => {
      if (game?.state === 'playing' && game.deadline !== null) this.armDeadline(game, game.deadline - this.clock.now());
    });
  }

  /**
   * On the timer owner, each rescan round: a stored deadline with no timer here (its notice was
   * lost) is armed, without loading the game until it fires. A game with work in flight is left
   * alone: its deadline may be firing now, and a game loaded is armed as it is tracked.
   */
  rescan(deadlines: readonly { id: number; deadline: number }[]): void {
    for (const game of deadlines) {
      if (!this.timers.has(game.id) && !this.writing.has(game.id)) this.armDeadline(game, game.deadline - this.clock.now());
    }
  }

  /** Loads every unfinished game (at startup), re-arming deadlines; a past deadline ends its game now. */
  loadPlaying(): Pending<void> {
    return after(this.store.playingGameIds(), (ids) => {
      const failed = (id: number) => (error: unknown) => this.log.error({ err: error, gameId: id }, 'cannot rebuild game from its move log');
      const loads: Promise<unknown>[] = [];
      for (const id of ids) {
        try {
          const game = this.get(id);
          if (game instanceof Promise) loads.push(game.catch(failed(id)));
        } catch (error) {
          failed(id)(error);
        }
      }
      return loads.length === 0 ? undefined : Promise.all(loads).then(ignore);
    });
  }

  /** A game, from memory or rebuilt from its move log; undefined when there is none. */
  get(id: number): Pending<LiveGame | undefined> {
    const cached = this.playing.get(id) ?? this.loading.get(id);
    if (cached) return cached;
    const loaded = after(this.store.loadGame(id), (row) => row && after(this.store.loadMoveLog(id), (log) => this.rebuilt(row, log)));
    if (!(loaded instanceof Promise)) return loaded;
    this.loading.set(id, loaded);
    const done = () => void this.loading.delete(id);
    loaded.then(done, done);
    return loaded;
  }

  private rebuilt(row: StoredGame, { deals, actions }: { deals: string[][]; actions: string[] }): LiveGame {
    const id = row.id;
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

  /** A game as stored now: with a shared store it is read again, in the game's turn, rather than trusted from memory. */
  current(id: number): Pending<LiveGame | undefined> {
    if (!this.shared) return this.get(id);
    return this.inTurn(id, () => {
      const cached = this.playing.get(id);
      if (cached) this.evict(cached);
      return this.get(id);
    });
  }

  /** The store's reason when `error` is a failure to store that a retry may cure (see GameStore.storageFailure). */
  storageFailure(error: unknown): string | undefined {
    return this.store.storageFailure(error);
  }

  /** Whether `error` is a create refused because the game exists already (a player's daily attempt). */
  isDuplicate(error: unknown): boolean {
    return this.store.isDuplicate(error);
  }

  /** A game being played, if this process holds it in memory (every playing game, once loaded at start). */
  live(id: number): LiveGame | undefined {
    return this.playing.get(id);
  }

  /** The live games of a player (to tell their opponents when they disconnect). */
  playingGamesOf(playerId: number): LiveGame[] {
    return [...this.playing.values()].filter((game) => game.playerId === playerId);
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
   * acknowledged again. Anything else is refused and changes nothing. Behind a write of the
   * same game still in flight (an asynchronous store), it waits its turn.
   */
  play(player: PlayerView, request: ActionRequest): Pending<Refusal | undefined> {
    return this.inTurn(request.gameId, () => this.playNow(player, request));
  }

  private playNow(player: PlayerView, request: ActionRequest): Pending<Refusal | undefined> {
    return after(this.ownGame(player, request.gameId), (found) => (found instanceof Refusal ? found : this.playOn(found, request)));
  }

  /** `fresh`: the game was just read from the store, so an index ahead of it is really ahead. */
  private playOn(game: LiveGame, request: ActionRequest, fresh = !this.shared): Pending<Refusal | undefined> {
    const nextIndex = game.actions.length;
    const parsed = parseAction(request.action);
    if (request.index < nextIndex) {
      const stored = game.actions[request.index]!;
      if (parsed.ok && makeAction(parsed.value) === stored) {
        this.transport.toPlayer(game.playerId, { type: 'ack', ...this.ackOf(game, request.index) });
        return undefined;
      }
      const message = `action ${request.index} of this game is already "${stored}"; the next action is number ${nextIndex}`;
      return new Refusal('index-conflict', message, { field: 'index', nextIndex, params: { index: request.index, stored, next: nextIndex } });
    }
    const over = this.overRefusal(game);
    if (over) return over;
    if (request.index > nextIndex) {
      // Another instance may have stored the moves between: read the game again before refusing.
      if (!fresh) return this.reread(game, (stored) => this.playOn(stored, request, true));
      const message = `action ${request.index} is ahead of this game: the next action is number ${nextIndex} (resync first)`;
      return new Refusal('index-ahead', message, { field: 'index', nextIndex, params: { index: request.index, next: nextIndex } });
    }
    if (!parsed.ok) return new Refusal('illegal-action', problemText(parsed.error), { field: 'action', nextIndex, params: { action: request.action, problem: parsed.error } });
    const action = parsed.value;
    let nextLayout: Layout | undefined;
    if (action.type === 'redeal' && game.position.problem(action) === undefined) {
      nextLayout = redealLayout(redealSeedOf(game), game.position.redealsUsed + 1, game.position.gatheredCards());
    }
    const problem = game.position.problem(action, nextLayout);
    if (problem !== undefined) {
      return new Refusal('illegal-action', `"${request.action}": ${problemText(problem)}`, { field: 'action', nextIndex, params: { action: request.action, problem } });
    }

    const position = game.position.clone();
    position.play(action, nextLayout);
    const status = position.status();
    const state: GameState = status.won ? 'won' : status.over ? 'out-of-moves' : 'playing';
    const at = this.clock.now();
    const text = makeAction(action);
    const layout = nextLayout && makeLayout(nextLayout);
    const move: MoveWrite = {
      gameId: game.id,
      index: nextIndex,
      action: text,
      at,
      ...(layout && { deal: { k: position.redealsUsed, layout } }),
      counts: { foundations: status.foundations, redealsUsed: status.redealsUsed, moves: nextIndex + 1 },
      ...(state !== 'playing' && { result: { status: state, finishedAt: at, rankKey: rankKey(status.foundations, at - game.startedAt) } }),
    };
    // Stored: now the move counts.
    const commit = (): undefined => {
      game.position = position;
      game.actions.push(text);
      if (layout) game.deals.push(layout);
      const ack: ServerMessageOf<'ack'> = { type: 'ack', gameId: game.id, index: nextIndex, action: text, ...(layout && { layout }) };
      if (state !== 'playing') {
        this.transport.toPlayerNow(game.playerId, ack);
        this.finish(game, state, at);
        return undefined;
      }
      // The race's progress first, held on the sockets until this turn ends: the ack written now
      // then carries the mover's own progress frame in the same write, one system call instead of two.
      this.announce(game);
      this.transport.toPlayerNow(game.playerId, ack);
      return undefined;
    };
    // A write the storage could not make was rolled back, and nothing in memory has changed yet: the player may simply send it again.
    const unstored = (error: unknown): Pending<Refusal | undefined> => {
      if (error instanceof IndexTaken) return this.overtaken(game, request);
      const code = this.store.storageFailure(error);
      if (code === undefined) throw error;
      this.log.warn({ err: error, code, gameId: game.id, index: nextIndex }, 'cannot store an action');
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) this.lockedUntil = Date.now() + LOCKED_BACKOFF_MS;
      return new Refusal('storage-unavailable', `the move could not be stored (${code}): nothing changed, send it again in a moment`, { nextIndex, params: { cause: code } });
    };
    // Each try at a locked database blocks the event loop for the busy timeout: right after one
    // failed, refuse at once for a moment rather than make every player's move wait its turn.
    if (Date.now() < this.lockedUntil) {
      return new Refusal('storage-unavailable', 'the database is locked: nothing changed, send the move again in a moment', { nextIndex, params: { cause: 'SQLITE_BUSY' } });
    }
    let stored: Pending<void>;
    try {
      stored = this.store.appendMove(move);
    } catch (error) {
      return unstored(error);
    }
    return stored instanceof Promise ? this.holdTurn(game.id, stored.then(commit, unstored)) : commit();
  }

  /**
   * Another instance stored this game's next action first: this copy is behind. It is read again
   * from the store; the same action sent to both instances is then simply acknowledged, another
   * one is an index conflict.
   */
  private overtaken(game: LiveGame, request: ActionRequest): Pending<Refusal | undefined> {
    return this.reread(game, (stored) => this.playOn(stored, request, true));
  }

  /** `next` on the game as stored now (undefined if it is gone). */
  private reread<T>(game: LiveGame, next: (stored: LiveGame) => Pending<T | undefined>): Pending<T | undefined> {
    this.evict(game);
    return after(this.get(game.id), (stored) => (stored ? next(stored) : undefined));
  }

  /** Forgets a game's copy in memory (and its timer): the next use reads it from the store. */
  private evict(game: LiveGame): void {
    this.playing.delete(game.id);
    this.timers.get(game.id)?.();
    this.timers.delete(game.id);
  }

  /** Gives up a game. */
  resign(player: PlayerView, gameId: number): Pending<Refusal | undefined> {
    return this.inTurn(gameId, () =>
      after(this.ownGame(player, gameId), (found) => {
        if (found instanceof Refusal) return found;
        return this.overRefusal(found) ?? this.end(found, 'resigned', this.clock.now());
      }),
    );
  }

  /**
   * Finishes a game whose player left it (lifecycle.ts): ranked as a resignation at `at`, when they
   * left, with the cards home then. Whether this call ended it (not another instance first).
   */
  abandon(game: LiveGame, at: number): Pending<boolean> {
    return this.inTurn(game.id, () => (this.closing || game.state !== 'playing' ? false : after(this.end(game, 'abandoned', at), () => game.state === 'abandoned')));
  }

  /**
   * What a reconnecting client missed: the acks after `lastIndex`, or the whole game when the
   * client claims more than the server has.
   */
  resync(
    player: PlayerView,
    gameId: number,
    lastIndex: number,
    raceCode: (game: LiveGame) => Pending<string | null>,
  ): Pending<ServerMessageOf<'resynced'> | GameSnapshot | Refusal> {
    // In the game's turn: what it answers includes every move acknowledged before it.
    const answer = (game: LiveGame): Pending<ServerMessageOf<'resynced'> | GameSnapshot> => {
      if (lastIndex >= game.actions.length) return after(raceCode(game), (code) => this.snapshot(game, code));
      const acks: AckBody[] = [];
      for (let index = lastIndex + 1; index < game.actions.length; index++) acks.push(this.ackOf(game, index));
      return { type: 'resynced' as const, gameId, acks, status: gameStatusOf(game) };
    };
    return this.inTurn(gameId, () =>
      after(this.ownGame(player, gameId), (game) => {
        if (game instanceof Refusal) return game;
        // With a shared store, what this instance remembers may be behind what another one stored.
        if (!this.shared) return answer(game);
        return after(this.reread(game, answer), (answered) => answered ?? new Refusal('unknown-game', `there is no game ${gameId}`, { field: 'gameId', params: { game: gameId } }));
      }),
    );
  }

  /** Stops timers; the database is closed by its plugin. */
  close(): void {
    this.closing = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  /** Resolves once every load and write in flight has settled (at shutdown, before the store closes). */
  async settled(): Promise<void> {
    while (this.writing.size > 0 || this.loading.size > 0) await Promise.all([...this.writing.values(), ...this.loading.values()].map((work) => work.catch(ignore)));
  }

  private ownGame(player: PlayerView, gameId: number): Pending<LiveGame | Refusal> {
    if (this.closing) return new Refusal('server-closing', 'the server is shutting down: reconnect in a moment');
    return after(this.get(gameId), (game) => {
      if (!game) return new Refusal('unknown-game', `there is no game ${gameId}`, { field: 'gameId', params: { game: gameId } });
      if (game.playerId !== player.id) return new Refusal('not-your-game', `game ${gameId} belongs to another player`, { field: 'gameId', params: { game: gameId } });
      return game;
    });
  }

  /**
   * Ends a game whose deadline has passed before its timer fired (a busy or just restarted
   * server), so nothing reads or plays it as still running.
   */
  expireIfDue(game: LiveGame): void {
    if (game.state === 'playing' && !this.ending.has(game.id) && game.deadline !== null && this.clock.now() >= game.deadline) {
      const ended = this.end(game, 'timed-out', game.deadline);
      if (ended instanceof Promise) ended.catch((error: unknown) => this.log.error({ err: error, gameId: game.id }, 'cannot store a time-out'));
    }
  }

  /** Refuses changes to a finished game (or one whose end is being stored), first ending it if its deadline has passed unseen. */
  private overRefusal(game: LiveGame): Refusal | undefined {
    this.expireIfDue(game);
    const state = this.ending.get(game.id) ?? game.state;
    if (state === 'playing') return undefined;
    const message = `game ${game.id} is over (${state}): no more actions`;
    return new Refusal('game-over', message, { field: 'gameId', nextIndex: game.actions.length, params: { game: game.id, state } });
  }

  /** The ack of a stored action, identical every time it is asked for. */
  private ackOf(game: LiveGame, index: number): AckBody {
    const action = game.actions[index]!;
    if (action !== 'R') return { gameId: game.id, index, action };
    const k = game.actions.slice(0, index + 1).filter((text) => text === 'R').length;
    return { gameId: game.id, index, action, layout: game.deals[k]! };
  }

  /** Ends a playing game without an action (resignation, time limit). */
  private end(game: LiveGame, state: EndState, at: number): Pending<undefined> {
    const foundations = game.position.foundationCount();
    const counts = { foundations, redealsUsed: game.position.redealsUsed, moves: game.actions.length };
    const stored = this.store.endGame({ gameId: game.id, status: state, finishedAt: at, rankKey: rankKey(foundations, at - game.startedAt), counts });
    const commit = (ended: boolean): undefined => {
      // Ended already, elsewhere: that end stands and was told there; this copy is forgotten.
      if (ended) this.finish(game, state, at);
      else this.evict(game);
      return undefined;
    };
    if (!(stored instanceof Promise)) return commit(stored);
    this.ending.set(game.id, state);
    const done = () => void this.ending.delete(game.id);
    return this.holdTurn(
      game.id,
      stored.then(commit).finally(done),
    );
  }

  /**
   * Runs `work` on a game now, or after the write of that game still in flight and whatever
   * queued behind it: a game's changes are applied, stored and acknowledged in the order they came.
   */
  private inTurn<T>(gameId: number, work: () => Pending<T>): Pending<T> {
    const waiting = this.writing.get(gameId);
    // A turn that did not finish at once (a load, a write) holds the game until it settles.
    const outcome = waiting ? waiting.then(work) : work();
    return outcome instanceof Promise ? this.holdTurn(gameId, outcome) : outcome;
  }

  /** Work on a game now in flight: later work on that game waits for it, and for whatever it was already waiting for. */
  private holdTurn<T>(gameId: number, work: Promise<T>): Promise<T> {
    const before = this.writing.get(gameId);
    const own = work.then(ignore, ignore);
    const settled = before ? Promise.all([before, own]).then(ignore) : own;
    this.writing.set(gameId, settled);
    void settled.then(() => {
      if (this.writing.get(gameId) === settled) this.writing.delete(gameId);
    });
    return work;
  }

  private finish(game: LiveGame, state: EndState, at: number): void {
    game.state = state;
    game.finishedAt = at;
    this.evict(game);
    this.transport.toPlayer(game.playerId, { type: 'game-over', gameId: game.id, status: gameStatusOf(game) });
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
    this.playing.set(game.id, game);
    if (game.deadline !== null) this.armDeadline(game, game.deadline - this.clock.now());
    return game;
  }

  /** The time limit's timer; when its write fails for the storage, it is tried again until it is stored. */
  private armDeadline(game: Pick<LiveGame, 'id' | 'deadline'>, ms: number): void {
    const deadline = game.deadline!;
    this.timers.get(game.id)?.();
    const failed = (error: unknown) => {
      const code = this.store.storageFailure(error);
      this.log.error({ err: error, code, gameId: game.id }, code ? 'cannot store a time-out: retrying' : 'ending a timed-out game failed');
      if (code !== undefined) this.armDeadline(game, STORAGE_RETRY_MS);
    };
    this.timers.set(
      game.id,
      this.owner.clock.setTimer(ms, () => {
        this.timers.delete(game.id);
        try {
          // Read afresh in the game's turn (another instance may have played it since); ended in the next.
          const ended = after(this.current(game.id), (fresh) =>
            fresh ? this.inTurn(fresh.id, () => (this.closing || fresh.state !== 'playing' ? undefined : this.end(fresh, 'timed-out', deadline))) : undefined,
          );
          if (ended instanceof Promise) ended.catch(failed);
        } catch (error) {
          failed(error);
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
 * The seed a game's redeals come from. A daily attempt, or a series deal, redeals from its own
 * stream (the deal's seed and its game id): another identity copying its moves gets other
 * layouts, so nobody can preview, or choose among, the redeals of the day or of a friend's deal.
 * Race seats share the race seed on purpose: fair redeals, the same cards give every racer the
 * same layout.
 */
export const redealSeedOf = (game: Pick<LiveGame, 'kind' | 'id' | 'seed'>): string =>
  game.kind === 'race' ? game.seed : attemptSeed(game.seed, game.id);

/** A stored layout (deals[k] of a game), read back; the server wrote it, so a failure is a fault. */
export function storedLayout(deal: readonly string[], k: number): Layout {
  const layout = parseLayout(deal);
  if (!layout.ok) throw new Error(`stored deal ${k} is unreadable: ${problemText(layout.error)}`);
  return layout.value;
}
