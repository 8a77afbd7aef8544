/**
 * The one place where a game changes. The authority (authority.ts) decides on an action; the
 * service stores its write through the storage port and only then applies it to memory,
 * acknowledges it to the player and tells the listeners (races send it as progress); a game that
 * ends is announced as a domain event after the write that ended it. Live positions are kept in
 * memory and rebuilt from the move log when a game is loaded, so a restart, even a crash, loses
 * no acknowledged action.
 */
import type { FastifyBaseLogger } from 'fastify';
import { dealLayout, makeLayout } from '../../shared/index.js';
import type { AckBody, EndState, GameSnapshot, PlayerView, ServerMessageOf } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../errors.js';
import type { DomainEvents } from '../events.js';
import { after, IndexTaken, type DeadlineHandler, type GameStore, type NewGameRow, type Pending, type RaceStart, type Scheduler, type Transport } from '../ports.js';
import { rankKey } from '../standings.js';
import { decideMove, seededDealer, type Dealer } from './authority.js';
import { GAME_DEADLINE, gameDeadlines } from './deadlines.js';
import { ackOf, gameStatusOf, replayed, snapshotOf, type ActionRequest, type LiveGame, type NewGame } from './live-game.js';
import { GameMemory } from './memory.js';
import { TurnQueue } from './turns.js';

/** Called after every stored change of a game (an action, a resignation, a time-out). */
export type GameListener = (game: LiveGame) => void;

export interface GameServiceOptions {
  readonly store: GameStore;
  readonly transport: Transport;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly events: DomainEvents;
  /** Where game deadlines are armed (scheduler.ts). */
  readonly scheduler: Scheduler;
  /** Others append to the same games (other instances): a game in memory may be behind its stored log. */
  readonly othersWrite: boolean;
  /** Deals redeals; the seeded one unless a test deals its own. */
  readonly dealer?: Dealer;
}

const ignore = (): void => {};

/** How long moves are refused untried after one met a lock held elsewhere (as long as the busy timeout). */
const LOCKED_BACKOFF_MS = 250;

export class GameService {
  /** Set at shutdown: no more changes are taken. */
  closing = false;
  private readonly listeners: GameListener[] = [];
  private readonly turns = new TurnQueue();
  private readonly memory: GameMemory;
  /** Games whose end (a resignation, a time-out) is being stored by an asynchronous store, and how they end. */
  private readonly ending = new Map<number, EndState>();
  /** Until when (the clock's time) moves are refused without trying, after one met a locked database. */
  private lockedUntil = -Infinity;
  private readonly store: GameStore;
  private readonly transport: Transport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly events: DomainEvents;
  private readonly scheduler: Scheduler;
  private readonly dealer: Dealer;
  /** Others append to the same games: a game in memory is only trusted for what it holds. */
  readonly shared: boolean;

  constructor(options: GameServiceOptions) {
    ({ store: this.store, transport: this.transport, clock: this.clock, log: this.log, events: this.events } = options);
    this.scheduler = options.scheduler;
    this.shared = options.othersWrite;
    this.dealer = options.dealer ?? seededDealer;
    this.memory = new GameMemory(this.store, this.scheduler, this.log);
  }

  /** Game deadlines as a kind of the scheduler's: `playing` reads those stored. */
  deadlineHandler(playing: () => Pending<readonly { id: number; deadline: number }[]>): DeadlineHandler {
    return gameDeadlines({
      // Read afresh in the game's turn (another instance may have played it since); ended in the next.
      expire: (gameId, deadline) =>
        after(this.current(gameId), (fresh) =>
          fresh ? this.turns.inTurn(fresh.id, () => (this.closing || fresh.state !== 'playing' ? undefined : this.end(fresh, 'timed-out', deadline))) : undefined,
        ),
      busy: (gameId) => this.turns.holds(gameId),
      playing,
    });
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
      const position = replayed(spec.variant, [layout], []);
      const row: NewGameRow = {
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
        ghostOf: spec.ghost?.of ?? null,
        redealFrom: spec.ghost?.redealFrom ?? null,
        foundations: position.foundationCount(),
        layout,
      };
      return { row, position };
    });
    const ids = this.store.createGames(
      dealt.map(({ row }) => row),
      starts,
    );
    return after(ids, (ids) => {
      // A deadline stored here is the owner's to act on.
      dealt.forEach(({ row }, i) => {
        if (row.deadline !== null) this.scheduler.stored(GAME_DEADLINE, String(ids[i]!), row.deadline);
      });
      // What only the store keeps (the day, the series deal, the counts) stays out of memory.
      return dealt.map(({ row: { day: _day, seriesId: _seriesId, seriesDeal: _seriesDeal, foundations: _foundations, layout, ...game }, position }, i) =>
        this.memory.track({ ...game, id: ids[i]!, deals: [layout], actions: [], position, state: 'playing', finishedAt: null }),
      );
    });
  }

  /** Loads every unfinished game (on taking the timers over: at startup, alone), arming their deadlines. */
  loadPlaying(): Pending<void> {
    return this.memory.loadPlaying();
  }

  /** A game, from memory or rebuilt from its move log; undefined when there is none. */
  get(id: number): Pending<LiveGame | undefined> {
    return this.memory.get(id);
  }

  /** A game as stored now: with a shared store it is read again, in the game's turn, rather than trusted from memory. */
  current(id: number): Pending<LiveGame | undefined> {
    if (!this.shared) return this.get(id);
    return this.turns.inTurn(id, () => {
      this.memory.evict({ id });
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
    return this.memory.live(id);
  }

  /** The live games of a player (to tell their opponents when they disconnect). */
  playingGamesOf(playerId: number): LiveGame[] {
    return this.memory.playingGamesOf(playerId);
  }

  snapshot(game: LiveGame, raceCode: string | null): GameSnapshot {
    return snapshotOf(game, raceCode);
  }

  /**
   * Plays action `index` of a game for `player`. A new action is stored, acknowledged to all of
   * the player's sockets and announced; an action already applied at that index is only
   * acknowledged again. Anything else is refused and changes nothing. Behind a write of the
   * same game still in flight (an asynchronous store), it waits its turn.
   */
  play(player: PlayerView, request: ActionRequest): Pending<Refusal | undefined> {
    return this.turns.inTurn(request.gameId, () =>
      after(this.ownGame(player, request.gameId), (found) => (found instanceof Refusal ? found : this.playOn(found, request))),
    );
  }

  /** `fresh`: the game was just read from the store, so an index ahead of it is really ahead. */
  private playOn(game: LiveGame, request: ActionRequest, fresh = !this.shared): Pending<Refusal | undefined> {
    this.expireIfDue(game);
    const ending = this.ending.get(game.id);
    const decision = decideMove(ending === undefined ? game : { ...game, state: ending }, request, this.clock.now(), this.dealer);
    if (decision instanceof Refusal) {
      // Another instance may have stored the moves between: read the game again before refusing.
      if (decision.code === 'index-ahead' && !fresh) return this.reread(game, (stored) => this.playOn(stored, request, true));
      return decision;
    }
    if (decision.kind === 'stored-already') {
      this.transport.toPlayer(game.playerId, { type: 'ack', ...decision.ack });
      return undefined;
    }
    const { move, position, state, ack } = decision;
    const nextIndex = move.index;
    // Stored: now the move counts.
    const commit = (): undefined => {
      game.position = position;
      game.actions.push(move.action);
      if (move.deal) game.deals.push(move.deal.layout);
      if (state !== 'playing') {
        this.transport.toPlayerNow(game.playerId, ack);
        this.finish(game, state, move.at);
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
      // Another instance stored this game's next action first: read again, the same action is then
      // acknowledged, another one is an index conflict.
      if (error instanceof IndexTaken) return this.reread(game, (stored) => this.playOn(stored, request, true));
      const code = this.store.storageFailure(error);
      if (code === undefined) throw error;
      this.log.warn({ err: error, code, gameId: game.id, index: nextIndex }, 'cannot store an action');
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) this.lockedUntil = this.clock.now() + LOCKED_BACKOFF_MS;
      return new Refusal('storage-unavailable', `the move could not be stored (${code}): nothing changed, send it again in a moment`, { nextIndex, params: { cause: code } });
    };
    // Each try at a locked database blocks the event loop for the busy timeout: right after one
    // failed, refuse at once for a moment rather than make every player's move wait its turn.
    if (this.clock.now() < this.lockedUntil) {
      return new Refusal('storage-unavailable', 'the database is locked: nothing changed, send the move again in a moment', { nextIndex, params: { cause: 'SQLITE_BUSY' } });
    }
    let stored: Pending<void>;
    try {
      stored = this.store.appendMove(move);
    } catch (error) {
      return unstored(error);
    }
    return stored instanceof Promise ? this.turns.hold(game.id, stored.then(commit, unstored)) : commit();
  }

  /** `next` on the game as stored now (undefined if it is gone). */
  private reread<T>(game: LiveGame, next: (stored: LiveGame) => Pending<T | undefined>): Pending<T | undefined> {
    this.memory.evict(game);
    return after(this.get(game.id), (stored) => (stored ? next(stored) : undefined));
  }

  /** Gives up a game. */
  resign(player: PlayerView, gameId: number): Pending<Refusal | undefined> {
    return this.turns.inTurn(gameId, () =>
      after(this.ownGame(player, gameId), (found) => {
        if (found instanceof Refusal) return found;
        return this.overRefusal(found) ?? this.end(found, 'resigned', this.clock.now());
      }),
    );
  }

  /**
   * Finishes a game whose player left it (races/lifecycle.ts): ranked as a resignation at `at`,
   * when they left, with the cards home then. Whether this call ended it (not another instance first).
   */
  abandon(game: LiveGame, at: number): Pending<boolean> {
    return this.turns.inTurn(game.id, () =>
      this.closing || game.state !== 'playing' ? false : after(this.end(game, 'abandoned', at), () => game.state === 'abandoned'),
    );
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
      if (lastIndex >= game.actions.length) return after(raceCode(game), (code) => snapshotOf(game, code));
      const acks: AckBody[] = [];
      for (let index = lastIndex + 1; index < game.actions.length; index++) acks.push(ackOf(game, index));
      return { type: 'resynced' as const, gameId, acks, status: gameStatusOf(game) };
    };
    return this.turns.inTurn(gameId, () =>
      after(this.ownGame(player, gameId), (game) => {
        if (game instanceof Refusal) return game;
        // With a shared store, what this instance remembers may be behind what another one stored.
        if (!this.shared) return answer(game);
        return after(this.reread(game, answer), (answered) => answered ?? new Refusal('unknown-game', `there is no game ${gameId}`, { field: 'gameId', params: { game: gameId } }));
      }),
    );
  }

  /** No more changes are taken; the database is closed by its plugin. */
  close(): void {
    this.closing = true;
  }

  /** Resolves once every load and write in flight has settled (at shutdown, before the store closes). */
  async settled(): Promise<void> {
    for (let work = [...this.turns.inFlight(), ...this.memory.inFlight()]; work.length > 0; work = [...this.turns.inFlight(), ...this.memory.inFlight()]) {
      await Promise.all(work.map((one) => one.catch(ignore)));
    }
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

  /** Ends a playing game without an action (resignation, time limit). */
  private end(game: LiveGame, state: EndState, at: number): Pending<undefined> {
    const foundations = game.position.foundationCount();
    const counts = { foundations, redealsUsed: game.position.redealsUsed, moves: game.actions.length };
    const stored = this.store.endGame({ gameId: game.id, status: state, finishedAt: at, rankKey: rankKey(foundations, at - game.startedAt), counts });
    const commit = (ended: boolean): undefined => {
      // Ended already, elsewhere: that end stands and was told there; this copy is forgotten.
      if (ended) this.finish(game, state, at);
      else this.memory.evict(game);
      return undefined;
    };
    if (!(stored instanceof Promise)) return commit(stored);
    this.ending.set(game.id, state);
    const done = () => void this.ending.delete(game.id);
    return this.turns.hold(game.id, stored.then(commit).finally(done));
  }

  /** The write that ended the game is stored: the player, the listeners, then the event. */
  private finish(game: LiveGame, state: EndState, at: number): void {
    game.state = state;
    game.finishedAt = at;
    this.memory.evict(game);
    this.transport.toPlayer(game.playerId, { type: 'game-over', gameId: game.id, status: gameStatusOf(game) });
    this.announce(game);
    this.events.emit({
      type: 'game-ended',
      gameId: game.id,
      kind: game.kind,
      playerId: game.playerId,
      raceId: game.raceId,
      variant: game.variant,
      state,
      foundations: game.position.foundationCount(),
      moves: game.actions.length,
      startedAt: game.startedAt,
      finishedAt: at,
    });
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
}
