/**
 * The quick-race pool: players waiting for a race of one variant, seated together by the pairing
 * rules (pairing.ts) in a rated race that counts down at once. Every entry is stored (one row per
 * player, PoolStore), so any instance takes a player in and the one running the timers pairs
 * everybody: a pass per variant is a stored deadline (kind `pool`, keyed by the variant) of the
 * one scheduler. A race is formed by one transaction that claims every entry it seats, so a pass
 * run twice at once (two owners overlapping for a moment) forms it once, and nobody is seated
 * twice. Who leaves, drops their last socket or waits too long is let go; nobody waits forever.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PlayerView, PoolStatus } from '../../contract/index.js';
import type { VariantId } from '../../shared/index.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../errors.js';
import type { DomainEvents } from '../events.js';
import type { PlayerRatings } from '../player-ratings.js';
import { after, type DeadlineHandler, type Scheduler, type Transport } from '../ports.js';
import type { NewRace, PoolEntryRow, PoolStore, RaceRow, RaceStore } from '../stores.js';
import { nextLook, offersGhost, pairPool, type PoolRules } from './pairing.js';

/** The kind of the pool's stored deadline: one per variant with players waiting. */
export const POOL_PASS = 'pool';

const LIVE = new Set<RaceRow['state']>(['lobby', 'countdown', 'running']);

/** What the pool needs of races: a quick race's row to store, and telling the race it was formed. */
export interface QuickRaces {
  quickRace(variant: VariantId, creatorId: number): Promise<NewRace>;
  formed(raceId: number): Promise<string>;
}

export interface PoolParts {
  readonly store: PoolStore;
  readonly races: RaceStore;
  readonly quickRaces: QuickRaces;
  readonly ratings: PlayerRatings;
  readonly transport: Transport;
  readonly scheduler: Scheduler;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly rules: PoolRules;
  /** Told of each race formed (`quick-race-formed`): how long its racers waited. */
  readonly events: DomainEvents;
}

const NOT_IN_POOL: PoolStatus = { state: 'none', variant: null, waiting: 0, since: null, ghostOffer: false, race: null };

export class PoolService {
  private readonly store: PoolStore;
  private readonly races: RaceStore;
  private readonly quickRaces: QuickRaces;
  private readonly ratings: PlayerRatings;
  private readonly transport: Transport;
  private readonly scheduler: Scheduler;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly rules: PoolRules;
  private readonly events: DomainEvents;

  constructor(parts: PoolParts) {
    ({ store: this.store, races: this.races, quickRaces: this.quickRaces, ratings: this.ratings, transport: this.transport } = parts);
    ({ scheduler: this.scheduler, clock: this.clock, log: this.log, rules: this.rules, events: this.events } = parts);
    this.transport.onPresence((playerId, connected) => {
      if (!connected) void this.gone(playerId);
    });
  }

  /** The pool's passes, one per variant with players waiting, as the scheduler keeps them. */
  readonly passes: DeadlineHandler = {
    due: (variant) => this.pass(variant as VariantId),
    stored: () =>
      after(this.store.waiting(), (entries) => {
        const first = new Map<string, number>();
        for (const entry of entries) if (!first.has(entry.variant)) first.set(entry.variant, entry.joinedAt + this.rules.gatherMs);
        return [...first].map(([key, at]) => ({ key, at }));
      }),
  };

  /** Where `playerId` stands in the pool. */
  async status(playerId: number): Promise<PoolStatus> {
    const entry = await this.store.entry(playerId);
    if (!entry) return NOT_IN_POOL;
    if (entry.raceId !== null) {
      const race = await this.races.byId(entry.raceId);
      return race && LIVE.has(race.state) ? { ...NOT_IN_POOL, state: 'paired', variant: entry.variant, race: race.code } : NOT_IN_POOL;
    }
    const waiting = await this.store.waiting(entry.variant);
    return this.waitingStatus(entry, waiting.length, this.clock.now());
  }

  /**
   * Puts `player` in the pool for `variant`. Joining again for the same variant keeps the place
   * (a second tab does not restart the wait); for another variant it moves there. Refused while
   * they are seated in a live race: each player is in one race at most.
   */
  async join(player: PlayerView, variant: VariantId): Promise<PoolStatus> {
    const seated = await this.races.liveRacesOf(player.id);
    if (seated.length > 0) {
      const code = seated[0]!.code;
      throw new Refusal('pool-paired', `you are seated in race ${code}: play or leave it before a quick race`, { params: { race: code } });
    }
    const before = await this.store.entry(player.id);
    if (!(before && before.raceId === null && before.variant === variant)) {
      await this.store.join({ playerId: player.id, variant, rating: await this.ratings.ratingOf(player.id, variant), joinedAt: this.clock.now() });
      if (before && before.raceId === null) await this.changed(before.variant);
    }
    await this.changed(variant);
    return this.status(player.id);
  }

  /** Takes `player` out of the pool; refused once the pool has seated them in a race that is still on. */
  async leave(player: PlayerView): Promise<PoolStatus> {
    const entry = await this.store.entry(player.id);
    if (!entry) return NOT_IN_POOL;
    if (entry.raceId !== null) {
      const race = await this.races.byId(entry.raceId);
      if (race && LIVE.has(race.state)) throw new Refusal('pool-paired', `the pool has seated you in race ${race.code}: it can no longer be left`, { params: { race: race.code } });
      await this.store.remove(player.id);
      return NOT_IN_POOL;
    }
    if (await this.store.leave(player.id)) await this.changed(entry.variant);
    return this.status(player.id);
  }

  /** Takes a player out whatever they were doing there (a moderator's ban, say), telling them; whether they were waiting. */
  async remove(playerId: number): Promise<boolean> {
    const entry = await this.store.entry(playerId);
    if (!entry || !(await this.store.remove(playerId)) || entry.raceId !== null) return false;
    this.transport.toPlayer(playerId, { type: 'pool', pool: { ...NOT_IN_POOL, state: 'removed', variant: entry.variant } });
    await this.changed(entry.variant);
    return true;
  }

  /**
   * One pass over a variant's pool, where the timers run: those without a socket and those who
   * waited the longest allowed are let go, the groups the rules make are seated, and everyone
   * still waiting hears how many wait; the next pass is armed when something will have changed.
   */
  private async pass(variant: VariantId): Promise<void> {
    const now = this.clock.now();
    for (const entry of await this.store.waiting(variant)) {
      if (!this.transport.isConnected(entry.playerId)) await this.store.leave(entry.playerId);
      else if (now - entry.joinedAt >= this.rules.maxWaitMs && (await this.store.leave(entry.playerId))) {
        this.transport.toPlayer(entry.playerId, { type: 'pool', pool: { ...NOT_IN_POOL, state: 'expired', variant } });
      }
    }
    for (const group of pairPool(await this.store.waiting(variant), now, this.rules)) await this.form(variant, group, now);
    await this.changed(variant, false);
  }

  /** Seats the players of `entries` in a new rated race, unless one of them was taken meanwhile (then the next pass sees them as they are). */
  private async form(variant: VariantId, entries: readonly PoolEntryRow[], now: number): Promise<void> {
    const playerIds = entries.map((entry) => entry.playerId);
    const race = await this.quickRaces.quickRace(variant, playerIds[0]!);
    const raceId = await this.store.form(race, playerIds, now);
    if (raceId === undefined) return;
    this.log.info({ race: race.code, variant, racers: playerIds.length }, 'quick race formed');
    this.events.emit({ type: 'quick-race-formed', raceId, code: race.code, variant, formedAt: now, racers: entries.map(({ playerId, joinedAt }) => ({ playerId, joinedAt })) });
    for (const playerId of playerIds) this.transport.toPlayer(playerId, { type: 'pool', pool: { ...NOT_IN_POOL, state: 'paired', variant, race: race.code } });
    await this.quickRaces.formed(raceId);
  }

  /** Everyone waiting for `variant` hears how many wait; the next pass is stored (armed wherever the timers run). */
  private async changed(variant: VariantId, soon = true): Promise<void> {
    const now = this.clock.now();
    const waiting = await this.store.waiting(variant);
    for (const entry of waiting) this.transport.toPlayer(entry.playerId, { type: 'pool', pool: this.waitingStatus(entry, waiting.length, now) });
    const full = waiting.length >= this.rules.maxRacers;
    // After a join or a leave the pass comes when the longest waiting has gathered (at once when the pool is full).
    const next = soon ? (full ? now : Math.max(now, waiting[0] ? waiting[0].joinedAt + this.rules.gatherMs : now)) : nextLook(waiting, now, this.rules);
    if (waiting.length === 0 || next === null) this.scheduler.cancel(POOL_PASS, variant);
    else if (soon) this.scheduler.stored(POOL_PASS, variant, next);
    else this.scheduler.arm(POOL_PASS, variant, next);
  }

  private waitingStatus(entry: PoolEntryRow, waiting: number, now: number): PoolStatus {
    const ghostOffer = offersGhost(entry, waiting, now, this.rules);
    return { state: 'waiting', variant: entry.variant, waiting, since: entry.joinedAt, ghostOffer, race: null };
  }

  /** A waiting player's last socket closed: where the timers run, they leave the pool (they are told if they come back and ask). */
  private async gone(playerId: number): Promise<void> {
    if (!this.scheduler.runsTimers) return;
    try {
      const entry = await this.store.entry(playerId);
      if (entry && entry.raceId === null && (await this.store.leave(playerId))) await this.changed(entry.variant);
    } catch (error) {
      this.log.warn({ err: error, playerId }, 'cannot take a disconnected player out of the pool: the next pass will');
    }
  }
}
