import { getTableColumns, sql, type Column, type Table } from 'drizzle-orm';
import type { StoredGame } from '../ports.js';

// The columns games are read with, written once for both dialects: their `games`, `game_actions`
// and `game_deals` tables name every column alike, and the SQL below is the same in both.

const STORED_GAME_COLUMNS = ['id', 'kind', 'playerId', 'raceId', 'variant', 'seed', 'status', 'startedAt', 'deadline', 'finishedAt', 'ghostOf', 'redealFrom'] as const satisfies readonly (keyof StoredGame)[];

/** The columns a StoredGame is read from, in either dialect's `games` table. */
export function storedGameColumns<Games extends Record<(typeof STORED_GAME_COLUMNS)[number], unknown>>(games: Games): Pick<Games, (typeof STORED_GAME_COLUMNS)[number]> {
  return Object.fromEntries(STORED_GAME_COLUMNS.map((name) => [name, games[name]])) as Pick<Games, (typeof STORED_GAME_COLUMNS)[number]>;
}

type GamesTable = Table & { id: Column; status: Column; foundations: Column; redealsUsed: Column; moves: Column };
type ActionsTable = Table & { gameId: Column; index: Column; foundations: Column };
type DealsTable = Table & { gameId: Column; k: Column };

/**
 * A game's whole row as players see it now. A move stores its log row alone, so a playing game's
 * counts are read from its log: cards home from its last action, moves from that action's index,
 * redeals from its last deal. Once the game has ended its row holds them, written with its result.
 * An action stored before its row carried the cards home (null there) stands on the row's own
 * count, which every move kept up to date until then.
 */
export function gameRowColumns<Games extends GamesTable>(games: Games, actions: ActionsTable, deals: DealsTable) {
  const playing = sql`${games.status} = 'playing'`;
  const lastCards = sql`(select ${actions.foundations} from ${actions} where ${actions.gameId} = ${games.id} order by ${actions.index} desc limit 1)`;
  const lastIndex = sql`(select max(${actions.index}) from ${actions} where ${actions.gameId} = ${games.id})`;
  const lastDeal = sql`(select max(${deals.k}) from ${deals} where ${deals.gameId} = ${games.id})`;
  // A banned player's rank key kept aside (moderation) is the store's business, not the row's.
  const { unlistedRankKey: _unlisted, ...columns } = getTableColumns(games);
  return {
    ...columns,
    foundations: sql<number>`case when ${playing} then coalesce(${lastCards}, ${games.foundations}) else ${games.foundations} end`,
    redealsUsed: sql<number>`case when ${playing} then coalesce(${lastDeal}, 0) else ${games.redealsUsed} end`,
    moves: sql<number>`case when ${playing} then coalesce(${lastIndex} + 1, 0) else ${games.moves} end`,
  };
}
