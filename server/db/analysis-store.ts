import { and, desc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AnalysisRow, AnalysisStore, DayFigures } from '../stores.js';
import type { Db } from './index.js';
import { gameAnalyses, games, races } from './schema.js';

/** Game analyses on SQLite, answering in the same turn. */
export class SqliteAnalysisStore implements AnalysisStore {
  constructor(private readonly db: Db) {}

  byGame(gameId: number): AnalysisRow | undefined {
    return this.db.select().from(gameAnalyses).where(eq(gameAnalyses.gameId, gameId)).get();
  }

  store(row: AnalysisRow): void {
    this.db.insert(gameAnalyses).values(row).onConflictDoNothing().run();
  }

  missing(today: string, limit: number): number[] {
    return this.db
      .select({ id: games.id })
      .from(games)
      .leftJoin(gameAnalyses, eq(gameAnalyses.gameId, games.id))
      .leftJoin(races, eq(races.id, games.raceId))
      .where(
        and(
          isNull(gameAnalyses.gameId),
          ne(games.status, 'playing'),
          or(and(eq(games.kind, 'race'), eq(races.state, 'finished')), and(eq(games.kind, 'daily'), lt(games.day, today))),
        ),
      )
      .orderBy(desc(games.id))
      .limit(limit)
      .all()
      .map((row) => row.id);
  }

  missingOfDay(day: string, limit: number): number[] {
    return this.db
      .select({ id: games.id })
      .from(games)
      .leftJoin(gameAnalyses, eq(gameAnalyses.gameId, games.id))
      .where(and(eq(games.day, day), isNull(gameAnalyses.gameId), ne(games.status, 'playing')))
      .orderBy(sql`${games.rankKey} is null`, games.rankKey)
      .limit(limit)
      .all()
      .map((row) => row.id);
  }

  dayFigures(day: string): DayFigures {
    const par = sql`json_extract(${gameAnalyses.analysis}, '$.par.count')`;
    const row = this.db
      .select({
        analysed: sql<number>`count(${par})`,
        reachedPar: sql<number>`coalesce(sum(${games.foundations} >= ${par}), 0)`,
        max: sql<number | null>`max(json_extract(${gameAnalyses.analysis}, '$.firstDeal.max'))`,
        exact: sql<number | null>`max(json_extract(${gameAnalyses.analysis}, '$.firstDeal.exact'))`,
      })
      .from(gameAnalyses)
      .innerJoin(games, eq(games.id, gameAnalyses.gameId))
      .where(and(eq(games.day, day), eq(gameAnalyses.status, 'done')))
      .get()!;
    return { analysed: row.analysed, reachedPar: row.reachedPar, firstDeal: row.max === null ? null : { max: row.max, exact: row.exact === 1 } };
  }
}
