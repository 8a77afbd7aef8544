/**
 * Races: lobby, start, countdown, the simultaneous deal, standings, rematches. The rules of each
 * change are the state machine's (machine.ts); this service reads the race, stores the change
 * the machine answers (conditionally: of two instances one makes it) and runs its effects
 * (effects.ts). Games themselves change only through GameService; a race hears of their moves
 * for progress and of their end, as a domain event, to finish.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { VARIANTS, type VariantId } from '../../shared/index.js';
import { MAX_SEATS, type PlayerView, type RaceOptions, type RaceView } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../errors.js';
import type { DomainEvents } from '../events.js';
import { snapshotOf, type LiveGame } from '../games/live-game.js';
import type { GameService } from '../games/service.js';
import { after, type DeadlineHandler, type Pending, type Scheduler, type Transport } from '../ports.js';
import { freshShareCode } from '../share-code.js';
import type { NewRace, PlayerStore, RaceRow, RaceStore, RatingStore } from '../stores.js';
import { GRACE_PERIOD, LOBBY_LIMIT, RACE_DEAL, RACE_STANDINGS, RaceEffects } from './effects.js';
import { RaceLifecycle, type LifecycleRules } from './lifecycle.js';
import { closedRefusal, stepRace } from './machine.js';
import { finisherOf, RaceViews } from './views.js';

/** Where play can cycle (super-flower-garden, shamrocks, fan-reserve) a game may never end by itself: such a race always has a limit. */
export const CYCLING_TIME_LIMIT_SECONDS = 30 * 60;

/**
 * A race's watchers get its progress at most this often: one message holding every racer who
 * moved, each at their latest. Chosen for people: an opponent's count moving within a fifth of a
 * second reads as live (nobody watching can tell when the other player's card really moved, and
 * it is faster than a glance from one's own board to the others'), while a race of 8 at human pace
 * (about a move a second each) fills a window with one or two moves: each watcher gets about 4
 * messages a second instead of one per move (8), and each message is a socket write. A player's
 * own moves never wait (their acks), nor does a status change (finished, left, back).
 */
export const PROGRESS_INTERVAL_MS = 200;

export interface RaceTiming extends LifecycleRules {
  /** From start to deal. */
  countdownMs: number;
  /** Progress per race at most this often; 0 sends every move's at once. */
  progressIntervalMs: number;
}

export interface RaceParts {
  readonly store: RaceStore;
  readonly players: PlayerStore;
  /** Where a rated race's rating changes are read for its view. */
  readonly ratings: RatingStore;
  readonly games: GameService;
  readonly transport: Transport;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly events: DomainEvents;
  readonly scheduler: Scheduler;
  readonly timing: RaceTiming;
}

export class RaceService {
  private readonly store: RaceStore;
  private readonly games: GameService;
  private readonly transport: Transport;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly scheduler: Scheduler;
  private readonly timing: RaceTiming;
  private readonly views: RaceViews;
  private readonly effects: RaceEffects;
  /** Presence, grace periods, leaving and closing: what ends races and lobbies nobody ends. */
  private readonly lifecycle: RaceLifecycle;

  constructor(parts: RaceParts) {
    ({ store: this.store, games: this.games, transport: this.transport, clock: this.clock, log: this.log, scheduler: this.scheduler, timing: this.timing } = parts);
    const { players, ratings, transport, events } = parts;
    this.views = new RaceViews(this.store, players, ratings, transport, this.clock, this.log, this.timing);
    this.effects = new RaceEffects(this.store, this.views, this.scheduler, events);
    this.games.onChange((game) => this.views.gameChanged(game, game.state !== 'playing'));
    events.on('game-ended', ({ raceId }) => {
      if (raceId !== null) void this.finishOrRetry(raceId);
    });
    // Its watchers see each racer's rating change once it is stored.
    events.on('race-rated', ({ raceId }) => void this.broadcastRace(raceId));
    transport.onPresence((playerId) => this.presenceChanged(playerId));
    // After the listener above: a leaver's progress goes before the race view that shows them reconnecting.
    this.lifecycle = new RaceLifecycle({ ...parts, rules: this.timing, views: this.views, effects: this.effects });
  }

  /** The deadlines races keep, by kind, for the scheduler; and what a takeover catches up on. */
  deadlines(): { kinds: Record<string, DeadlineHandler>; takeOver: () => Promise<void> } {
    const deals: DeadlineHandler = {
      due: (key) => this.dealOrDrop(Number(key)),
      stored: () => after(this.store.inState('countdown'), (races) => races.map((race) => ({ key: String(race.id), at: race.startsAt! }))),
    };
    const standings: DeadlineHandler = {
      due: (key) => this.finishIfDone(Number(key)),
      // Their last game ended on an instance that died before storing the standings.
      stored: () => after(this.store.doneRunning(), (races) => races.map((race) => ({ key: String(race.id), at: 0 }))),
    };
    const kinds = { [RACE_DEAL]: deals, [RACE_STANDINGS]: standings, [LOBBY_LIMIT]: this.lifecycle.lobbyLimits, [GRACE_PERIOD]: this.lifecycle.gracePeriods };
    return { kinds, takeOver: () => this.lifecycle.takeOver() };
  }

  /** Progress still waiting is sent. */
  close(): void {
    this.views.close();
  }

  async create(creator: PlayerView, options: Omit<RaceOptions, 'listed'> & { listed?: boolean; rematchOf?: number }): Promise<RaceView> {
    const now = this.clock.now();
    const code = await freshShareCode((code) => this.store.byCode(code));
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
        rated: options.rated,
        listed: options.listed ?? false,
      },
      now,
    );
    await this.lifecycle.seated(await this.mustFind(code), creator.id);
    return (await this.views.view(code))!;
  }

  /**
   * A quick race's row, for the pool to store with its seats in one transaction (PoolStore.form):
   * rated, listed (anyone may watch it), its countdown running from now, `creatorId` first seated.
   */
  async quickRace(variant: VariantId, creatorId: number): Promise<NewRace> {
    const now = this.clock.now();
    return {
      code: await freshShareCode((code) => this.store.byCode(code)),
      variant,
      seats: MAX_SEATS,
      timeLimitSeconds: VARIANTS[variant].canCycle ? CYCLING_TIME_LIMIT_SECONDS : null,
      seed: randomBytes(18).toString('base64url'),
      state: 'countdown',
      creatorId,
      createdAt: now,
      startsAt: now + this.timing.countdownMs,
      listed: true,
      rated: true,
    };
  }

  /** A race the pool stored counting down: its deal armed and its view told; its code. */
  async formed(raceId: number): Promise<string> {
    const race = (await this.store.byId(raceId))!;
    await this.effects.run(race, [{ type: 'arm-deal', at: race.startsAt! }, { type: 'broadcast' }]);
    return race.code;
  }

  async join(player: PlayerView, code: string): Promise<RaceView> {
    const race = await this.mustFind(code);
    const seated = await this.store.entries(race.id);
    if (seated.some((entry) => entry.playerId === player.id)) return (await this.views.view(code))!;
    if (race.state === 'closed') throw closedRefusal(race);
    if (race.state !== 'lobby') throw new Refusal('race-started', `race ${code} has started: you can watch it`, { params: { race: code } });
    if (seated.length >= race.seats) throw new Refusal('race-full', `race ${code} is full (${race.seats} seats): you can watch it`, { params: { race: code, seats: race.seats } });
    // After the last seat taken, whoever left before: seat order stays join order.
    await this.store.seat(race.id, player.id, Math.max(0, ...seated.map((entry) => entry.seat)) + 1, this.clock.now());
    await this.lifecycle.seated(race, player.id);
    return this.views.broadcastView(code);
  }

  async start(player: PlayerView, code: string): Promise<RaceView> {
    const race = await this.mustFind(code);
    const seated = race.state === 'lobby' ? (await this.store.entries(race.id)).length : 0;
    const step = stepRace(race, { type: 'start', by: player.id, seated, at: this.clock.now(), countdownMs: this.timing.countdownMs })!;
    if (step instanceof Refusal) throw step;
    // A lobby closed (its limit, another instance) or started since it was read above is not started again.
    if (!(await this.store.transition(race.id, step.from, step.change))) throw new Refusal('not-in-lobby', `race ${code} is no longer a lobby`, { params: { race: code } });
    await this.effects.run(race, step.effects.filter((effect) => effect.type !== 'broadcast'));
    return this.views.broadcastView(code);
  }

  /** Frees `player`'s lobby seat at their own request; the race as it is now. */
  async leave(player: PlayerView, code: string): Promise<RaceView> {
    await this.lifecycle.leave(player, await this.mustFind(code));
    return (await this.views.view(code))!;
  }

  /** The creator removes a racer from the lobby. */
  async kick(creator: PlayerView, code: string, playerId: number): Promise<RaceView> {
    await this.lifecycle.kick(creator, await this.mustFind(code), playerId);
    return (await this.views.view(code))!;
  }

  /** The creator cancels the lobby. */
  async cancel(creator: PlayerView, code: string): Promise<RaceView> {
    await this.lifecycle.cancel(creator, await this.mustFind(code));
    return (await this.views.view(code))!;
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
        await this.create(player, { variant: race.variant, seats: race.seats, timeLimitSeconds: race.timeLimitSeconds, rated: race.rated, listed: race.listed, rematchOf: race.id });
      } else {
        await this.join(player, next.code);
      }
    } else if (next?.state === 'lobby' && (await this.store.entry(next.id, player.id))) {
      await this.lifecycle.leave(player, next);
    }
    await this.store.updateEntry(race.id, player.id, { rematch: answer === 'accept' ? 'accepted' : 'declined' });
    this.views.announce(code, { kind: 'rematch', player, at: this.clock.now() });
    return this.views.broadcastView(code);
  }

  /** The public view of a race, or undefined when the code is unknown. */
  view(code: string): Promise<RaceView | undefined> {
    return this.views.view(code);
  }

  /** The game `playerId` plays in race `code`, once dealt. */
  gameOf(code: string, playerId: number): Pending<LiveGame | undefined> {
    return after(this.find(code), (race) =>
      race === undefined ? undefined : after(this.store.gameIdOf(race.id, playerId), (id) => (id === undefined ? undefined : this.games.current(id))),
    );
  }

  /** The code of the race a game belongs to, or null. */
  codeOf(game: { raceId: number | null }): Pending<string | null> {
    return this.views.codeOf(game);
  }

  find(code: string): Pending<RaceRow | undefined> {
    return this.store.byCode(code);
  }

  async mustFind(code: string): Promise<RaceRow> {
    const race = await this.find(code);
    if (!race) throw new Refusal('unknown-race', `there is no race ${code}`, { params: { race: code } });
    return race;
  }

  /** A deal refused by the seats' unique key was made already (by an owner whose lease ran out meanwhile). */
  private dealOrDrop(raceId: number): Pending<void> {
    const dealt = after(this.deal(raceId), () => undefined);
    if (!(dealt instanceof Promise)) return dealt;
    return dealt.catch((error: unknown) => {
      if (!this.games.isDuplicate(error)) throw error;
    });
  }

  /** The countdown is over: every racer's game is dealt from the race seed and sent in the same tick. */
  // In `after` steps, not async: on SQLite the games are dealt and sent in the timer's own turn.
  private deal(raceId: number): Pending<void> {
    return after(this.store.byId(raceId), (race) => {
      if (race?.state !== 'countdown') return;
      return after(this.store.entries(raceId), (entries) => this.dealRace(race, entries.map((entry) => entry.playerId)));
    });
  }

  /** Deals `race` to `racers` (player ids in seat order), or closes it when the machine says (a rated race nobody stayed for). */
  private dealRace(race: RaceRow, racers: readonly number[]): Pending<void> {
    const present = racers.filter((playerId) => this.transport.isConnected(playerId)).length;
    const step = stepRace(race, { type: 'deal', hardCapMs: this.timing.hardCapMs, present, at: this.clock.now() });
    if (!step || step instanceof Refusal) return;
    if (step.deal === undefined) return after(this.store.transition(race.id, step.from, step.change), (changed) => (changed ? this.effects.run(race, step.effects) : undefined));
    const { startedAt, capAt, deadline } = step.deal;
    const rows = racers.map((playerId) => ({ kind: 'race' as const, playerId, raceId: race.id, variant: race.variant, seed: race.seed, startedAt, deadline }));
    return after(this.games.create(rows, { raceId: race.id, capAt }), (dealt) => {
      for (const game of dealt) this.transport.toPlayer(game.playerId, snapshotOf(game, race.code));
      return this.effects.run(race, step.effects);
    });
  }

  /** Finishes the race if it is done; when the storage refuses the standings, the scheduler tries again. */
  private async finishOrRetry(raceId: number): Promise<void> {
    try {
      await this.finishIfDone(raceId);
    } catch (error) {
      if (this.games.storageFailure(error) === undefined) return this.log.error({ err: error, raceId }, 'cannot finish the race');
      this.log.error({ err: error, raceId }, 'cannot store the standings: retrying');
      this.scheduler.stored(RACE_STANDINGS, String(raceId), this.clock.now());
    }
  }

  /** Finishes a running race once none of its games is playing, storing the standings. */
  private async finishIfDone(raceId: number): Promise<void> {
    const race = await this.store.byId(raceId);
    if (!race || race.state !== 'running') return;
    const racers = await this.store.racers(raceId);
    const rows = await this.store.games(raceId);
    const games = racers.flatMap((racer) => {
      const game = rows.find((row) => row.playerId === racer.id);
      return game ? [finisherOf(game, racer.name)] : [];
    });
    const step = stepRace(race, { type: 'game-ended', games });
    if (!step || step instanceof Refusal) return;
    // Finished by another instance meanwhile: it told the watchers, and emitted the event.
    if (await this.store.finish(raceId, step.standings!, step.change.finishedAt!)) await this.effects.run(race, step.effects);
  }

  private async broadcastRace(raceId: number): Promise<void> {
    try {
      const code = await this.views.codeOf({ raceId });
      if (code !== null) await this.views.broadcastView(code);
    } catch (error) {
      this.log.error({ err: error, raceId }, 'cannot send the rated race');
    }
  }

  private presenceChanged(playerId: number): void {
    // At shutdown every socket closes: nobody is left to tell, and the database is closing. With a
    // shared store the games here may be behind: the lifecycle's race view, read from the store, tells.
    if (this.games.closing || this.games.shared) return;
    for (const game of this.games.playingGamesOf(playerId)) {
      if (game.kind === 'race') this.views.gameChanged(game, true);
    }
  }
}
