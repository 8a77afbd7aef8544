// `npm run bench -- storage`: the cost of storing a move (the SQLite game store's appendMove: the action
// row and the game's counts, committed with the other moves of its turn) when each turn brings one
// move and when it brings several, against a bare SQLite commit of one small row on the same
// connection, and the WAL bytes each writes (checkpoints held off while measuring).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, DB_FILE, openDatabase } from '../server/db/index.js';
import { sqliteStorage } from '../server/db/storage.js';

const GAMES = 500;
const MOVES = 20_000;
const ROUNDS = 3;
/** Moves of different games in one turn, as a busy server reads them (group commit). */
const TURN = 16;

export async function benchStorage(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lucie-bench-storage-'));
  // SQLite's own checkpoints, switched off below: the WAL then only grows, so its size is what was written.
  const db = openDatabase(dir, { checkpoints: 'auto' });
  const sqlite = db.$client;
  try {
    sqlite.exec("insert into players (name, created_at) values ('bench', 0)");
    const newGame = sqlite.prepare("insert into games (kind, player_id, variant, seed, status, foundations, started_at) values ('race', 1, 'strict', 'seed', 'playing', 0, 0)");
    const firstGame = Number(newGame.run().lastInsertRowid);
    for (let i = 1; i < GAMES; i++) newGame.run();
    sqlite.exec('create table bench_bare (id integer primary key, value text not null)');
    const bare = sqlite.prepare('insert into bench_bare (value) values (?)');
    const bareCommit = sqlite.transaction((value: string) => bare.run(value));
    const store = sqliteStorage(db).games;
    sqlite.pragma('wal_autocheckpoint = 0');
    const wal = join(dir, `${DB_FILE}-wal`);

    /** µs per write and WAL bytes per write of `write`, `perTurn` writes at a time, from an emptied log. */
    const measure = async (write: (n: number) => unknown, offset: number, perTurn = 1) => {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      const started = process.hrtime.bigint();
      for (let n = 0; n < MOVES; n += perTurn) {
        const turn: unknown[] = [];
        for (let k = 0; k < perTurn; k++) turn.push(write(offset + n + k));
        await Promise.all(turn);
      }
      const micros = Number(process.hrtime.bigint() - started) / 1000 / MOVES;
      return { micros, walBytes: statSync(wal).size / MOVES };
    };
    const move = (n: number) => {
      const index = Math.floor(n / GAMES);
      return store.appendMove({ gameId: firstGame + (n % GAMES), index, action: 'f12>h', at: n, counts: { foundations: index % 52, redealsUsed: 0, moves: index + 1 } });
    };
    const rows: string[] = [];
    const row = (label: string, measured: { micros: number; walBytes: number }, base: { micros: number; walBytes: number }) =>
      `| ${label} | ${measured.micros.toFixed(1)} | ${base.micros.toFixed(1)} | ${(measured.micros / base.micros).toFixed(2)}× | ${Math.round(measured.walBytes)} | ${Math.round(base.walBytes)} | ${(measured.walBytes / base.walBytes).toFixed(2)}× |`;
    for (let round = 0; round < ROUNDS; round++) {
      const offset = round * 2 * MOVES;
      const base = await measure((n) => bareCommit(`row ${n}`), offset);
      rows.push(row(`${round + 1}, 1 move a turn`, await measure(move, offset), base));
      rows.push(row(`${round + 1}, ${TURN} moves a turn`, await measure(move, offset + MOVES, TURN), base));
    }
    console.log(`### storing a move: ${MOVES} moves over ${GAMES} games per round and mode, SQLite WAL, synchronous NORMAL, against a bare one-row commit`);
    console.log('| round, moves per turn | move µs | bare commit µs | ratio | move WAL bytes | bare WAL bytes | ratio |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
  } finally {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
