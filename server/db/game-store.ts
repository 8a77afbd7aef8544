import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { after, type GameStore, type MoveWrite, type Pending } from '../ports.js';
import type { DeadlineStore } from '../stores.js';
import { storedGameColumns } from './game-columns.js';
import { both, theRow, wait, type Sql } from './sql.js';

/**
 * Games and their move logs, on either database. A move is stored by `appendMove`, each
 * database's own: SQLite commits the moves of one turn together (group-commit.ts), PostgreSQL
 * writes one in one statement (pg/moves.ts).
 */
export function gameStore(sql: Sql, appendMove: (move: MoveWrite) => Pending<void>): GameStore {
  const { db, one, all, run, transaction } = sql;
  const { gameActions, gameDeals, games, races } = sql.t;
  return {
    createGames: (rows, starts) =>
      transaction(function* ({ db, one, run }) {
        const ids: number[] = [];
        for (const { layout, ...row } of rows) {
          const { id } = yield* wait(theRow(one(db.insert(games).values({ ...row, status: 'playing' }).returning({ id: games.id }))));
          yield* wait(run(db.insert(gameDeals).values({ gameId: id, k: 0, layout })));
          ids.push(id);
        }
        if (starts) yield* wait(run(db.update(races).set({ state: 'running', capAt: starts.capAt }).where(eq(races.id, starts.raceId))));
        return ids;
      }),
    loadGame: (id) => one(db.select(storedGameColumns(games)).from(games).where(eq(games.id, id))),
    loadMoveLog: (id) => {
      const deals = all(db.select({ layout: gameDeals.layout }).from(gameDeals).where(eq(gameDeals.gameId, id)).orderBy(asc(gameDeals.k)));
      const actions = all(db.select({ action: gameActions.action }).from(gameActions).where(eq(gameActions.gameId, id)).orderBy(asc(gameActions.index)));
      return after(both(deals, actions), ([deals, actions]) => ({ deals: deals.map((deal) => deal.layout), actions: actions.map((row) => row.action) }));
    },
    playingGameIds: () => after(all(db.select({ id: games.id }).from(games).where(eq(games.status, 'playing'))), (rows) => rows.map((row) => row.id)),
    appendMove,
    endGame: ({ gameId, status, finishedAt, rankKey, counts }) =>
      after(run(db.update(games).set({ ...counts, status, finishedAt, rankKey }).where(and(eq(games.id, gameId), eq(games.status, 'playing')))), (ended) => ended > 0),
    storageFailure: (error) => sql.failure(error),
    isDuplicate: (error) => sql.isDuplicate(error),
  };
}

/** Deadlines of playing games, through the games_playing index. */
export function deadlineStore({ db, t: { games }, all }: Sql): DeadlineStore {
  const timed = db.select({ id: games.id, deadline: games.deadline }).from(games).where(and(eq(games.status, 'playing'), isNotNull(games.deadline)));
  return { playing: () => all(timed) as ReturnType<DeadlineStore['playing']> };
}
