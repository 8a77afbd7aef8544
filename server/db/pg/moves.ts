import { and, eq } from 'drizzle-orm';
import type { PgDb } from './index.js';
import { gameActions, gameDeals, games } from './schema.js';

/** What a stored move changes besides the log: the game's counts, its result when it ends, a new deal. */
export interface MoveWrite {
  gameId: number;
  index: number;
  action: string;
  at: number;
  /** Set on a redeal: the layout dealt, stored as deal `k`. */
  deal?: { k: number; layout: string[] };
  counts: { foundations: number; redealsUsed: number; moves: number };
  /** Set when the move ends the game. */
  result?: { status: 'won' | 'out-of-moves'; finishedAt: number; rankKey: number };
}

/** Stored, or refused because another instance stored `stored` at that index first. */
export type MoveOutcome = { stored: true } | { stored: false; conflict: string };

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Appends one move to a game's log in one transaction. The log's primary key (game, index) is
 * the arbiter between instances: of two instances appending at the same index, exactly one
 * commits; the other's insert fails, its transaction rolls back (nothing else is written) and it
 * learns what was stored there. Only a resolved `{ stored: true }` may be acknowledged.
 */
export async function appendMove(db: PgDb, move: MoveWrite): Promise<MoveOutcome> {
  try {
    await db.transaction(async (tx) => {
      await tx.insert(gameActions).values({ gameId: move.gameId, index: move.index, action: move.action, at: move.at });
      if (move.deal) await tx.insert(gameDeals).values({ gameId: move.gameId, k: move.deal.k, layout: move.deal.layout });
      await tx
        .update(games)
        .set({ ...move.counts, ...move.result })
        .where(eq(games.id, move.gameId));
    });
    return { stored: true };
  } catch (error) {
    if (!isIndexTaken(error)) throw error;
    const [row] = await db
      .select({ action: gameActions.action })
      .from(gameActions)
      .where(and(eq(gameActions.gameId, move.gameId), eq(gameActions.index, move.index)));
    if (!row) throw error;
    return { stored: false, conflict: row.action };
  }
}

function isIndexTaken(error: unknown): boolean {
  // drizzle wraps the driver's error; the constraint is on the cause.
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: string; constraint?: string };
    if (code === UNIQUE_VIOLATION) return constraint === 'game_actions_game_id_action_index_pk';
  }
  return false;
}
