/**
 * Races: lobby, start, countdown, the simultaneous deal, live progress and standings. Games
 * themselves change only through GameService; this module listens to it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { VARIANTS } from '../shared/index.js';
import {
  type PlayerView,
  type ProgressView,
  type RaceEvent,
  type RaceView,
  type RaceOptions,
  type StandingView,
} from '../contract/index.js';
import type { Clock } from './clock.js';
import { Coalescer } from './coalescer.js';
import { STORAGE_RETRY_MS } from './db/index.js';
import { Refusal } from './errors.js';
import type { GameService, LiveGame } from './games.js';
import { releaseTimer, soleOwner, type TimerOwner } from './ownership.js';
import { after, recovering, type Pending, type Transport } from './ports.js';
import { RaceLifecycle, type LifecycleRules } from './lifecycle.js';
import { presenceOf } from './presence.js';
import { freshShareCode } from './share-code.js';
import { rankStandings, type Finisher } from './standings.js';
import type { GameRow, PlayerStore, RacerRow, RaceRow, RaceStore } from './stores.js';

/** Where play can cycle (super-flower-garden, shamrocks, fan-reserve) a game may never end by itself: such a race always has a limit. */
export const CYCLING_TIME_LIMIT_SECONDS = 30 * 60;

/**
 * A race's watchers get progress at most this often (the latest of each racer who moved): every
 * progress costs a socket write per watcher, and sent per move they queue the acks of other
 * players behind them. Status changes and race messages never wait.
 */
export const PROGRESS_INTERVAL_MS = 50;

export interface RaceTiming extends LifecycleRules {
  /** From start to deal. */
  countdownMs: number;
  /** Progress per race at most this often; 0 sends every move's at once. */
  progressIntervalMs: number;
}

/** What progress is made of, from a live game or a stored row. */
interface GameFacts {
  id: number;
  playerId: number;
  status: LiveGame['state'];
  foundations: number;
  redealsUsed: number;
  moves: number;
  finishedAt: number | null;
}

export class RaceService {
  private readonly codes = new Map<number, string>();
  /** Names never change: progress after each move needs no query for them. */
  private readonly names = new Map<number, string>();
  private readonly countdowns = new Map<number, () => void>();
  /** Standings waiting for the storage to come back. */
  private readonly retries = new Set<() => void>();
  /** Moves' progress per race code, coalesced; status changes go through it at once, in order. */
  private readonly progress: Coalescer<LiveGame>;
  /** Presence, grace periods, leaving and closing: what ends races and lobbies nobody ends. */
  readonly lifecycle: RaceLifecycle;

  constructor(
    private readonly store: RaceStore,
    private readonly players: PlayerStore,
    private readonly games: GameService,
    private readonly transport: Transport,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly timing: RaceTiming,
    /** Countdowns and the lifecycle's deadlines are timers of the timer owner (ownership.ts). */
    private readonly owner: TimerOwner = soleOwner(clock),
  ) {
    this.progress = new Coalescer(clock, timing.progressIntervalMs, (code, changed) => this.sendProgress(code, changed));
    games.onChange((game) => this.gameChanged(game, game.state !== 'playing'));
    transport.onPresence((playerId) => this.presenceChanged(playerId));
    // After the listener above: a leaver's progress goes before the race view that shows them reconnecting.
    this.lifecycle = new RaceLifecycle(store, players, games, transport, clock, log, timing, this, owner);
  }

  /** After a restart (or on becoming the timer owner): re-arm countdowns and finish races whose last game ended unseen. */
  async resume(): Promise<void> {
    for (const race of await this.store.inState('countdown')) this.armCountdown(race);
    for (const race of await this.store.inState('running')) await this.finishIfDone(race.id);
    await this.lifecycle.resume();
  }

  /** On the timer owner, for a race changed elsewhere: its countdown, lobby limit and grace periods armed from what is stored. */
  async rearm(raceId: number): Promise<void> {
    const race = await this.store.byId(raceId);
    if (!race) return;
    if (race.state === 'countdown') this.armCountdown(race);
    await this.lifecycle.rearm(race);
  }

  /**
   * On the timer owner, each rescan round: countdowns, lobby limits and grace periods stored with
   * no timer here (a notice lost) are armed, and a race whose last game ended unfinished (its
   * instance died before storing the standings) is finished.
   */
  async rescan(): Promise<void> {
    for (const race of await this.store.inState('countdown')) {
      if (!this.countdowns.has(race.id)) this.armCountdown(race);
    }
    await this.lifecycle.rescan();
    for (const race of await this.store.doneRunning()) await this.finishIfDone(race.id);
  }

  /** Stops timers; progress still waiting is sent first. */
  close(): void {
    for (const cancel of [...this.countdowns.values(), ...this.retries]) cancel();
    this.countdowns.clear();
    this.retries.clear();
    this.lifecycle.close();
    this.progress.close();
  }

  async create(creator: PlayerView, options: RaceOptions & { rematchOf?: number }): Promise<RaceView> {
    const now = this.clock.now();
    const code = await freshShareCode((code) => this.find(code));
    await this.store.create(
      {
          code,
          variant: options.variant,
          seats: options.seats,
          timeLimitSeconds: options.timeLimitSeconds ?? (VARIANTS[options.variant].canCycle ? CYCLING_TIME_LIMIT_SECONDS : null),
          seed: randomBytes(18).toString('base64url'),
          state: 'lobby',
          creatorId: creator.id,
          createdAt: now,
          lobbyClosesAt: now + this.timing.lobbyLimitMs,
          rematchOf: options.rematchOf ?? null,
      },
      now,
    );
    await this.lifecycle.seated(await this.mustFind(code), creator.id);
    return (await this.view(code))!;
  }

  async join(player: PlayerView, code: string): Promise<RaceView> {
    const race = await this.mustFind(code);
    const seated = await this.store.entries(race.id);
    if (seated.some((entry) => entry.playerId === player.id)) return (await this.view(code))!;
    if (race.state === 'closed') throw closedError(race);
    if (race.state !== 'lobby') throw new Refusal('race-started', `race ${code} has started: you can watch it`, { params: { race: code } });
    if (seated.length >= race.seats) throw new Refusal('race-full', `race ${code} is full (${race.seats} seats): you can watch it`, { params: { race: code, seats: race.seats } });
    // After the last seat taken, whoever left before: seat order stays join order.
    await this.store.seat(race.id, player.id, Math.max(0, ...seated.map((entry) => entry.seat)) + 1, this.clock.now());
    await this.lifecycle.seated(race, player.id);
    return this.broadcastView(code);
  }

  async start(player: PlayerView, code: string): Promise<RaceView> {
    const race = await this.mustFind(code);
    if (race.state === 'closed') throw closedError(race);
    if (race.creatorId !== player.id) throw new Refusal('not-creator', 'only the player who created the race can start it', { params: { race: code } });
    if (race.state !== 'lobby') throw new Refusal('not-in-lobby', `race ${code} has already started`, { params: { race: code } });
    if ((await this.store.entries(race.id)).length < 2) throw new Refusal('not-enough-racers', 'a race needs at least 2 racers: share the link first', { params: { race: code, limit: 2 } });
    const startsAt = this.clock.now() + this.timing.countdownMs;
    // A lobby closed (its limit, another instance) or started since it was read above is not started again.
    if (!(await this.store.transition(race.id, 'lobby', { state: 'countdown', startsAt }))) throw new Refusal('not-in-lobby', `race ${code} is no longer a lobby`, { params: { race: code } });
    this.lifecycle.started(race.id);
    this.armCountdown({ ...race, state: 'countdown', startsAt });
    this.owner.changed({ raceId: race.id });
    return this.broadcastView(code);
  }

  /**
   * A racer's answer to "same racers, new deal" on the standings. The first to accept creates the
   * rematch (same variant, seats and time limit, a new seed) as a normal lobby they create; the
   * others accepting join it, declining frees their seat there. Everyone watching the finished
   * race sees each answer.
   */
  async rematch(player: PlayerView, code: string, answer: 'accept' | 'decline'): Promise<RaceView> {
    const race = await this.mustFind(code);
    if (race.state !== 'finished') throw new Refusal('not-finished', `race ${code} is not finished: a rematch is offered on its standings`, { params: { race: code } });
    if (!(await this.store.entry(race.id, player.id))) throw new Refusal('not-a-racer', `you did not race in ${code}: only its racers can ask for a rematch`, { params: { race: code } });
    const next = await this.store.rematchOf(race.id);
    if (answer === 'accept') {
      if (!next) {
        await this.create(player, { variant: race.variant, seats: race.seats, timeLimitSeconds: race.timeLimitSeconds, rematchOf: race.id });
      } else {
        await this.join(player, next.code);
      }
    } else if (next?.state === 'lobby' && (await this.store.entry(next.id, player.id))) {
      await this.lifecycle.leave(player, next);
    }
    await this.store.updateEntry(race.id, player.id, { rematch: answer === 'accept' ? 'accepted' : 'declined' });
    this.announce(code, { kind: 'rematch', player, at: this.clock.now() });
    return this.broadcastView(code);
  }

  /** The public view of a race, or undefined when the code is unknown. */
  async view(code: string): Promise<RaceView | undefined> {
    const race = await this.find(code);
    if (!race) return undefined;
    const creator = (await this.players.byId(race.creatorId))!;
    const entries = await this.store.racers(race.id);
    for (const entry of entries) this.names.set(entry.id, entry.name);
    const rows = await this.store.games(race.id);
    const progress: ProgressView[] = [];
    const standings: StandingView[] = [];
    for (const entry of entries) {
      const row = rows.find((game) => game.playerId === entry.id);
      if (!row) continue;
      progress.push(this.progressOf(row, entry.name));
      if (entry.rank !== null) standings.push({ rank: entry.rank, ...finisherOf(row, entry.name) });
    }
    const finished = race.state === 'finished';
    const live = race.state === 'lobby' || race.state === 'countdown' || race.state === 'running';
    const racers = entries.map(({ id, name, seat, goneSince }) => {
      const game = rows.find((row) => row.playerId === id);
      const stakes = live && (game === undefined || game.status === 'playing');
      const facts = { connected: this.transport.isConnected(id), goneSince, stakes, abandoned: game?.status === 'abandoned' };
      return { id, name, seat, presence: presenceOf(facts, this.timing.graceMs) };
    });
    return {
      code: race.code,
      variant: race.variant,
      seats: race.seats,
      timeLimitSeconds: race.timeLimitSeconds,
      state: race.state,
      creator,
      racers,
      createdAt: race.createdAt,
      startsAt: race.startsAt,
      endsAt: race.startsAt !== null && race.timeLimitSeconds !== null ? race.startsAt + race.timeLimitSeconds * 1000 : null,
      finishedAt: race.finishedAt,
      progress,
      // Stored ranks, best first (a stable sort keeps seat order within a tie).
      standings: finished ? standings.sort((a, b) => a.rank - b.rank) : null,
      seed: finished ? race.seed : null,
      closedReason: race.closedReason,
      lobbyClosesAt: race.state === 'lobby' ? race.lobbyClosesAt : null,
      capAt: race.capAt,
      graceSeconds: Math.round(this.timing.graceMs / 1000),
      rematchOf: race.rematchOf === null ? null : await this.codeOf({ raceId: race.rematchOf }),
      rematch: finished ? await this.rematchOf(race.id, entries) : null,
    };
  }

  /** The rematch of a finished race, once someone asked for it. */
  private async rematchOf(raceId: number, entries: readonly RacerRow[]): Promise<RaceView['rematch']> {
    const next = await this.store.rematchOf(raceId);
    if (!next) return null;
    const answered = (answer: string) => entries.filter((entry) => entry.rematch === answer).map((entry) => entry.id);
    return { code: next.code, accepted: answered('accepted'), declined: answered('declined') };
  }

  /** The game `playerId` plays in race `code`, once dealt. */
  gameOf(code: string, playerId: number): Pending<LiveGame | undefined> {
    return after(this.find(code), (race) =>
      race === undefined ? undefined : after(this.store.gameIdOf(race.id, playerId), (id) => (id === undefined ? undefined : this.games.current(id))),
    );
  }

  /** The code of the race a game belongs to, or null. */
  codeOf(game: { raceId: number | null }): Pending<string | null> {
    const { raceId } = game;
    if (raceId === null) return null;
    const code = this.codes.get(raceId);
    if (code !== undefined) return code;
    return after(this.store.byId(raceId), (race) => {
      if (!race) return null;
      this.codes.set(raceId, race.code);
      return race.code;
    });
  }

  private armCountdown(race: RaceRow): void {
    this.armDeal(race.id, race.startsAt! - this.clock.now());
  }

  /** The deal at the end of the countdown; a deal the storage refuses is tried again until it is stored. */
  private armDeal(raceId: number, ms: number): void {
    this.countdowns.get(raceId)?.();
    const timer = this.owner.clock.setTimer(ms, () => {
      const dealt = recovering(
        () => this.deal(raceId),
        (error) => {
          // The seats' unique key: the race was dealt already (by an owner whose lease ran out meanwhile).
          if (this.games.isDuplicate(error)) return;
          const code = this.games.storageFailure(error);
          this.log.error({ err: error, code, raceId }, code ? 'cannot store the deal: retrying' : 'cannot deal the race');
          if (code !== undefined) this.armDeal(raceId, STORAGE_RETRY_MS);
        },
      );
      // Held until the deal is stored: a rescan meanwhile, reading the race still in countdown, leaves it alone.
      void after(dealt, () => releaseTimer(this.countdowns, raceId, timer));
    });
    this.countdowns.set(raceId, timer);
  }

  /** Finishes the race if it is done; when the storage refuses the standings, tries again later. */
  private async finishOrRetry(raceId: number): Promise<void> {
    try {
      await this.finishIfDone(raceId);
    } catch (error) {
      const code = this.games.storageFailure(error);
      if (code === undefined) {
        this.log.error({ err: error, raceId }, 'cannot finish the race');
        return;
      }
      this.log.error({ err: error, code, raceId }, 'cannot store the standings: retrying');
      const cancel = this.clock.setTimer(STORAGE_RETRY_MS, () => {
        this.retries.delete(cancel);
        void this.finishOrRetry(raceId);
      });
      this.retries.add(cancel);
    }
  }

  /** The countdown is over: every racer's game is dealt from the race seed and sent in the same tick. */
  // In `after` steps, not async: on SQLite the games are dealt and sent in the timer's own turn.
  private deal(raceId: number): Pending<void> {
    return after(this.store.byId(raceId), (race) => {
      if (!race || race.state !== 'countdown') return;
      const startedAt = race.startsAt!;
      // No race waits forever: without a time limit the hard cap stops it.
      const capAt = race.timeLimitSeconds === null ? startedAt + this.timing.hardCapMs : null;
      const deadline = capAt ?? startedAt + race.timeLimitSeconds! * 1000;
      this.codes.set(raceId, race.code);
      const dealt = after(this.store.entries(raceId), (entries) =>
        this.games.create(
          entries.map((entry) => ({ kind: 'race' as const, playerId: entry.playerId, raceId, variant: race.variant, seed: race.seed, startedAt, deadline })),
          { raceId, capAt },
        ),
      );
      return after(dealt, (dealt) => {
        for (const game of dealt) this.transport.toPlayer(game.playerId, this.games.snapshot(game, race.code));
        return after(this.broadcastView(race.code), () => undefined);
      });
    });
  }

  /**
   * A move's progress waits for the race's next send; a status change (the game ended, its player
   * left or came back) goes at once, after whatever progress was waiting.
   */
  private gameChanged(game: LiveGame, statusChanged: boolean): void {
    const sent = after(this.codeOf(game), (code) => {
      if (code === null) return;
      if (statusChanged) this.progress.urgent(code, game.id, game);
      else this.progress.change(code, game.id, game);
      if (game.state !== 'playing') void this.finishOrRetry(game.raceId!);
    });
    if (sent instanceof Promise) sent.catch((error: unknown) => this.log.error({ err: error, gameId: game.id }, 'cannot tell the race of a game'));
  }

  private presenceChanged(playerId: number): void {
    // At shutdown every socket closes: nobody is left to tell, and the database is closing. With a
    // shared store the games here may be behind: the lifecycle's race view, read from the store, tells.
    if (this.games.closing || this.games.shared) return;
    for (const game of this.games.playingGamesOf(playerId)) {
      if (game.kind === 'race') this.gameChanged(game, true);
    }
  }

  /** Each changed racer's progress as it stands now (a coalesced send carries the latest). */
  private sendProgress(code: string, changed: readonly LiveGame[]): void {
    for (const game of changed) {
      const facts = factsOf(game);
      void recovering(
        () => after(this.nameOf(game.playerId), (name) => this.transport.toRace(code, { type: 'progress', code, progress: this.progressOf(facts, name) })),
        (error) => this.log.error({ err: error, gameId: game.id }, 'cannot send race progress'),
      );
    }
  }

  /** Finishes a running race once none of its games is playing, storing the standings. */
  private async finishIfDone(raceId: number): Promise<void> {
    const race = await this.store.byId(raceId);
    if (!race || race.state !== 'running') return;
    const racers = await this.store.racers(raceId);
    const rows = await this.store.games(raceId);
    const played = racers.flatMap((racer) => {
      const game = rows.find((row) => row.playerId === racer.id);
      return game ? [{ game, name: racer.name }] : [];
    });
    if (played.length === 0 || played.some(({ game }) => game.status === 'playing')) return;
    const finishedAt = Math.max(...played.map(({ game }) => game.finishedAt ?? 0));
    const standings = rankStandings(played.map(({ game, name }) => finisherOf(game, name)));
    // Finished by another instance meanwhile: it told the watchers.
    if (await this.store.finish(raceId, standings, finishedAt)) await this.broadcastView(race.code);
  }

  private progressOf(game: GameFacts, name: string): ProgressView {
    const disconnected = game.status === 'playing' && !this.transport.isConnected(game.playerId);
    return {
      playerId: game.playerId,
      name,
      gameId: game.id,
      foundations: game.foundations,
      cardsLeft: 52 - game.foundations,
      redealsUsed: game.redealsUsed,
      moves: game.moves,
      status: disconnected ? 'disconnected' : game.status,
      finishedAt: game.finishedAt,
    };
  }

  private nameOf(playerId: number): Pending<string> {
    const name = this.names.get(playerId);
    if (name !== undefined) return name;
    return after(this.players.byId(playerId), (player) => {
      this.names.set(playerId, player?.name ?? '');
      return player?.name ?? '';
    });
  }

  /** Tells a race's watchers what happened to its seats (the new view follows). */
  announce(code: string, event: RaceEvent): void {
    this.progress.flush(code);
    this.transport.toRace(code, { type: 'race-event', code, event });
  }

  async broadcastView(code: string): Promise<RaceView> {
    const view = (await this.view(code))!;
    // No progress may arrive after the race view that already holds it.
    this.progress.flush(code);
    this.transport.toRace(code, { type: 'race', race: view, serverTime: this.clock.now() });
    return view;
  }

  find(code: string): Pending<RaceRow | undefined> {
    return this.store.byCode(code);
  }

  async mustFind(code: string): Promise<RaceRow> {
    const race = await this.find(code);
    if (!race) throw new Refusal('unknown-race', `there is no race ${code}`, { params: { race: code } });
    return race;
  }
}

const CLOSED_WORDS = {
  cancelled: 'its creator cancelled it',
  expired: 'it was not started in time',
  empty: 'everyone left it',
} as const;

const closedError = (race: RaceRow): Refusal =>
  new Refusal('race-closed', `race ${race.code} is closed: ${CLOSED_WORDS[race.closedReason ?? 'empty']}`, { params: { race: race.code, reason: race.closedReason ?? 'empty' } });

const finisherOf = (game: GameRow, name: string): Finisher => ({
  playerId: game.playerId,
  name,
  gameId: game.id,
  state: game.status,
  foundations: game.foundations,
  finishedAt: game.finishedAt,
});

const factsOf = (game: LiveGame): GameFacts => ({
  id: game.id,
  playerId: game.playerId,
  status: game.state,
  foundations: game.position.foundationCount(),
  redealsUsed: game.position.redealsUsed,
  moves: game.actions.length,
  finishedAt: game.finishedAt,
});
