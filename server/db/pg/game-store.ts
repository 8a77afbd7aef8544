import { and, asc, eq } from 'drizzle-orm';
import { IndexTaken, type GameEnd, type GameStore, type MoveLog, type MoveWrite, type NewGameRow, type RaceStart, type StoredGame } from '../../ports.js';
import { storedGameColumns } from '../game-columns.js';
import type { PgDb } from './index.js';
import { appendMove } from './moves.js';
import { gameActions, gameDeals, games, races } from './schema.js';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
/** SQLSTATE classes a retry may cure: connection exceptions, insufficient resources, operator intervention (a shutdown, a restart). */
const RETRYABLE_CLASSES = ['08', '53', '57'];
/** Errors of the socket under the pool: the server is unreachable or the connection broke. */
const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'];
/** node-postgres's own messages when it has no usable connection. */
const POOL_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'Cannot use a pool after calling end on the pool'];

/**
 * The game store on PostgreSQL: every call is one round trip or one short transaction on the
 * pool, and answers later. A move is one statement (moves.ts): the log's primary key decides
 * between instances appending to the same game, and the loser is told what was stored there.
 */
export class PgGameStore implements GameStore {
  constructor(private readonly db: PgDb) {}

  createGames(rows: readonly NewGameRow[], starts?: RaceStart): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      const ids: number[] = [];
      for (const { layout, ...row } of rows) {
        const [created] = await tx
          .insert(games)
          .values({ ...row, status: 'playing' })
          .returning({ id: games.id });
        await tx.insert(gameDeals).values({ gameId: created!.id, k: 0, layout });
        ids.push(created!.id);
      }
      if (starts) await tx.update(races).set({ state: 'running', capAt: starts.capAt }).where(eq(races.id, starts.raceId));
      return ids;
    });
  }

  async loadGame(id: number): Promise<StoredGame | undefined> {
    const [row] = await this.db
      .select(storedGameColumns(games))
      .from(games)
      .where(eq(games.id, id));
    return row;
  }

  async loadMoveLog(id: number): Promise<MoveLog> {
    const [deals, actions] = await Promise.all([
      this.db.select({ layout: gameDeals.layout }).from(gameDeals).where(eq(gameDeals.gameId, id)).orderBy(asc(gameDeals.k)),
      this.db.select({ action: gameActions.action }).from(gameActions).where(eq(gameActions.gameId, id)).orderBy(asc(gameActions.index)),
    ]);
    return { deals: deals.map((deal) => deal.layout), actions: actions.map((row) => row.action) };
  }

  async playingGameIds(): Promise<number[]> {
    const rows = await this.db.select({ id: games.id }).from(games).where(eq(games.status, 'playing'));
    return rows.map((row) => row.id);
  }

  async appendMove(move: MoveWrite): Promise<void> {
    const outcome = await appendMove(this.db, move);
    if (!outcome.stored) throw new IndexTaken(move.gameId, move.index, outcome.conflict);
  }

  async endGame({ gameId, status, finishedAt, rankKey, counts }: GameEnd): Promise<boolean> {
    const ended = await this.db
      .update(games)
      .set({ ...counts, status, finishedAt, rankKey })
      .where(and(eq(games.id, gameId), eq(games.status, 'playing')))
      .returning({ id: games.id });
    return ended.length > 0;
  }

  storageFailure(error: unknown): string | undefined {
    return pgFailureCode(error);
  }

  isDuplicate(error: unknown): boolean {
    return causes(error).some((cause) => (cause as { code?: unknown }).code === UNIQUE_VIOLATION);
  }
}

/** The SQLSTATE or socket code when `error` means PostgreSQL cannot be reached or cannot take the write now. */
export function pgFailureCode(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.includes(code) || RETRYABLE_CLASSES.includes(code.slice(0, 2)))) return code;
    if (POOL_MESSAGES.some((message) => cause.message.includes(message))) return 'connection-lost';
  }
  return undefined;
}

/** An error and its causes (drizzle wraps the driver's error). */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let cause = error; cause instanceof Error && chain.length < 8; cause = cause.cause) chain.push(cause);
  return chain;
}
