/**
 * Ratings: a rated race's standings move its racers' ratings in its variant, once. The
 * race-finished event asks the scheduler for it (a "deadline" due at once, run where the timers
 * run); the timer owner's takeover and rescans find any finished rated race still unapplied (its
 * instance died between storing the standings and the ratings), so every one is applied, and the
 * store's rated-race key makes a second application change nothing. Here they are applied one
 * at a time, in the order asked.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PlayerView, RatingBoardAnswer, RatingHistoryAnswer, RatingView } from '../../contract/index.js';
import type { VariantId } from '../../shared/index.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../errors.js';
import type { DomainEvents } from '../events.js';
import { after, type DeadlineHandler, type Pending, type Scheduler } from '../ports.js';
import { competitionRanks } from '../standings.js';
import type { PlayerStore, RankedRacer, RatingChangeRow, RatingRow, RatingStep, RatingStore } from '../stores.js';
import { displayRating, INITIAL_RATING, isProvisional, NEWCOMER, PROVISIONAL_SIGMA, rateRace, ratingView, type Rating } from './model.js';

/** The scheduler's kind for "this race's ratings are due". */
export const RACE_RATING = 'race-rating';
/** The leaderboard lists players whose last rated race in the variant finished this recently. */
export const ACTIVE_DAYS = 30;
export const BOARD_SIZE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RatingParts {
  readonly store: RatingStore;
  readonly players: PlayerStore;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly events: DomainEvents;
  readonly scheduler: Scheduler;
  /** The identities an operator has banned now: their races are rated as if they never raced. */
  readonly banned: () => Pending<readonly number[]>;
}

/** The model's step for each racer, from their stored rating (a newcomer's is the initial one). */
export function stepsOf(racers: readonly Pick<RankedRacer, 'rank' | 'before' | 'playerId'>[]): RatingStep[] {
  const before = racers.map((racer): Rating => (racer.before ? { mu: racer.before.mu, sigma: racer.before.sigma } : INITIAL_RATING));
  const moved = rateRace(racers.map((racer, i) => ({ playerId: racer.playerId, rank: racer.rank, before: before[i]! })));
  return moved.map((rating, i) => ({ before: before[i]!, after: rating }));
}

export class RatingService {
  private readonly store: RatingStore;
  private readonly players: PlayerStore;
  private readonly clock: Clock;
  private readonly events: DomainEvents;
  /** Applications and recomputations here, one after the other. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(parts: RatingParts) {
    ({ store: this.store, players: this.players, clock: this.clock, events: this.events } = parts);
    const { events, scheduler, clock, log, banned } = parts;
    events.on('race-finished', ({ raceId, rated }) => {
      if (rated) scheduler.stored(RACE_RATING, String(raceId), clock.now());
    });
    // A ban (or its lifting) rates again, without whoever is banned now, the variants the player
    // has rated races in: the others' ratings hold no race of theirs and would come out the same.
    const rerate = ({ playerId }: { playerId: number }): void => {
      void (async () => {
        const excluded = new Set(await banned());
        for (const variant of await this.store.variantsRacedBy(playerId)) await this.recompute(variant, excluded);
      })().catch((error: unknown) => log.error({ err: error, playerId }, 'ratings not recomputed after a ban'));
    };
    events.on('player-banned', rerate);
    events.on('player-unbanned', rerate);
  }

  /** For the scheduler: a race's ratings are due; and every finished rated race not applied yet. */
  deadlines(): DeadlineHandler {
    return {
      due: (key) => this.apply(Number(key)).then(() => undefined),
      stored: () => after(this.store.unapplied(), (races) => races.map((race) => ({ key: String(race.id), at: 0 }))),
    };
  }

  /** Applies a finished rated race's ratings unless they are already; whether it did. */
  apply(raceId: number): Promise<boolean> {
    return this.serially(async () => {
      const applied = await this.store.apply(raceId, this.clock.now(), stepsOf);
      if (applied) this.events.emit({ type: 'race-rated', raceId });
      return applied;
    });
  }

  /** A player's rating in a variant (a newcomer's when never rated in it): what the pool pairs by. */
  async ratingOf(playerId: number, variant: VariantId): Promise<RatingView> {
    const row = (await this.store.ofPlayer(playerId)).find((rating) => rating.variant === variant);
    return row ? ratingView(row) : NEWCOMER;
  }

  /** A player's ratings by variant, for the variants they were rated in. */
  async ratingsOf(playerId: number): Promise<Map<VariantId, RatingView>> {
    return new Map((await this.store.ofPlayer(playerId)).map((row) => [row.variant, ratingView(row)]));
  }

  /** A player's displayed rating after each rated race, per variant. */
  async history(playerId: number): Promise<RatingHistoryAnswer> {
    const player = await this.mustFind(playerId);
    const byVariant = new Map<VariantId, RatingHistoryAnswer['variants'][number]['points']>();
    for (const change of await this.store.changesOfPlayer(playerId)) {
      const points = byVariant.get(change.variant) ?? [];
      points.push({ race: change.code, at: change.at, before: displayRating(change.muBefore), after: displayRating(change.muAfter), provisional: isProvisional(change.sigmaAfter) });
      byVariant.set(change.variant, points);
    }
    return { player, variants: [...byVariant].map(([variant, points]) => ({ variant, points })) };
  }

  /** The settled ratings of a variant's players active in the last ACTIVE_DAYS, best first; equal displayed ratings share a rank. */
  async board(variant: VariantId): Promise<RatingBoardAnswer> {
    const activeSince = this.clock.now() - ACTIVE_DAYS * DAY_MS;
    const rows = await this.store.board(variant, activeSince, PROVISIONAL_SIGMA, BOARD_SIZE);
    const shown = rows.map((row) => displayRating(row.mu));
    const ranks = competitionRanks(shown.map((rating) => -rating));
    return {
      variant,
      activeSince,
      entries: rows.map((row, i) => ({ rank: ranks[i]!, player: { id: row.playerId, name: row.name }, rating: shown[i]!, games: row.games })),
    };
  }

  /**
   * Rates a variant again from its applied races, as if the `excluded` players (banned, say) had
   * never raced: the others keep their order in each race (a shared rank stays shared). Every
   * rating and change of the variant is replaced in one transaction; the excluded are left unrated.
   */
  recompute(variant: VariantId, excluded: ReadonlySet<number>): Promise<void> {
    return this.serially(async () => {
      const seats = (await this.store.appliedRaces(variant)).filter((seat) => !excluded.has(seat.playerId));
      const races = new Map<number, typeof seats>();
      for (const seat of seats) races.set(seat.raceId, [...(races.get(seat.raceId) ?? []), seat]);
      const current = new Map<number, RatingRow>();
      const changes: RatingChangeRow[] = [];
      for (const [raceId, racers] of races) {
        const at = racers[0]!.finishedAt;
        // Ranks closed up over the racers left: 1 + how many finished strictly ahead.
        const ranked = racers.map((racer) => ({ playerId: racer.playerId, rank: 1 + racers.filter((other) => other.rank < racer.rank).length, before: current.get(racer.playerId) }));
        if (ranked.length < 2) continue;
        for (const [i, { before, after: moved }] of stepsOf(ranked).entries()) {
          const { playerId } = ranked[i]!;
          current.set(playerId, { playerId, variant, mu: moved.mu, sigma: moved.sigma, games: (current.get(playerId)?.games ?? 0) + 1, updatedAt: at });
          changes.push({ raceId, playerId, variant, muBefore: before.mu, sigmaBefore: before.sigma, muAfter: moved.mu, sigmaAfter: moved.sigma, at });
        }
      }
      await this.store.replace(variant, [...current.values()], changes);
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async mustFind(playerId: number): Promise<PlayerView> {
    const player = await this.players.byId(playerId);
    if (!player) throw new Refusal('unknown-player', `there is no player ${playerId}`, { field: 'id', params: { player: playerId } });
    return player;
  }
}
