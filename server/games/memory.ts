/**
 * The games this process holds in memory: every playing game once loaded, rebuilt from its move
 * log, so a restart, even a crash, loses no acknowledged action. Concurrent loads of one game
 * share one read, so one game is one LiveGame here; a game in memory has its deadline armed,
 * and forgetting it (it ended, or another instance moved it on) disarms it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { after, type GameStore, type Pending, type Scheduler, type StoredGame } from '../ports.js';
import { GAME_DEADLINE } from './deadlines.js';
import { replayed, type LiveGame } from './live-game.js';

const ignore = (): void => {};

export class GameMemory {
  private readonly playing = new Map<number, LiveGame>();
  /** Games being read from an asynchronous store: every caller gets the same one. */
  private readonly loading = new Map<number, Promise<LiveGame | undefined>>();

  constructor(
    private readonly store: GameStore,
    private readonly scheduler: Scheduler,
    private readonly log: FastifyBaseLogger,
  ) {}

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

  /** Loads every unfinished game, arming their deadlines. */
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

  /** A game being played, if held here. */
  live(id: number): LiveGame | undefined {
    return this.playing.get(id);
  }

  playingGamesOf(playerId: number): LiveGame[] {
    return [...this.playing.values()].filter((game) => game.playerId === playerId);
  }

  /** A playing game, held (its deadline armed). */
  track(game: LiveGame): LiveGame {
    this.playing.set(game.id, game);
    if (game.deadline !== null) this.scheduler.arm(GAME_DEADLINE, String(game.id), game.deadline);
    return game;
  }

  /** Forgets a game's copy (and its timer): the next use reads it from the store. */
  evict(game: Pick<LiveGame, 'id'>): void {
    this.playing.delete(game.id);
    this.scheduler.cancel(GAME_DEADLINE, String(game.id));
  }

  /** The loads in flight. */
  inFlight(): Promise<unknown>[] {
    return [...this.loading.values()];
  }

  private rebuilt(row: StoredGame, { deals, actions }: { deals: string[][]; actions: string[] }): LiveGame {
    const game: LiveGame = {
      id: row.id,
      kind: row.kind,
      playerId: row.playerId,
      raceId: row.raceId,
      variant: row.variant,
      seed: row.seed,
      startedAt: row.startedAt,
      deadline: row.deadline,
      ghostOf: row.ghostOf,
      redealFrom: row.redealFrom,
      deals,
      actions,
      position: replayed(row.variant, deals, actions),
      state: row.status,
      finishedAt: row.finishedAt,
    };
    // Finished games are rebuilt on demand (a late resend, a resync) and not kept.
    return game.state === 'playing' ? this.track(game) : game;
  }
}
