// The database decides which move is stored at an index, whichever instance sends it.
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgDatabase, pgSql, type PgDb } from '../../server/db/pg/index.js';
import { appendMove } from '../../server/db/pg/moves.js';
import type { MoveWrite } from '../../server/ports.js';
import { currentGameRow, games, players } from '../../server/db/pg/schema.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

let database: TestDatabase;
/** Two instances: each its own connection pool. */
let instances: [PgDb, PgDb];
beforeAll(async () => {
  database = await createTestDatabase();
  instances = [await openPgDatabase(database.url, { poolSize: 4 }), await openPgDatabase(database.url, { poolSize: 4 })];
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.$client.end()));
  await database.drop();
});

async function newGame(): Promise<number> {
  const { db, one } = pgSql(instances[0]);
  const player = await one(db.insert(players).values({ name: 'ada', createdAt: 1 }).returning({ id: players.id }));
  const game = await one(
    db
      .insert(games)
      .values({ kind: 'daily', day: '2026-12-01', playerId: player!.id, variant: 'strict', seed: 's', status: 'playing', foundations: 0, startedAt: 1 })
      .returning({ id: games.id }),
  );
  return game!.id;
}

const move = (gameId: number, index: number, action: string, deal?: MoveWrite['deal']): MoveWrite => ({
  gameId,
  index,
  action,
  at: 1000 + index,
  counts: { foundations: index, redealsUsed: deal ? 1 : 0, moves: index + 1 },
  ...(deal && { deal }),
});

async function rows(sql: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query(sql, values);
  await client.end();
  return rows;
}

describe('appending a move on PostgreSQL', () => {
  it('stores the same action sent to two instances at once exactly once', async () => {
    const gameId = await newGame();
    const outcomes = await Promise.all(instances.map((db) => appendMove(db, move(gameId, 0, 'a1'))));
    expect(outcomes.filter((outcome) => outcome.stored)).toHaveLength(1);
    expect(outcomes).toContainEqual({ stored: false, conflict: 'a1' });
    expect(await rows('select action_index, action from game_actions where game_id = $1', [gameId])).toEqual([{ action_index: 0, action: 'a1' }]);
  });

  it('refuses the loser of two conflicting actions with the winner, and writes none of its changes', async () => {
    const gameId = await newGame();
    // One ends the game (its result and counts go to the game's row), the other redeals (a deal row).
    const last: MoveWrite = { ...move(gameId, 0, 'a1'), counts: { foundations: 52, redealsUsed: 0, moves: 1 }, result: { status: 'won', finishedAt: 1000, rankKey: 7 } };
    const outcomes = await Promise.all([appendMove(instances[0], last), appendMove(instances[1], move(gameId, 0, 'r', { k: 1, layout: ['AS 2S 3S'] }))]);
    const winner = outcomes[0].stored ? 'a1' : 'r';
    expect(outcomes.filter((outcome) => outcome.stored)).toHaveLength(1);
    expect(outcomes).toContainEqual({ stored: false, conflict: winner });
    const deals = await rows('select k from game_deals where game_id = $1', [gameId]);
    const [game] = await rows('select status, foundations, moves, rank_key::int from games where id = $1', [gameId]);
    const log = await rows('select action, foundations from game_actions where game_id = $1', [gameId]);
    // The loser's deal or result was rolled back with its insert.
    expect(deals).toEqual(winner === 'r' ? [{ k: 1 }] : []);
    expect(game).toEqual(winner === 'r' ? { status: 'playing', foundations: 0, moves: 0, rank_key: null } : { status: 'won', foundations: 52, moves: 1, rank_key: 7 });
    expect(log).toEqual([{ action: winner, foundations: winner === 'r' ? 0 : 52 }]);
  });

  it('leaves the game row of a playing game alone: its counts are read from the log', async () => {
    const gameId = await newGame();
    for (let index = 0; index < 3; index++) expect(await appendMove(instances[index % 2]!, move(gameId, index, `m${index}`))).toEqual({ stored: true });
    const [game] = await rows('select status, foundations, moves from games where id = $1', [gameId]);
    expect(game).toEqual({ status: 'playing', foundations: 0, moves: 0 });
    const { db, one } = pgSql(instances[0]);
    const counted = await one(db.select(currentGameRow).from(games).where(eq(games.id, gameId)));
    expect(counted).toMatchObject({ status: 'playing', foundations: 2, moves: 3, redealsUsed: 0 });
  });

  it('keeps one gap-free log when instances take turns and race on every index', async () => {
    const gameId = await newGame();
    for (let index = 0; index < 40; index++) {
      const outcomes = await Promise.all(instances.map((db, i) => appendMove(db, move(gameId, index, `m${index}-${i}`))));
      expect(outcomes.filter((outcome) => outcome.stored)).toHaveLength(1);
    }
    const log = await rows('select action_index from game_actions where game_id = $1 order by action_index', [gameId]);
    expect(log.map((row) => row.action_index)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('passes on failures that are not an index conflict instead of calling them one', async () => {
    await expect(appendMove(instances[0], move(2_000_000_000, 0, 'a1'))).rejects.toThrow();
  });
});
