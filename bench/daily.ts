// Daily benchmark: a day with 100 000 stored results in a real (temporary, WAL) database. The
// leaderboard (first page, counts, and the own rank of a player deep in the list) against a bare
// `select 1` and a primary-key lookup; replay reconstruction of a stored game (load its deals and
// actions, replay them with the engine) against JSON.parse of its record.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAction, makeLayout, makeRecord, recordOf, replayRecord } from '../shared/index.js';
import { dayOf } from '../contract/index.js';
import { dailySeed, Leaderboard } from '../server/daily.js';
import { SqliteDailyStore } from '../server/db/daily-store.js';
import { openDatabase } from '../server/db/index.js';
import { loadMoveLog } from '../server/db/game-store.js';
import { storedLayout } from '../server/games.js';
import { rankKey } from '../server/standings.js';
import { randomPlayout } from './engine.js';
import { format, percentile, seededRandom } from './measure.js';

const DAY = '2026-11-29';
const RESULTS = 100_000;
/** Attempts still being played: not on the board, counted apart. */
const PLAYING = 2_000;

/** Times `fn` `calls` times (after a warm-up) and returns the median and 99th percentile in ms. */
/** Each call awaited: the board answers through its store's Pending (a plain value on SQLite, so a microtask at most). */
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

export async function benchDaily(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-bench-daily-'));
  try {
    await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(dir: string): Promise<void> {
  const db = openDatabase(dir, { checkpoints: 'auto' });
  const sqlite = db.$client;
  const random = seededRandom(7);
  const opensAt = Date.parse(`${DAY}T00:00:00Z`);
  const seed = dailySeed('bench-secret', DAY);

  // 100 000 players and their results in one transaction: about 1 in 12 wins, the losses
  // spread over 0-51 cards home (bunched low, as in strict), 1-60 minutes each, whole seconds so
  // that ties happen.
  const insertPlayer = sqlite.prepare('insert into players (name, token_hash, created_at) values (?, ?, ?)');
  const insertGame = sqlite.prepare(
    `insert into games (kind, player_id, day, variant, seed, status, foundations, redeals_used, moves, started_at, deadline, finished_at, rank_key)
     values ('daily', ?, ?, 'strict', ?, ?, ?, 2, ?, ?, ?, ?, ?)`,
  );
  const loadStart = process.hrtime.bigint();
  sqlite.transaction(() => {
    for (let i = 0; i < RESULTS + PLAYING; i++) {
      const playerId = Number(insertPlayer.run(`player ${i}`, `hash-${i}`, opensAt).lastInsertRowid);
      const startedAt = opensAt + Math.floor(random() * 20 * 3_600_000);
      if (i >= RESULTS) {
        insertGame.run(playerId, DAY, seed, 'playing', Math.floor(random() * 20), 10, startedAt, opensAt + 86_400_000, null, null);
        continue;
      }
      const won = random() < 0.08;
      const foundations = won ? 52 : Math.floor(random() * random() * 52);
      const elapsedMs = (60 + Math.floor(random() * 3540)) * 1000;
      const state = won ? 'won' : random() < 0.8 ? 'out-of-moves' : 'resigned';
      insertGame.run(playerId, DAY, seed, state, foundations, 120, startedAt, opensAt + 86_400_000, startedAt + elapsedMs, rankKey(foundations, elapsedMs));
    }
  })();
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;

  const store = new SqliteDailyStore(db);
  const board = new Leaderboard(store);
  const firstPage = { limit: 50, offset: 0 };
  // A player ranked about 90 000th: the worst case for counting the results ahead.
  const deep = sqlite
    .prepare<[string], { playerId: number }>('select player_id as playerId from games where day = ? and rank_key is not null order by rank_key limit 1 offset 90000')
    .get(DAY)!.playerId;
  const view = await board.view(DAY, firstPage, deep, true);
  const checks = [
    view.total === RESULTS,
    view.playing === PLAYING,
    view.entries.length === 50 && view.entries[0]!.rank === 1,
    view.me !== null && view.me.position === 90_000 && view.me.rank! <= 90_001,
  ];
  if (checks.includes(false)) throw new Error(`unexpected leaderboard: ${JSON.stringify({ ...view, entries: view.entries.slice(0, 3) })}`);

  const selectOne = sqlite.prepare('select 1');
  const byId = sqlite.prepare('select * from games where id = ?');
  const calls = 3000;
  const baseline = await timeCalls(calls, () => selectOne.get());
  const primaryKey = await timeCalls(calls, () => byId.get(1 + Math.floor(random() * RESULTS)));
  const leaderboard = await timeCalls(calls, () => board.view(DAY, firstPage, deep, true));
  const ownRank = await timeCalls(calls, () => board.attempt(store.attempt(deep, DAY)!));
  const deepPage = await timeCalls(300, () => board.page(DAY, { limit: 50, offset: 50_000 }));
  const plan = sqlite
    .prepare(`explain query plan select count(*) from games where day = ? and rank_key >= ? and rank_key < ?`)
    .all(DAY, 0, 1)
    .map((step) => (step as { detail: string }).detail)
    .join('; ');

  console.log(`## Daily leaderboard (${format(RESULTS, 0)} results + ${format(PLAYING, 0)} playing on one day; loaded in ${format(loadMs, 0)} ms)`);
  console.log('| query | median ms | p99 ms | median / `select 1` | median / primary-key lookup |');
  console.log('| --- | --- | --- | --- | --- |');
  const row = (name: string, { median, p99 }: { median: number; p99: number }) =>
    console.log(`| ${name} | ${format(median, 4)} | ${format(p99, 4)} | ${format(median / baseline.median, 0)}× | ${format(median / primaryKey.median, 2)}× |`);
  row('`select 1` (baseline)', baseline);
  row('games by primary key (baseline)', primaryKey);
  row('**leaderboard: first page of 50 + counts + own rank at 90 000th**', leaderboard);
  row('own rank and position alone (90 000th)', ownRank);
  row('a deep page (offset 50 000)', deepPage);
  console.log(`\nCounting among equal cards home: ${plan}. Target: the leaderboard answers within a few milliseconds.`);

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
  const reconstruct = () => {
    const { deals, actions } = loadMoveLog(db, gameId);
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
