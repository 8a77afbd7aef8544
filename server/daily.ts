/**
 * The daily deal: one `strict` seed per UTC day, an HMAC of the day under a server secret, so
 * nobody can deal a day before it opens; one ranked attempt per player and day; the day's
 * leaderboard. Attempts are games like any other: created, played, stored and acknowledged by
 * GameService. An attempt still playing when its day ends is stopped then as `timed-out` (its
 * deadline), so once the day is over its seed and everyone's moves can be shown with nothing
 * left to copy them into.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { VariantId } from '../shared/index.js';
import { DAY_MS, dayOf, dayStart, type DailyAttempt, type DailyView, type LeaderboardEntry, type LeaderboardView, type Page, type PlayerView } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { Db } from './db/index.js';
import { dailyTallies, games, players, secrets } from './db/schema.js';
import { Refusal } from './errors.js';
import type { GameService, LiveGame } from './games.js';
import { after, recovering, type Pending } from './ports.js';
import { competitionRanks, firstRankKey } from './standings.js';

export const DAILY_VARIANT: VariantId = 'strict';
/** Versioned, like the deal algorithm: changing how a day's seed is made must change this. */
const DAILY_SEED_SCHEME = 'lucie-daily/1';

/** The seed of a day: readable, with 128 bits only the holder of the secret can compute. */
export function dailySeed(secret: string, day: string): string {
  const mac = createHmac('sha256', secret).update(`${DAILY_SEED_SCHEME} ${DAILY_VARIANT} ${day}`).digest('base64url');
  return `daily-${day}-${mac.slice(0, 22)}`;
}

/** The daily seeds' secret: made from crypto randomness on first start and kept in the database. */
export function storedDailySecret(db: Db, now: number): string {
  db.insert(secrets).values({ name: 'daily', value: randomBytes(32).toString('base64url'), createdAt: now }).onConflictDoNothing().run();
  return db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, 'daily')).get()!.value;
}

type GameRow = typeof games.$inferSelect;

/**
 * A day's leaderboard and attempts. The board is the finished attempts in rank-key order
 * (standings.ts), read from the `games_daily_board` index; a rank is the finishers with more
 * cards home (daily_tallies) plus an index count among those with as many, so no query walks the
 * whole day.
 */
export class Leaderboard {
  private readonly query;

  constructor(db: Db) {
    const day = sql.placeholder('day');
    const rankKey = sql.placeholder('rankKey');
    // The page's ids first, from the covering index alone: skipping to a deep offset then reads
    // index entries, not rows and names.
    const pageIds = db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.day, day), isNotNull(games.rankKey)))
      .orderBy(asc(games.rankKey), asc(games.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('page_ids');
    this.query = {
      page: db
        .select({
          gameId: games.id,
          playerId: games.playerId,
          name: players.name,
          state: games.status,
          foundations: games.foundations,
          startedAt: games.startedAt,
          finishedAt: games.finishedAt,
          rankKey: games.rankKey,
        })
        .from(pageIds)
        .innerJoin(games, eq(games.id, pageIds.id))
        .innerJoin(players, eq(players.id, games.playerId))
        .orderBy(asc(games.rankKey), asc(games.id))
        .prepare(),
      moreCards: db
        .select({ n: sql<number>`coalesce(sum(${dailyTallies.finished}), 0)` })
        .from(dailyTallies)
        .where(and(eq(dailyTallies.day, day), gt(dailyTallies.foundations, sql.placeholder('foundations'))))
        .prepare(),
      sameCardsAhead: db
        .select({ n: sql<number>`count(*)` })
        .from(games)
        .where(and(eq(games.day, day), gte(games.rankKey, sql.placeholder('from')), lt(games.rankKey, rankKey)))
        .prepare(),
      tiedBefore: db
        .select({ n: sql<number>`count(*)` })
        .from(games)
        .where(and(eq(games.day, day), eq(games.rankKey, rankKey), sql`${games.id} < ${sql.placeholder('gameId')}`))
        .prepare(),
      finished: db
        .select({ n: sql<number>`coalesce(sum(${dailyTallies.finished}), 0)` })
        .from(dailyTallies)
        .where(eq(dailyTallies.day, day))
        .prepare(),
      playing: db
        .select({ n: sql<number>`count(*)` })
        .from(games)
        .where(and(eq(games.day, day), sql`${games.rankKey} is null`))
        .prepare(),
      seed: db
        .select({ seed: games.seed })
        .from(games)
        .where(eq(games.day, day))
        .limit(1)
        .prepare(),
      attempt: db
        .select()
        .from(games)
        .where(and(eq(games.playerId, sql.placeholder('playerId')), eq(games.day, day)))
        .prepare(),
    };
  }

  /** A page of a day's board with its counts and the attempt of `playerId`, wherever it stands. */
  view(day: string, page: Page, playerId: number | null, open: boolean): LeaderboardView {
    const { finished, playing } = this.counts(day);
    const row = playerId === null ? undefined : this.attemptRow(playerId, day);
    return {
      day,
      open,
      total: finished,
      playing,
      limit: page.limit,
      offset: page.offset,
      entries: this.page(day, page),
      me: row ? this.attempt(row) : null,
    };
  }

  /** Finished attempts of a day, and attempts still being played. */
  counts(day: string): { finished: number; playing: number } {
    return { finished: this.query.finished.get({ day })!.n, playing: this.query.playing.get({ day })!.n };
  }

  /** Finished attempts ranked ahead of a result with this rank key (its rank is this + 1). */
  ahead(day: string, foundations: number, rankKey: number): number {
    return (
      this.query.moreCards.get({ day, foundations })!.n + this.query.sameCardsAhead.get({ day, from: firstRankKey(foundations), rankKey })!.n
    );
  }

  /** One page of the board, ranked. */
  page(day: string, { limit, offset }: Page): LeaderboardEntry[] {
    const rows = this.query.page.all({ day, limit, offset });
    const first = rows[0];
    if (!first) return [];
    const firstRank = offset === 0 ? 1 : this.ahead(day, first.foundations, first.rankKey!) + 1;
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

  /** The seed the day's attempts were dealt from, once there is one. */
  storedSeed(day: string): string | undefined {
    return this.query.seed.get({ day })?.seed;
  }

  /** A player's attempt at a day, as stored (each move updates it in the move's transaction). */
  attemptRow(playerId: number, day: string): GameRow | undefined {
    return this.query.attempt.get({ playerId, day });
  }

  /** The player's view of their own attempt, with its place on the board once finished. */
  attempt(row: GameRow): DailyAttempt {
    const finished = row.rankKey !== null && row.finishedAt !== null;
    const ahead = finished ? this.ahead(row.day!, row.foundations, row.rankKey!) : null;
    return {
      gameId: row.id,
      state: row.status,
      foundations: row.foundations,
      moves: row.moves,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      elapsedMs: finished ? row.finishedAt! - row.startedAt : null,
      rank: ahead === null ? null : ahead + 1,
      position: ahead === null ? null : ahead + this.query.tiedBefore.get({ day: row.day!, rankKey: row.rankKey!, gameId: row.id })!.n,
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
    db: Db,
    private readonly games: GameService,
    private readonly clock: Clock,
    private readonly secret: string,
  ) {
    this.board = new Leaderboard(db);
  }

  today(): string {
    return dayOf(this.clock.now());
  }

  /** Over: its seed and every attempt's moves are public. */
  isOver(day: string): boolean {
    return this.clock.now() >= dayStart(day) + DAY_MS;
  }

  view(day: string, player: PlayerView | null): DailyView {
    this.mustHaveOpened(day);
    const opensAt = dayStart(day);
    const over = this.isOver(day);
    const row = player && this.board.attemptRow(player.id, day);
    return {
      day,
      variant: DAILY_VARIANT,
      opensAt,
      closesAt: opensAt + DAY_MS,
      open: !over,
      seed: over ? this.seedOf(day) : null,
      ...this.board.counts(day),
      me: row ? this.board.attempt(row) : null,
    };
  }

  /**
   * Today's attempt of `player`: dealt on the first call, the same game on every later call while
   * it is being played (a reload, a second tab), refused once it has ended.
   */
  start(player: PlayerView): Pending<DailyStart> {
    const day = this.today();
    const opensAt = dayStart(day);
    // The unique index on (player, day) decides, even between two requests or two processes:
    // there is no window between a check and the insert.
    return recovering<DailyStart>(
      () =>
        after(
          this.games.create([
            {
          kind: 'daily',
          playerId: player.id,
          day,
          variant: DAILY_VARIANT,
          seed: this.seedOf(day),
          startedAt: this.clock.now(),
          deadline: opensAt + DAY_MS,
            },
          ]),
          ([game]) => ({ day, game: game!, created: true }),
        ),
      (error) => {
        if (!this.games.isDuplicate(error)) throw error;
        return after(this.games.get(this.board.attemptRow(player.id, day)!.id), (game) => {
          if (game!.state !== 'playing') {
            const cards = game!.position.foundationCount();
            throw new Refusal(
              'daily-played',
              `you have played the daily deal of ${day} already (${game!.state}, ${cards} cards home): one attempt a day; the next deal opens at 00:00 UTC`,
            );
          }
          return { day, game: game!, created: false };
        });
      },
    );
  }

  leaderboard(day: string, page: Page, player: PlayerView | null): LeaderboardView {
    this.mustHaveOpened(day);
    return this.board.view(day, page, player?.id ?? null, !this.isOver(day));
  }

  /** The rank of a finished attempt on its day's board. */
  rankOf(row: GameRow): number | null {
    return row.day === null || row.rankKey === null ? null : this.board.ahead(row.day, row.foundations, row.rankKey) + 1;
  }

  /**
   * A day's seed is fixed by its first attempt: a changed secret (DAILY_SECRET set or unset)
   * never deals a day being played differently, nor reveals a seed other than the one used.
   */
  private seedOf(day: string): string {
    return this.board.storedSeed(day) ?? dailySeed(this.secret, day);
  }

  private mustHaveOpened(day: string): void {
    if (day > this.today()) throw new Refusal('day-not-open', `the daily deal of ${day} has not opened yet (today is ${this.today()} UTC)`, { field: 'day' });
  }
}
