/**
 * The daily deal: one `strict` seed per UTC day, an HMAC of the day under a server secret, so
 * nobody can deal a day before it opens; one ranked attempt per player and day; the day's
 * leaderboard. Attempts are games like any other: created, played, stored and acknowledged by
 * GameService. An attempt still playing when its day ends is stopped then as `timed-out` (its
 * deadline), so once the day is over its seed and everyone's moves can be shown with nothing
 * left to copy them into.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { VariantId } from '../shared/index.js';
import { DAY_MS, dayOf, dayStart, type DailyAttempt, type DailyView, type LeaderboardEntry, type LeaderboardView, type Page, type PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import { Refusal } from './errors.js';
import type { DomainEvents } from './events.js';
import { after, type DeadlineHandler, type Pending, type Scheduler } from './ports.js';
import type { LiveGame } from './games/live-game.js';
import type { GameService } from './games/service.js';
import { competitionRanks, firstRankKey } from './standings.js';
import type { DailyStore, GameRow } from './stores.js';

export const DAILY_VARIANT: VariantId = 'strict';
/** The scheduler's kind of deadline for the end of a day. */
export const DAILY_CLOSE = 'daily-close';
/** Versioned, like the deal algorithm: changing how a day's seed is made must change this. */
const DAILY_SEED_SCHEME = 'lucie-daily/1';

/** The seed of a day: readable, with 128 bits only the holder of the secret can compute. */
export function dailySeed(secret: string, day: string): string {
  const mac = createHmac('sha256', secret).update(`${DAILY_SEED_SCHEME} ${DAILY_VARIANT} ${day}`).digest('base64url');
  return `daily-${day}-${mac.slice(0, 22)}`;
}

/** The daily seeds' secret: made from crypto randomness on first start and kept in the database. */
export function storedDailySecret(store: DailyStore, now: number): Pending<string> {
  return store.secret(randomBytes(32).toString('base64url'), now);
}

/**
 * A day's leaderboard: finished attempts by cards home, then time, then who finished first.
 * Ranks come from the stored tallies and rank keys, never from reading every attempt.
 */
export class Leaderboard {
  constructor(private readonly store: DailyStore) {}

  /** A page of a day's board with its counts and the attempt of `playerId`, wherever it stands. */
  async view(day: string, page: Page, playerId: number | null, open: boolean): Promise<LeaderboardView> {
    const { finished, playing } = await this.counts(day);
    const row = playerId === null ? undefined : await this.store.attempt(playerId, day);
    return {
      day,
      open,
      total: finished,
      playing,
      limit: page.limit,
      offset: page.offset,
      entries: await this.page(day, page),
      me: row ? await this.attempt(row) : null,
    };
  }

  /** Finished attempts of a day, and attempts still being played. */
  async counts(day: string): Promise<{ finished: number; playing: number }> {
    return { finished: await this.store.finished(day), playing: await this.store.playing(day) };
  }

  /** Finished attempts ranked ahead of a result with this rank key (its rank is this + 1). */
  async ahead(day: string, foundations: number, rankKey: number): Promise<number> {
    return (await this.store.moreCards(day, foundations)) + (await this.store.rankKeysBetween(day, firstRankKey(foundations), rankKey));
  }

  /** One page of the board, ranked. */
  async page(day: string, { limit, offset }: Page): Promise<LeaderboardEntry[]> {
    const rows = await this.store.page(day, limit, offset);
    const first = rows[0];
    if (!first) return [];
    const firstRank = offset === 0 ? 1 : (await this.ahead(day, first.foundations, first.rankKey!)) + 1;
    const ranks = competitionRanks(
      rows.map((row) => row.rankKey!),
      offset,
      firstRank,
    );
    return rows.map((row, i) => ({
      rank: ranks[i]!,
      playerId: row.playerId,
      name: row.name,
      gameId: row.gameId,
      state: row.state,
      foundations: row.foundations,
      elapsedMs: row.finishedAt! - row.startedAt,
      finishedAt: row.finishedAt!,
    }));
  }

  /** The player's view of their own attempt, with its place on the board once finished. */
  async attempt(row: GameRow): Promise<DailyAttempt> {
    const finished = row.rankKey !== null && row.finishedAt !== null;
    const ahead = finished ? await this.ahead(row.day!, row.foundations, row.rankKey!) : null;
    return {
      gameId: row.id,
      state: row.status,
      foundations: row.foundations,
      moves: row.moves,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      elapsedMs: finished ? row.finishedAt! - row.startedAt : null,
      rank: ahead === null ? null : ahead + 1,
      position: ahead === null ? null : ahead + (await this.store.tiedBefore(row.day!, row.rankKey!, row.id)),
    };
  }
}

/** Today's attempt of a player, and whether this call dealt it. */
export interface DailyStart {
  day: string;
  game: LiveGame;
  created: boolean;
}

export class DailyService {
  readonly board: Leaderboard;

  constructor(
    private readonly store: DailyStore,
    private readonly games: GameService,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly events: DomainEvents,
    private readonly scheduler: Pick<Scheduler, 'arm'>,
  ) {
    this.board = new Leaderboard(store);
  }

  /**
   * The end of each day as a kind of the scheduler's deadlines, keyed by the day: at 00:00 UTC
   * the day just over is announced closed (its attempts still playing end by their own
   * deadline, the same moment) and the next day's end is armed.
   */
  readonly dayCloses: DeadlineHandler = {
    due: (day) => {
      const next = dayOf(dayStart(day) + DAY_MS);
      this.scheduler.arm(DAILY_CLOSE, next, dayStart(next) + DAY_MS);
      this.events.emit({ type: 'daily-closed', day });
    },
    stored: () => [{ key: this.today(), at: dayStart(this.today()) + DAY_MS }],
  };

  today(): string {
    return dayOf(this.clock.now());
  }

  /** Over: its seed and every attempt's moves are public. */
  isOver(day: string): boolean {
    return this.clock.now() >= dayStart(day) + DAY_MS;
  }

  async view(day: string, player: PlayerView | null): Promise<DailyView> {
    this.mustHaveOpened(day);
    const opensAt = dayStart(day);
    const over = this.isOver(day);
    const row = player && (await this.store.attempt(player.id, day));
    return {
      day,
      variant: DAILY_VARIANT,
      opensAt,
      closesAt: opensAt + DAY_MS,
      open: !over,
      seed: over ? await this.seedOf(day) : null,
      ...(await this.board.counts(day)),
      me: row ? await this.board.attempt(row) : null,
    };
  }

  /**
   * Today's attempt of `player`: dealt on the first call, the same game on every later call while
   * it is being played (a reload, a second tab), refused once it has ended.
   */
  async start(player: PlayerView): Promise<DailyStart> {
    const day = this.today();
    const opensAt = dayStart(day);
    const seed = await this.seedOf(day);
    // The unique index on (player, day) decides, even between two requests or two processes:
    // there is no window between a check and the insert.
    try {
      const [game] = await this.games.create([
        { kind: 'daily', playerId: player.id, day, variant: DAILY_VARIANT, seed, startedAt: this.clock.now(), deadline: opensAt + DAY_MS },
      ]);
      return { day, game: game!, created: true };
    } catch (error) {
      if (!this.games.isDuplicate(error)) throw error;
    }
    const row = await this.store.attempt(player.id, day);
    const game = (await this.games.get(row!.id))!;
    if (game.state !== 'playing') {
      const cards = game.position.foundationCount();
      throw new Refusal(
        'daily-played',
        `you have played the daily deal of ${day} already (${game.state}, ${cards} cards home): one attempt a day; the next deal opens at 00:00 UTC`,
        { params: { day, state: game.state, foundations: cards } },
      );
    }
    return { day, game, created: false };
  }

  leaderboard(day: string, page: Page, player: PlayerView | null): Promise<LeaderboardView> {
    this.mustHaveOpened(day);
    return this.board.view(day, page, player?.id ?? null, !this.isOver(day));
  }

  /** The rank of a finished attempt on its day's board. */
  async rankOf(row: GameRow): Promise<number | null> {
    return row.day === null || row.rankKey === null ? null : (await this.board.ahead(row.day, row.foundations, row.rankKey)) + 1;
  }

  /**
   * A day's seed is fixed by its first attempt: a changed secret (DAILY_SECRET set or unset)
   * never deals a day being played differently, nor reveals a seed other than the one used.
   */
  private seedOf(day: string): Pending<string> {
    return after(this.store.storedSeed(day), (stored) => stored ?? dailySeed(this.secret, day));
  }

  private mustHaveOpened(day: string): void {
    if (day > this.today()) throw new Refusal('day-not-open', `the daily deal of ${day} has not opened yet (today is ${this.today()} UTC)`, { field: 'day', params: { day, today: this.today() } });
  }
}
