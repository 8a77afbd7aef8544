import type { MoveWrite } from '../../ports.js';
import { causes, UNIQUE_VIOLATION, type PgDb } from './index.js';

/** Stored, or refused because another instance stored `stored` at that index first. */
export type MoveOutcome = { stored: true } | { stored: false; conflict: string };

/**
 * One statement, so one round trip and its own transaction: the log row with the cards home after
 * it, the deal of a redeal and, when the move ends the game, its result and counts (a playing
 * game's counts are read from its log: a move leaves the game's row, and its lock, alone).
 * Data-modifying CTEs always run, and any failure (the log's primary key taken) undoes the
 * whole statement.
 */
const APPEND = {
  name: 'lucie-append-move',
  text: `with logged as (insert into game_actions (game_id, action_index, action, at, foundations) values ($1, $2, $3, $4, $7)),
    dealt as (insert into game_deals (game_id, k, layout) select $1, $5, $6::jsonb where $5::integer is not null)
    update games set foundations = $7, redeals_used = $8, moves = $9, status = $10, finished_at = $11, rank_key = $12
    where id = $1 and $10::text is not null`,
};

/**
 * Appends one move to a game's log. The log's primary key (game, index) is the arbiter between
 * instances: of two instances appending at the same index, exactly one commits; the other's
 * statement fails and writes nothing, and it learns what was stored there. Only a resolved
 * `{ stored: true }` may be acknowledged.
 */
export async function appendMove(db: PgDb, move: MoveWrite): Promise<MoveOutcome> {
  const { gameId, index, action, at, deal, counts, result } = move;
  const values = [gameId, index, action, at, deal?.k ?? null, deal ? JSON.stringify(deal.layout) : null];
  values.push(counts.foundations, counts.redealsUsed, counts.moves, result?.status ?? null, result?.finishedAt ?? null, result?.rankKey ?? null);
  try {
    await db.$client.query({ ...APPEND, values });
    return { stored: true };
  } catch (error) {
    if (!isIndexTaken(error)) throw error;
    const { rows: [row] } = await db.$client.query<{ action: string }>('select action from game_actions where game_id = $1 and action_index = $2', [gameId, index]);
    if (!row) throw error;
    return { stored: false, conflict: row.action };
  }
}

/** The log's primary key refused the row (drizzle wraps the driver's error; the constraint is on the cause). */
function isIndexTaken(error: unknown): boolean {
  const violation = causes(error).find((cause) => (cause as { code?: unknown }).code === UNIQUE_VIOLATION);
  return (violation as { constraint?: string } | undefined)?.constraint === 'game_actions_game_id_action_index_pk';
}
