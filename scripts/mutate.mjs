// `npm run mutate [-- NAME...]`: deliberate breaks of the server's promises (the move path,
// standings, what stays hidden, storage), each applied alone to a scratch copy of the repository,
// then the server tests run against it. A break the tests do not notice is a missing test.
// Prints one line per break and the count caught; exit code 1 if any break went unnoticed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each break: a file, a text found exactly once in it, what replaces it, and what it breaks. */
const BREAKS = [
  // The move path (server/games/authority.ts decides, server/games/service.ts stores and acks).
  { name: 'ack-before-store', file: 'server/games/service.ts', find: '      stored = this.store.appendMove(move);', replace: '      commit();\n      stored = this.store.appendMove(move);', breaks: 'a move is acknowledged before it is stored' },
  { name: 'index-one-ahead', file: 'server/games/authority.ts', find: 'if (request.index > nextIndex) {', replace: 'if (request.index > nextIndex + 1) {', breaks: 'an action one ahead of the game is taken (and stored at the wrong index)' },
  { name: 'resend-any-action', file: 'server/games/authority.ts', find: 'if (parsed.ok && makeAction(parsed.value) === stored) return', replace: 'if (parsed.ok) return', breaks: 'a different action at a stored index is acknowledged as a resend' },
  { name: 'illegal-accepted', file: 'server/games/authority.ts', find: '    if (problem !== undefined) {', replace: '    if (problem !== undefined && action.type === "redeal") {', breaks: 'an illegal move (other than a redeal) is played' },
  { name: 'position-shared', file: 'server/games/authority.ts', find: 'const position = game.position.clone();', replace: 'const position = game.position;', breaks: 'a move the storage refuses still changes the position in memory' },
  { name: 'play-after-over', file: 'server/games/authority.ts', find: "  if (game.state !== 'playing') {", replace: '  if (game.state !== game.state) {', breaks: 'a finished game takes more moves' },
  { name: 'failed-store-acked', file: 'server/games/service.ts', find: '    } catch (error) {\n      return unstored(error);', replace: '    } catch {\n      return commit();', breaks: 'a move whose write failed is acknowledged anyway' },
  { name: 'others-game', file: 'server/games/service.ts', find: 'if (game.playerId !== player.id) return', replace: 'if (game.playerId === -1) return', breaks: 'a player plays someone else’s game' },
  { name: 'move-count', file: 'server/games/authority.ts', find: 'moves: nextIndex + 1 }', replace: 'moves: nextIndex }', breaks: 'the stored move count lags one behind' },
  // Standings (server/standings.ts, server/races/).
  { name: 'rank-by-fewer-cards', file: 'server/standings.ts', find: 'return (52 - foundations) * TIME_SPAN', replace: 'return foundations * TIME_SPAN', breaks: 'fewer cards home ranks first' },
  { name: 'ties-split', file: 'server/standings.ts', find: 'key === sortedKeys[i - 1] ? ranks[i - 1]!', replace: 'false ? ranks[i - 1]!', breaks: 'exact ties get different ranks' },
  { name: 'ties-dense', file: 'server/standings.ts', find: ': start + i + 1));', replace: ': ranks[i - 1]! + 1));', breaks: 'ranks after a tie are dense (1, 1, 2) instead of competition ranks (1, 1, 3)' },
  { name: 'unfinished-first', file: 'server/standings.ts', find: 'finisher.finishedAt ?? TIME_SPAN', replace: 'finisher.finishedAt ?? 0', breaks: 'an unfinished racer ranks before finished ones with as many cards' },
  { name: 'race-ends-early', file: 'server/races/machine.ts', find: 'command.games.some((game) => stillPlaying(game.state))', replace: 'command.games.every((game) => stillPlaying(game.state))', breaks: 'a race finishes while someone is still playing' },
  // What stays hidden.
  { name: 'race-seed-early', file: 'server/races/views.ts', find: 'seed: finished ? race.seed : null,', replace: 'seed: race.seed,', breaks: 'a race’s seed is shown before it is finished' },
  { name: 'race-record-early', file: 'server/replays.ts', find: "return row.raceState === 'finished';", replace: 'return true;', breaks: 'a race game’s moves and seed are public before the race ends' },
  { name: 'daily-record-early', file: 'server/replays.ts', find: 'return this.daily.isOver(row.game.day!);', replace: 'return true;', breaks: 'a daily game’s moves are public while the day is open' },
  { name: 'daily-seed-early', file: 'server/daily.ts', find: 'seed: over ? await this.seedOf(day) : null,', replace: 'seed: await this.seedOf(day),', breaks: 'the daily seed is shown while the day is open' },
  { name: 'race-replay-early', file: 'server/race-replay.ts', find: "if (row.state !== 'finished') {", replace: "if (row.state === 'lobby') {", breaks: 'a race’s replay (every board and move) is served while it runs' },
  // Storage (server/db/group-commit.ts: SQLite's move path; server/db/game-store.ts).
  { name: 'redeal-not-stored', file: 'server/db/group-commit.ts', find: '    if (deal) this.statements.deal.run', replace: '      if (deal && false) this.statements.deal.run', breaks: 'a redeal’s layout is not stored' },
  { name: 'result-not-stored', file: 'server/db/group-commit.ts', find: 'if (result) this.statements.result.run(', replace: 'if (result && false) this.statements.result.run(', breaks: 'a game’s end (won, out of moves) is not stored with its last move' },
  { name: 'moves-reordered', file: 'server/db/game-store.ts', find: '.orderBy(asc(gameActions.index))', replace: '.orderBy(asc(gameActions.action))', breaks: 'the move log is read back in the wrong order' },
  { name: 'end-overwrites', file: 'server/db/game-store.ts', find: ".where(and(eq(games.id, gameId), eq(games.status, 'playing')))", replace: '.where(eq(games.id, gameId))', breaks: 'a finished game’s stored result can be overwritten' },
  { name: 'end-without-counts', file: 'server/db/game-store.ts', find: '.set({ ...counts, status, finishedAt, rankKey })', replace: '.set({ status, finishedAt, rankKey })', breaks: 'a game ended without a move (resigned, timed out) keeps the counts it was dealt with' },
  { name: 'live-counts-from-row', file: 'server/db/game-columns.ts', find: 'coalesce(${lastCards}, ${games.foundations})', replace: '${games.foundations}', breaks: 'a playing game shows the cards home it was dealt with, not those of its last move' },
];

/** The server tests and the stores' contract suites; the chaos, WAL and PostgreSQL files are slow or need services and test other things. */
const TESTS = ['test/server', 'test/server/stores'].flatMap((folder) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.test.ts') && !/^(chaos|wal-bound|pg-.*)\.test\.ts$/.test(name))
    .map((name) => `${folder}/${name}`),
);

const wanted = process.argv.slice(2);
const breaks = wanted.length > 0 ? BREAKS.filter((entry) => wanted.includes(entry.name)) : BREAKS;
const scratch = mkdtempSync(join(tmpdir(), 'lucie-mutate-'));
const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
for (const file of files) cpSync(join(root, file), join(scratch, file), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));

const runTests = () => spawnSync('npx', ['vitest', 'run', '--project', 'unit', '--bail', '1', ...TESTS], { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: '1' } });

let caught = 0;
try {
  // Unbroken, the tests must pass: otherwise every break would look caught.
  const baseline = runTests();
  if (baseline.status !== 0) {
    console.log(`the server tests fail without any break:\n${baseline.stdout.slice(-3000)}`);
    process.exit(2);
  }
  for (const entry of breaks) {
    const path = join(scratch, entry.file);
    const original = readFileSync(path, 'utf8');
    const found = original.split(entry.find).length - 1;
    if (found !== 1) {
      console.log(`? ${entry.name}: its text is found ${found} times in ${entry.file} (update this script)`);
      continue;
    }
    writeFileSync(path, original.replace(entry.find, () => entry.replace));
    const started = Date.now();
    const run = runTests();
    writeFileSync(path, original);
    const failed = run.status !== 0;
    const by = /FAIL\s+(?:\S+\s+)?(test\/\S+)/.exec((run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
    if (failed) caught++;
    console.log(`${failed ? '✓ caught' : '✗ MISSED'} ${entry.name}: ${entry.breaks}${by ? ` (by ${by})` : ''} [${((Date.now() - started) / 1000).toFixed(0)} s]`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`${caught} of ${breaks.length} deliberate breaks caught by the server tests`);
process.exit(caught === breaks.length ? 0 : 1);
