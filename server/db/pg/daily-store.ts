import { and, asc, eq, gt, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { BoardRow, DailyStore, GameRow } from '../../stores.js';
import type { PgDb } from './index.js';
import { currentGameRow, dailyTallies, games, players, secrets } from './schema.js';

/** PostgreSQL answers counts and sums as bigint and numeric, which node-postgres reads as strings. */
const total = (expression: ReturnType<typeof sql>) => expression.mapWith(Number);

/**
 * The daily board on PostgreSQL, with the same queries as on SQLite; each is served by
 * games_daily_board (rank order, nulls last) or the tallies (`npm run bench -- daily` measures them and prints their plans).
 */
export class PgDailyStore implements DailyStore {
  constructor(private readonly db: PgDb) {}

  async secret(made: string, now: number): Promise<string> {
    await this.db.insert(secrets).values({ name: 'daily', value: made, createdAt: now }).onConflictDoNothing();
    const [row] = await this.db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, 'daily'));
    return row!.value;
  }

  async page(day: string, limit: number, offset: number): Promise<BoardRow[]> {
    const pageIds = this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.day, day), isNotNull(games.rankKey)))
      .orderBy(asc(games.rankKey), asc(games.id))
      .limit(limit)
      .offset(offset)
      .as('page_ids');
    return await this.db
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
      .orderBy(asc(games.rankKey), asc(games.id));
  }

  async moreCards(day: string, foundations: number): Promise<number> {
    const [row] = await this.db
      .select({ n: total(sql`coalesce(sum(${dailyTallies.finished}), 0)`) })
      .from(dailyTallies)
      .where(and(eq(dailyTallies.day, day), gt(dailyTallies.foundations, foundations)));
    return row!.n;
  }

  async rankKeysBetween(day: string, from: number, rankKey: number): Promise<number> {
    const [row] = await this.db
      .select({ n: total(sql`count(*)`) })
      .from(games)
      .where(and(eq(games.day, day), gte(games.rankKey, from), lt(games.rankKey, rankKey)));
    return row!.n;
  }

  async tiedBefore(day: string, rankKey: number, gameId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: total(sql`count(*)`) })
      .from(games)
      .where(and(eq(games.day, day), eq(games.rankKey, rankKey), lt(games.id, gameId)));
    return row!.n;
  }

  async finished(day: string): Promise<number> {
    const [row] = await this.db
      .select({ n: total(sql`coalesce(sum(${dailyTallies.finished}), 0)`) })
      .from(dailyTallies)
      .where(eq(dailyTallies.day, day));
    return row!.n;
  }

  async playing(day: string): Promise<number> {
    const [row] = await this.db
      .select({ n: total(sql`count(*)`) })
      .from(games)
      .where(and(eq(games.day, day), sql`${games.rankKey} is null`));
    return row!.n;
  }

  async storedSeed(day: string): Promise<string | undefined> {
    const [row] = await this.db.select({ seed: games.seed }).from(games).where(eq(games.day, day)).limit(1);
    return row?.seed;
  }

  async attempt(playerId: number, day: string): Promise<GameRow | undefined> {
    const [row] = await this.db
      .select(currentGameRow)
      .from(games)
      .where(and(eq(games.playerId, playerId), eq(games.day, day)));
    return row;
  }
}
