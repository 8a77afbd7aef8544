import { and, asc, eq, gt, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { BoardRow, DailyStore, GameRow } from '../stores.js';
import type { Db } from './index.js';
import { currentGameRow, dailyTallies, games, players, secrets } from './schema.js';

/** The daily board on SQLite, every query prepared once: the leaderboard answers in microseconds. */
export class SqliteDailyStore implements DailyStore {
  private readonly query;

  constructor(private readonly db: Db) {
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
      // Finished attempts per number of cards come from the tallies: no scan of the day's games.
      moreCards: db
        .select({ n: sql<number>`coalesce(sum(${dailyTallies.finished}), 0)` })
        .from(dailyTallies)
        .where(and(eq(dailyTallies.day, day), gt(dailyTallies.foundations, sql.placeholder('foundations'))))
        .prepare(),
      rankKeysBetween: db
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
      seed: db.select({ seed: games.seed }).from(games).where(eq(games.day, day)).limit(1).prepare(),
      attempt: db
        .select(currentGameRow)
        .from(games)
        .where(and(eq(games.playerId, sql.placeholder('playerId')), eq(games.day, day)))
        .prepare(),
    };
  }

  secret(made: string, now: number): string {
    this.db.insert(secrets).values({ name: 'daily', value: made, createdAt: now }).onConflictDoNothing().run();
    return this.db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, 'daily')).get()!.value;
  }

  page(day: string, limit: number, offset: number): BoardRow[] {
    return this.query.page.all({ day, limit, offset });
  }

  moreCards(day: string, foundations: number): number {
    return this.query.moreCards.get({ day, foundations })!.n;
  }

  rankKeysBetween(day: string, from: number, rankKey: number): number {
    return this.query.rankKeysBetween.get({ day, from, rankKey })!.n;
  }

  tiedBefore(day: string, rankKey: number, gameId: number): number {
    return this.query.tiedBefore.get({ day, rankKey, gameId })!.n;
  }

  finished(day: string): number {
    return this.query.finished.get({ day })!.n;
  }

  playing(day: string): number {
    return this.query.playing.get({ day })!.n;
  }

  storedSeed(day: string): string | undefined {
    return this.query.seed.get({ day })?.seed;
  }

  attempt(playerId: number, day: string): GameRow | undefined {
    return this.query.attempt.get({ playerId, day });
  }
}
