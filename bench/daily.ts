// Daily benchmark: a day with 100 000 stored results in a real (temporary) database, on SQLite
// (a WAL file) and on PostgreSQL (a fresh database on the test cluster, test/services.ts). The
// leaderboard (first page, counts, and the own rank of a player deep in the list) against a bare
// `select 1` and a primary-key lookup on the same database; on PostgreSQL, the plan of every
// query the board sends (an index, never a scan or a sort of the day). Then replay
// reconstruction of a stored game (load its deals and actions, replay them with the engine)
// against JSON.parse of its record.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAction, makeLayout, makeRecord, recordOf, replayRecord } from '../shared/index.js';
import { dayOf } from '../contract/index.js';
import { dailySeed, Leaderboard } from '../server/daily.js';
import { dailyStore } from '../server/db/daily-store.js';
import { openDatabase, sqliteSql } from '../server/db/index.js';
import { sqliteStorage } from '../server/db/storage.js';
import { openPgDatabase, pgSql } from '../server/db/pg/index.js';
import type { DailyStore } from '../server/stores.js';
import type { MoveLog } from '../server/ports.js';
import { storedLayout } from '../server/games/live-game.js';
import { rankKey } from '../server/standings.js';
import startServices from '../test/services.js';
import { createTestDatabase, pgPlansOf } from '../test/server/pg.js';
import { randomPlayout } from './engine.js';
import { format, percentile, seededRandom } from './measure.js';

const DAY = '2026-11-29';
const RESULTS = 100_000;
/** Attempts still being played: not on the board, counted apart. */
const PLAYING = 2_000;
/** The player ranked about 90 000th: the worst case for counting the results ahead. */
const DEEP_POSITION = 90_000;
const opensAt = Date.parse(`${DAY}T00:00:00Z`);
const seed = dailySeed('bench-secret', DAY);

/** One attempt of the day; player i + 1 plays attempt i (both databases number from 1). */
interface Attempt {
  startedAt: number;
  state: string;
  foundations: number;
  moves: number;
  finishedAt: number | null;
  rankKey: number | null;
}

/**
 * The day's attempts, the same on every run: about 1 in 12 wins, the losses spread over 0-51
 * cards home (bunched low, as in strict), 1-60 minutes each, whole seconds so that ties happen;
 * the last PLAYING still being played.
 */
function dayOfAttempts(): Attempt[] {
  const random = seededRandom(7);
  return Array.from({ length: RESULTS + PLAYING }, (_, i) => {
    const startedAt = opensAt + Math.floor(random() * 20 * 3_600_000);
    if (i >= RESULTS) return { startedAt, state: 'playing', foundations: Math.floor(random() * 20), moves: 10, finishedAt: null, rankKey: null };
    const won = random() < 0.08;
    const foundations = won ? 52 : Math.floor(random() * random() * 52);
    const elapsedMs = (60 + Math.floor(random() * 3540)) * 1000;
    const state = won ? 'won' : random() < 0.8 ? 'out-of-moves' : 'resigned';
    return { startedAt, state, foundations, moves: 120, finishedAt: startedAt + elapsedMs, rankKey: rankKey(foundations, elapsedMs) };
  });
}

/**
 * Times `fn` `calls` times (after a warm-up) and returns the median and 99th percentile in ms.
 * Each call awaited: the board answers through its store's Pending (a plain value on SQLite, so a
 * microtask at most; a round trip per query on PostgreSQL).
 */
async function timeCalls(calls: number, fn: () => unknown): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < Math.min(200, calls); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

type Timing = { median: number; p99: number };

/** The same questions on either database: its own baselines, then the board through its store. */
async function boardFigures(
  calls: number,
  store: DailyStore,
  deep: number,
  baselines: { selectOne: () => unknown; byId: (id: number) => unknown },
): Promise<Record<'baseline' | 'primaryKey' | 'leaderboard' | 'ownRank' | 'deepPage', Timing>> {
  const random = seededRandom(11);
  const board = new Leaderboard(store);
  const firstPage = { limit: 50, offset: 0 };
  const view = await board.view(DAY, firstPage, deep, true);
  const checks = [
    view.total === RESULTS,
    view.playing === PLAYING,
    view.entries.length === 50 && view.entries[0]!.rank === 1,
    view.me !== null && view.me.position === DEEP_POSITION && view.me.rank! <= DEEP_POSITION + 1,
  ];
  if (checks.includes(false)) throw new Error(`unexpected leaderboard: ${JSON.stringify({ ...view, entries: view.entries.slice(0, 3) })}`);
  const attempt = (await store.attempt(deep, DAY))!;
  return {
    baseline: await timeCalls(calls, baselines.selectOne),
    primaryKey: await timeCalls(calls, () => baselines.byId(1 + Math.floor(random() * RESULTS))),
    leaderboard: await timeCalls(calls, () => board.view(DAY, firstPage, deep, true)),
    ownRank: await timeCalls(calls, () => board.attempt(attempt)),
    deepPage: await timeCalls(Math.ceil(calls / 10), () => board.page(DAY, { limit: 50, offset: 50_000 })),
  };
}

function printFigures(title: string, figures: Awaited<ReturnType<typeof boardFigures>>): void {
  console.log(title);
  console.log('| query | median ms | p99 ms | median / `select 1` | median / primary-key lookup |');
  console.log('| --- | --- | --- | --- | --- |');
  const row = (name: string, { median, p99 }: Timing) =>
    console.log(`| ${name} | ${format(median, 4)} | ${format(p99, 4)} | ${format(median / figures.baseline.median, 0)}× | ${format(median / figures.primaryKey.median, 2)}× |`);
  row('`select 1` (baseline)', figures.baseline);
  row('games by primary key (baseline)', figures.primaryKey);
  row(`**leaderboard: first page of 50 + counts + own rank at ${format(DEEP_POSITION, 0)}th**`, figures.leaderboard);
  row(`own rank and position alone (${format(DEEP_POSITION, 0)}th)`, figures.ownRank);
  row('a deep page (offset 50 000)', figures.deepPage);
}

export async function benchDaily(): Promise<void> {
  const attempts = dayOfAttempts();
  const dir = mkdtempSync(join(tmpdir(), 'lucie-bench-daily-'));
  try {
    await sqliteRun(dir, attempts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const stopServices = startServices();
  try {
    await postgresRun(attempts);
  } finally {
    stopServices?.();
  }
}

async function postgresRun(attempts: Attempt[]): Promise<void> {
  const database = await createTestDatabase();
  try {
    const db = await openPgDatabase(database.url, { poolSize: 2 });
    const pool = db.$client;
    const loadStart = process.hrtime.bigint();
    const column = <K extends keyof Attempt>(key: K) => attempts.map((attempt) => attempt[key]);
    await pool.query(`insert into players (name, created_at) select 'player ' || n, $1 from generate_series(0, $2::integer - 1) n`, [
      opensAt,
      attempts.length,
    ]);
    // The tallies' trigger fires per row: off for the bulk load, then the tallies in one statement (what it would have counted).
    await pool.query('alter table games disable trigger user');
    await pool.query(
      `insert into games (kind, player_id, day, variant, seed, status, foundations, redeals_used, moves, started_at, deadline, finished_at, rank_key)
       select 'daily', n, $1, 'strict', $2, a.status, a.foundations, 2, a.moves, a.started_at, $3, a.finished_at, a.rank_key
       from unnest($4::text[], $5::integer[], $6::integer[], $7::bigint[], $8::bigint[], $9::bigint[]) with ordinality
         as a(status, foundations, moves, started_at, finished_at, rank_key, n)`,
      [DAY, seed, opensAt + 86_400_000, column('state'), column('foundations'), column('moves'), column('startedAt'), column('finishedAt'), column('rankKey')],
    );
    await pool.query('alter table games enable trigger user');
    await pool.query('insert into daily_tallies (day, foundations, finished) select day, foundations, count(*) from games where rank_key is not null group by day, foundations');
    const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
    // What autovacuum does to a day's rows soon after they stop changing: it marks their pages
    // all-visible, so index-only scans skip the table. Run with synchronous commits: with the
    // server's asynchronous ones the pages were left unmarked.
    const vacuum = await pool.connect();
    await vacuum.query('set synchronous_commit = on');
    await vacuum.query('vacuum analyze');
    vacuum.release();
    const store = dailyStore(pgSql(db));
    const { rows } = await pool.query('select player_id from games where day = $1 and rank_key is not null order by rank_key, id limit 1 offset $2', [DAY, DEEP_POSITION]);
    const deep = Number(rows[0].player_id);
    const figures = await boardFigures(1000, store, deep, {
      selectOne: () => pool.query('select 1'),
      byId: (id) => pool.query({ name: 'bench-by-id', text: 'select * from games where id = $1', values: [id] }),
    });
    printFigures(`## Daily leaderboard on PostgreSQL (${format(RESULTS, 0)} results + ${format(PLAYING, 0)} playing on one day; loaded in ${format(loadMs, 0)} ms)`, figures);

    // The plan of each query the board sends, as the planner makes it for this day.
    const board = new Leaderboard(store);
    const plans = await pgPlansOf(pool, async () => {
      await board.view(DAY, { limit: 50, offset: 0 }, deep, true);
      await board.page(DAY, { limit: 50, offset: 50_000 });
    });
    const full = plans.flatMap((plan) => plan.fullReads('games'));
    console.log(`\nEvery query of the board, as PostgreSQL plans it (${plans.length} queries):`);
    for (const { text, nodes } of plans) console.log(`- ${nodes.join(' → ')}  \`${text.replace(/\s+/g, ' ').slice(0, 90)}…\``);
    console.log(full.length === 0 ? 'No query scans or sorts the day: each reads an index or the tallies.' : `**The day is read whole: ${full.join(', ')}**`);
    await pool.end();
  } finally {
    await database.drop();
  }
}

async function sqliteRun(dir: string, attempts: Attempt[]): Promise<void> {
  const db = openDatabase(dir, { checkpoints: 'auto' });
  const sqlite = db.$client;

  const insertPlayer = sqlite.prepare('insert into players (name, created_at) values (?, ?)');
  const insertGame = sqlite.prepare(
    `insert into games (kind, player_id, day, variant, seed, status, foundations, redeals_used, moves, started_at, deadline, finished_at, rank_key)
     values ('daily', ?, ?, 'strict', ?, ?, ?, 2, ?, ?, ?, ?, ?)`,
  );
  const loadStart = process.hrtime.bigint();
  sqlite.transaction(() => {
    attempts.forEach((attempt, i) => {
      const playerId = Number(insertPlayer.run(`player ${i}`, opensAt).lastInsertRowid);
      const { startedAt, state, foundations, moves, finishedAt, rankKey } = attempt;
      insertGame.run(playerId, DAY, seed, state, foundations, moves, startedAt, opensAt + 86_400_000, finishedAt, rankKey);
    });
  })();
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;

  const store = dailyStore(sqliteSql(db));
  const deep = sqlite
    .prepare<[string, number], { playerId: number }>('select player_id as playerId from games where day = ? and rank_key is not null order by rank_key limit 1 offset ?')
    .get(DAY, DEEP_POSITION)!.playerId;
  const selectOne = sqlite.prepare('select 1');
  const byId = sqlite.prepare('select * from games where id = ?');
  const figures = await boardFigures(3000, store, deep, { selectOne: () => selectOne.get(), byId: (id) => byId.get(id) });
  const plan = sqlite
    .prepare(`explain query plan select count(*) from games where day = ? and rank_key >= ? and rank_key < ?`)
    .all(DAY, 0, 1)
    .map((step) => (step as { detail: string }).detail)
    .join('; ');
  printFigures(`## Daily leaderboard (${format(RESULTS, 0)} results + ${format(PLAYING, 0)} playing on one day; loaded in ${format(loadMs, 0)} ms)`, figures);
  console.log(`\nCounting among equal cards home: ${plan}. Target: the leaderboard answers within a few milliseconds.`);
  const calls = 3000;

  // Replay reconstruction of a stored game: a random strict playout, stored as the server stores
  // it (yesterday's attempt of player 1), read back and replayed as GameService.get does.
  const replaySeed = 'bench-replay';
  const playout = randomPlayout('strict', replaySeed, seededRandom(3), 1000);
  const final = replayRecord(recordOf('strict', playout.deals, playout.actions));
  if (!final.ok) throw new Error('the playout should replay');
  const { foundations } = final.value.status();
  const storedAt = opensAt - 3_600_000;
  const gameId = Number(
    insertGame.run(1, dayOf(storedAt), replaySeed, 'out-of-moves', foundations, playout.actions.length, storedAt, opensAt, storedAt + 600_000, rankKey(foundations, 600_000))
      .lastInsertRowid,
  );
  const insertDeal = sqlite.prepare('insert into game_deals (game_id, k, layout) values (?, ?, ?)');
  const insertAction = sqlite.prepare('insert into game_actions (game_id, action_index, action, at) values (?, ?, ?, ?)');
  sqlite.transaction(() => {
    playout.deals.forEach((deal, k) => insertDeal.run(gameId, k, JSON.stringify(makeLayout(deal))));
    playout.actions.forEach((action, index) => insertAction.run(gameId, index, makeAction(action), storedAt + index));
  })();
  const text = JSON.stringify(makeRecord(recordOf('strict', playout.deals, playout.actions, { seed: replaySeed })));
  const { games } = sqliteStorage(db);
  const reconstruct = () => {
    const { deals, actions } = games.loadMoveLog(gameId) as MoveLog;
    const position = replayRecord({ variant: 'strict', deals: deals.map(storedLayout), actions });
    if (!position.ok || position.value.foundationCount() !== foundations) throw new Error('the stored game should replay to its result');
    return position;
  };
  const replay = await timeCalls(calls, reconstruct);
  const parse = await timeCalls(calls, () => JSON.parse(text));
  console.log(`\n## Replay reconstruction of a stored game (${playout.actions.length} actions, ${playout.deals.length} deals, record ${format(text.length / 1024, 1)} KiB)`);
  console.log('| step | median ms | p99 ms | ratio to JSON.parse |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| JSON.parse of its record (baseline) | ${format(parse.median, 4)} | ${format(parse.p99, 4)} | 1× |`);
  console.log(
    `| load deals + actions from SQLite, replay with the engine | ${format(replay.median, 4)} | ${format(replay.p99, 4)} | ${format(replay.median / parse.median, 1)}× |`,
  );
  db.$client.close();
}
