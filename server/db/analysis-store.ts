import { and, desc, eq, isNull, lt, ne, or, sql as raw } from 'drizzle-orm';
import { after } from '../ports.js';
import type { AnalysisStore } from '../stores.js';
import { done, theRow, type Sql } from './sql.js';

/** Game analyses, on either database: the analysis is a JSON document (text on SQLite, jsonb on PostgreSQL). */
export function analysisStore({ db, kind, t: { gameAnalyses, games, races }, one, all, run }: Sql): AnalysisStore {
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  /** Ended games with no analysis. */
  const unanalysed = () => db.select({ id: games.id }).from(games).leftJoin(gameAnalyses, eq(gameAnalyses.gameId, games.id));
  const ended = and(isNull(gameAnalyses.gameId), ne(games.status, 'playing'));
  /** A number or flag inside the stored analysis: each database has its own JSON operators. */
  const inAnalysis = (object: string, field: string, type: 'int' | 'boolean') =>
    kind === 'postgres'
      ? raw`(${gameAnalyses.analysis} -> '${raw.raw(object)}' ->> '${raw.raw(field)}')::${raw.raw(type)}`
      : raw`json_extract(${gameAnalyses.analysis}, '$.${raw.raw(object)}.${raw.raw(field)}')`;
  return {
    byGame: (gameId) => one(db.select().from(gameAnalyses).where(eq(gameAnalyses.gameId, gameId))),
    store: (row) => done(run(db.insert(gameAnalyses).values(row).onConflictDoNothing())),
    missing: (today, limit) => {
      const seedPublic = or(and(eq(games.kind, 'race'), eq(races.state, 'finished')), and(eq(games.kind, 'daily'), lt(games.day, today)), eq(games.kind, 'ghost'));
      return after(all(unanalysed().leftJoin(races, eq(races.id, games.raceId)).where(and(ended, seedPublic)).orderBy(desc(games.id)).limit(limit)), ids);
    },
    missingOfDay: (day, limit) => after(all(unanalysed().where(and(eq(games.day, day), ended)).orderBy(raw`${games.rankKey} is null`, games.rankKey).limit(limit)), ids),
    dayFigures: (day) => {
      const par = inAnalysis('par', 'count', 'int');
      const figures = db
        .select({
          analysed: raw<number>`count(${par})`.mapWith(Number),
          reachedPar: raw<number>`coalesce(sum(case when ${games.foundations} >= ${par} then 1 else 0 end), 0)`.mapWith(Number),
          max: raw<number | null>`max(${inAnalysis('firstDeal', 'max', 'int')})`,
          exact: raw<number | null>`max(case when ${inAnalysis('firstDeal', 'exact', 'boolean')} then 1 else 0 end)`.mapWith(Number),
        })
        .from(gameAnalyses)
        .innerJoin(games, eq(games.id, gameAnalyses.gameId))
        .where(and(eq(games.day, day), eq(gameAnalyses.status, 'done')));
      return after(theRow(one(figures)), ({ analysed, reachedPar, max, exact }) => ({ analysed, reachedPar, firstDeal: max === null ? null : { max, exact: exact === 1 } }));
    },
  };
}
