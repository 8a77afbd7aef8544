import { and, asc, count, desc, eq, gte, isNotNull, isNull, max, min, sql as raw } from 'drizzle-orm';
import { after } from '../ports.js';
import type { ModerationStore } from '../stores.js';
import { done, theRow, wait, type Sql } from './sql.js';

/** Reports, bans and the log of operator actions, on either database. */
export function moderationStore({ db, t: { games, operatorActions, players, reports }, one, all, run, transaction }: Sql): ModerationStore {
  const moderated = { id: players.id, name: players.name, bannedAt: players.bannedAt };
  const reportRow = { id: reports.id, reporterId: reports.reporterId, targetId: reports.targetId, reason: reports.reason, createdAt: reports.createdAt };
  // PostgreSQL answers counts and sums as bigint, which node-postgres reads as strings.
  const counted = (reason: 'name' | 'player') => raw<number>`sum(case when ${reports.reason} = ${reason} then 1 else 0 end)`.mapWith(Number);
  return {
    player: (id) => one(db.select(moderated).from(players).where(eq(players.id, id))),
    report: (row) => theRow(one(db.insert(reports).values(row).returning(reportRow))),
    reportsSince: (reporterId, since) =>
      after(theRow(one(db.select({ n: count() }).from(reports).where(and(eq(reports.reporterId, reporterId), gte(reports.createdAt, since))))), ({ n }) => Number(n)),
    openReports: (limit) =>
      after(
        all(
          db
            .select({ ...moderated, name_: counted('name'), player_: counted('player'), total: count(), firstAt: min(reports.createdAt), lastAt: max(reports.createdAt) })
            .from(reports)
            .innerJoin(players, eq(players.id, reports.targetId))
            .where(isNull(reports.resolvedAt))
            .groupBy(players.id)
            .orderBy(desc(count()), asc(players.id))
            .limit(limit),
        ),
        (rows) =>
          rows.map((row) => ({
            target: { id: row.id, name: row.name, bannedAt: row.bannedAt },
            name: row.name_,
            player: row.player_,
            firstAt: Number(row.firstAt),
            lastAt: Number(row.lastAt),
          })),
      ),
    banned: () => all(db.select(moderated).from(players).where(isNotNull(players.bannedAt)).orderBy(desc(players.bannedAt), asc(players.id))),
    actions: (limit) => all(db.select().from(operatorActions).orderBy(desc(operatorActions.id)).limit(limit)),
    apply: (action, change) =>
      transaction(function* ({ db, one, run }) {
        const player = eq(players.id, action.targetId);
        const hers = eq(games.playerId, action.targetId);
        switch (change.kind) {
          case 'rename':
            yield* wait(run(db.update(players).set({ name: change.name }).where(player)));
            break;
          case 'ban':
            yield* wait(run(db.update(players).set({ bannedAt: change.at }).where(and(player, isNull(players.bannedAt)))));
            // The tallies' triggers take these results off the day's counts.
            yield* wait(run(db.update(games).set({ unlistedRankKey: games.rankKey, rankKey: null }).where(and(hers, isNotNull(games.day), isNotNull(games.rankKey)))));
            break;
          case 'unban':
            yield* wait(run(db.update(players).set({ bannedAt: null }).where(player)));
            yield* wait(run(db.update(games).set({ rankKey: games.unlistedRankKey, unlistedRankKey: null }).where(and(hers, isNotNull(games.unlistedRankKey)))));
            break;
          case 'dismiss-reports':
            break;
        }
        if (change.kind !== 'unban') yield* wait(run(db.update(reports).set({ resolvedAt: action.at }).where(and(eq(reports.targetId, action.targetId), isNull(reports.resolvedAt)))));
        return yield* wait(theRow(one(db.insert(operatorActions).values(action).returning())));
      }),
    unlistIfBanned: (gameId) => {
      const banned = db.select({ one: players.id }).from(players).where(and(eq(players.id, games.playerId), isNotNull(players.bannedAt)));
      return done(run(db.update(games).set({ unlistedRankKey: games.rankKey, rankKey: null }).where(and(eq(games.id, gameId), isNotNull(games.day), isNotNull(games.rankKey), raw`exists ${banned}`))));
    },
  };
}
