// One simulated instance of the scale benchmark (bench/scale.ts), in its own process: its players
// each append moves to their own game at a steady pace through this instance's storage, and it
// reports each append's latency (from the moment it was due to its commit) in the measured window.
import { eq, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { closeDatabase, openDatabase } from '../server/db/index.js';
import { gameActions as sqliteActions, games as sqliteGames } from '../server/db/schema.js';
import { openPgDatabase } from '../server/db/pg/index.js';
import { appendMove } from '../server/db/pg/moves.js';

export interface WorkerCommand {
  storage: { kind: 'sqlite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  gameIds: number[];
  perSecond: number;
  warmupMs: number;
  measureMs: number;
}

export interface WorkerResult {
  /** Of the moves due in the measured window. */
  latencies: number[];
  /** Commits that completed within the measured window: the throughput. */
  committedInWindow: number;
}

type Append = (gameId: number, index: number) => Promise<void>;

async function storageOf(storage: WorkerCommand['storage']): Promise<{ append: Append; close(): Promise<void> }> {
  if (storage.kind === 'postgres') {
    const db = await openPgDatabase(storage.url, { poolSize: storage.poolSize });
    return {
      append: async (gameId, index) => {
        const outcome = await appendMove(db, { gameId, index, action: 'a1', at: Date.now(), counts: { foundations: 0, redealsUsed: 0, moves: index + 1 } });
        if (!outcome.stored) throw new Error(`index ${index} of game ${gameId} was taken`);
      },
      close: () => db.$client.end(),
    };
  }
  // The same writes as a move on SQLite (server/games.ts): the log row and the game's counts, one transaction.
  const db = openDatabase(storage.dataDir, { synchronous: 'NORMAL' });
  const insert = db
    .insert(sqliteActions)
    .values({ gameId: sql.placeholder('gameId'), index: sql.placeholder('index'), action: 'a1', at: sql.placeholder('at') })
    .prepare();
  const update = db
    .update(sqliteGames)
    .set({ moves: sql`${sql.placeholder('moves')}` })
    .where(eq(sqliteGames.id, sql.placeholder('gameId')))
    .prepare();
  const write = db.$client.transaction((gameId: number, index: number) => {
    insert.run({ gameId, index, at: Date.now() });
    update.run({ gameId, moves: index + 1 });
  });
  return {
    append: async (gameId, index) => write(gameId, index),
    close: () => closeDatabase(db),
  };
}

async function run(command: WorkerCommand): Promise<WorkerResult> {
  const storage = await storageOf(command.storage);
  const start = performance.now() + 50;
  const measureFrom = start + command.warmupMs;
  const end = measureFrom + command.measureMs;
  const latencies: number[] = [];
  let committedInWindow = 0;
  const interval = 1000 / command.perSecond;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  await Promise.all(
    command.gameIds.map(async (gameId, p) => {
      // Players start spread over one interval, as real ones do not move in step.
      let due = start + (interval * p) / command.gameIds.length;
      for (let index = 0; due < end; index++, due += interval) {
        await sleep(due - performance.now());
        await storage.append(gameId, index);
        const now = performance.now();
        if (now >= measureFrom && now < end) committedInWindow++;
        if (due >= measureFrom) latencies.push(now - due);
      }
    }),
  );
  await storage.close();
  return { latencies, committedInWindow };
}

process.on('message', (command: WorkerCommand) => {
  run(command).then(
    (result) => process.send!({ type: 'result', result }, () => process.exit(0)),
    (error: Error) => process.send!({ type: 'failed', message: error.stack ?? error.message }, () => process.exit(1)),
  );
});
