import { and, desc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AnalysisRow, AnalysisStore, DayFigures } from '../../stores.js';
import type { PgDb } from './index.js';
import { gameAnalyses, games, races } from './schema.js';

/** Game analyses on PostgreSQL, the analysis a jsonb document. */
export class PgAnalysisStore implements AnalysisStore {
  constructor(private readonly db: PgDb) {}

  async byGame(gameId: number): Promise<AnalysisRow | undefined> {
    const [row] = await this.db.select().from(gameAnalyses).where(eq(gameAnalyses.gameId, gameId));
    return row;
  }

  async store(row: AnalysisRow): Promise<void> {
    await this.db.insert(gameAnalyses).values(row).onConflictDoNothing();
  }

  async missing(today: string, limit: number): Promise<number[]> {
    const rows = await this.db
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
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async missingOfDay(day: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: games.id })
      .from(games)
      .leftJoin(gameAnalyses, eq(gameAnalyses.gameId, games.id))
      .where(and(eq(games.day, day), isNull(gameAnalyses.gameId), ne(games.status, 'playing')))
      .orderBy(sql`${games.rankKey} is null`, games.rankKey)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async dayFigures(day: string): Promise<DayFigures> {
    const par = sql`(${gameAnalyses.analysis} -> 'par' ->> 'count')::int`;
    const [row] = await this.db
      .select({
        analysed: sql<number>`count(${par})::int`,
        reachedPar: sql<number>`count(*) filter (where ${games.foundations} >= ${par})::int`,
        max: sql<number | null>`max((${gameAnalyses.analysis} -> 'firstDeal' ->> 'max')::int)`,
        exact: sql<boolean | null>`bool_or((${gameAnalyses.analysis} -> 'firstDeal' ->> 'exact')::boolean)`,
      })
      .from(gameAnalyses)
      .innerJoin(games, eq(games.id, gameAnalyses.gameId))
      .where(and(eq(games.day, day), eq(gameAnalyses.status, 'done')));
    return { analysed: row!.analysed, reachedPar: row!.reachedPar, firstDeal: row!.max === null ? null : { max: row!.max, exact: row!.exact === true } };
  }
}
