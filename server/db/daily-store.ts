import { and, asc, eq, gt, gte, isNotNull, lt, sql as raw, type SQL } from 'drizzle-orm';
import { after } from '../ports.js';
import type { DailyStore } from '../stores.js';
import { theRow, type Prepared, type Sql } from './sql.js';

/**
 * The daily board on either database, every query prepared once: on SQLite the leaderboard
 * answers in microseconds. Each is served by games_daily_board (rank order) or the tallies
 * (`npm run bench -- daily` measures them and prints their plans).
 */
export function dailyStore({ db, t: { currentGameRow, dailyTallies, games, players, secrets }, prepare, one, run }: Sql): DailyStore {
  const day = raw.placeholder('day');
  const rankKey = raw.placeholder('rankKey');
  // The page's ids first, from the covering index alone: skipping to a deep offset then reads
  // index entries, not rows and names.
  const rankOrder = [asc(games.rankKey), asc(games.id)];
  const pageIds = db
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.day, day), isNotNull(games.rankKey)))
    .orderBy(...rankOrder)
    .limit(raw.placeholder('limit'))
    .offset(raw.placeholder('offset'))
    .as('page_ids');
  const { id: gameId, playerId, status: state, foundations, startedAt, finishedAt } = games;
  const entry = { gameId, playerId, name: players.name, state, foundations, startedAt, finishedAt, rankKey: games.rankKey };
  const page = prepare(db.select(entry).from(pageIds).innerJoin(games, eq(games.id, pageIds.id)).innerJoin(players, eq(players.id, games.playerId)).orderBy(...rankOrder));
  // PostgreSQL answers counts and sums as bigint and numeric, which node-postgres reads as strings.
  const counted = (n: SQL, from: typeof games | typeof dailyTallies, where: SQL | undefined) => {
    const query: Prepared<{ n: number }> = prepare(db.select({ n: n.mapWith(Number) }).from(from).where(where));
    return (values: Record<string, unknown>) => after(theRow(query.one(values)), (row) => row.n);
  };
  // Finished attempts per number of cards come from the tallies: no scan of the day's games.
  const tallied = (where?: SQL) => counted(raw`coalesce(sum(${dailyTallies.finished}), 0)`, dailyTallies, and(eq(dailyTallies.day, day), where));
  const attempts = (...where: SQL[]) => counted(raw`count(*)`, games, and(eq(games.day, day), ...where));
  const moreCards = tallied(gt(dailyTallies.foundations, raw.placeholder('foundations')));
  const finished = tallied();
  const rankKeysBetween = attempts(gte(games.rankKey, raw.placeholder('from')), lt(games.rankKey, rankKey));
  const tiedBefore = attempts(eq(games.rankKey, rankKey), raw`${games.id} < ${raw.placeholder('gameId')}`);
  // A banned player's results have no rank key while the ban lasts (unlisted_rank_key holds it): not playing either.
  const playing = attempts(raw`${games.rankKey} is null`, raw`${games.unlistedRankKey} is null`);
  const seed = prepare(db.select({ seed: games.seed }).from(games).where(eq(games.day, day)).limit(1));
  const attempt = prepare(db.select(currentGameRow).from(games).where(and(eq(games.playerId, raw.placeholder('playerId')), eq(games.day, day))));

  return {
    // Whoever is first stores theirs; everyone reads the one stored.
    secret: (made, now) =>
      after(run(db.insert(secrets).values({ name: 'daily', value: made, createdAt: now }).onConflictDoNothing()), () =>
        after(theRow(one(db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, 'daily')))), (row) => row.value),
      ),
    page: (day, limit, offset) => page.all({ day, limit, offset }),
    moreCards: (day, foundations) => moreCards({ day, foundations }),
    rankKeysBetween: (day, from, rankKey) => rankKeysBetween({ day, from, rankKey }),
    tiedBefore: (day, rankKey, gameId) => tiedBefore({ day, rankKey, gameId }),
    finished: (day) => finished({ day }),
    playing: (day) => playing({ day }),
    storedSeed: (day) => after(seed.one({ day }), (row) => row?.seed),
    attempt: (playerId, day) => attempt.one({ playerId, day }),
  };
}
