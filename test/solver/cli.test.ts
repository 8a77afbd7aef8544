// `lucie solve`, `lucie stats` and `lucie board` end to end through bin/lucie.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAD, WINNABLE } from '../shared/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
const lucie = (args: readonly string[]) => {
  const run = spawnSync(process.execPath, ['bin/lucie.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};
const lines = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line));

beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'prepare'], { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'lucie-solve-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lucie solve', () => {
  it('solves a seed, and --lines writes records that lucie verify accepts at exactly the claimed counts', () => {
    const run = lucie(['solve', '--seed', 's3', '--lines', join(dir, 'lines')]);
    expect(run.status).toBe(0);
    const [line] = lines(run.stdout);
    expect(line).toMatchObject({
      input: 'seed:s3', variant: 'strict', seed: 's3',
      firstDealMax: 15, firstDealClearable: false, firstDealExact: true,
      par: 52, parWon: true, parExact: true, clairvoyant: 52, clairvoyantWon: true, clairvoyantExact: true, exact: true,
    });
    const files = readdirSync(join(dir, 'lines')).sort();
    expect(files).toEqual(['seed_s3.clairvoyant.json', 'seed_s3.deal.json', 'seed_s3.par.json']);
    const verified = lines(lucie(['verify', ...files.map((name) => join(dir, 'lines', name))]).stdout);
    expect(verified.map((outcome) => outcome.foundations)).toEqual([52, 15, 52]);
  });

  it('a lost seed: par and clairvoyant lines play on until the game is over; each measure has its own time', () => {
    const run = lucie(['solve', '--seed', 'ref-37', '--lines', join(dir, 'lost')]);
    const [line] = lines(run.stdout);
    expect(line).toMatchObject({ firstDealMax: 1, par: 27, parWon: false, clairvoyant: 46, clairvoyantWon: false, exact: true });
    for (const key of ['msDeal', 'msPar', 'msClairvoyant']) expect(line[key]).toBeGreaterThanOrEqual(0);
    // Each rounded to a tenth: together they are the whole, give or take the rounding and the dealer's set-up.
    expect(line.msDeal + line.msPar + line.msClairvoyant).toBeLessThanOrEqual(line.ms + 0.3);
    const files = readdirSync(join(dir, 'lost')).sort();
    const verified = lines(lucie(['verify', ...files.map((name) => join(dir, 'lost', name))]).stdout);
    // clairvoyant, deal, par: the deal line ends where its deal does, with the redeals still to come.
    expect(verified.map((outcome) => [outcome.foundations, outcome.over, outcome.redealsUsed])).toEqual([
      [46, true, 2],
      [1, false, 0],
      [27, true, 2],
    ]);
  });

  it('solves boards in both forms, and the board of a record read back solves the same', () => {
    const plain = join(dir, 'winnable.txt');
    writeFileSync(plain, WINNABLE.join('\n'));
    const dead = join(dir, 'dead.txt');
    writeFileSync(dead, DEAD.map((fan) => fan.replaceAll('T', '10')).join('\n'));
    const record = join(dir, 's3.json');
    writeFileSync(record, lucie(['deal', '--seed', 's3']).stdout);
    const board = join(dir, 's3.board');
    writeFileSync(board, lucie(['board', record]).stdout);
    const solved = lines(lucie(['solve', plain, dead, board]).stdout);
    expect(solved.map((line) => [line.firstDealMax, line.firstDealClearable, line.exact, line.par])).toEqual([
      [52, true, true, null],
      [0, false, true, null],
      [15, false, true, null],
    ]);
  });

  it('--redeals-used puts a board in a later deal: in the last one par and clairvoyant are the deal max', () => {
    const record = join(dir, 's3-redeals.json');
    writeFileSync(record, lucie(['deal', '--seed', 's3']).stdout);
    const board = join(dir, 's3-redeals.board');
    writeFileSync(board, lucie(['board', record]).stdout);
    const counts = (extra: string[]) =>
      lines(lucie(['solve', board, '--seed', 's3', ...extra]).stdout).map((line) => [line.firstDealMax, line.par, line.clairvoyant, line.exact]);
    expect(counts([])).toEqual([[15, 52, 52, true]]);
    expect(counts(['--redeals-used', '2'])).toEqual([[15, 15, 15, true]]);
    const over = lucie(['solve', board, '--redeals-used', '3']);
    expect(over.status).toBe(1);
    expect(lines(over.stdout)[0].error).toMatch(/redeals used must be 0-2 in strict/);
    expect(lines(lucie(['solve', record, '--redeals-used', '1']).stdout)[0].error).toMatch(/--redeals-used is for boards/);
    expect(lucie(['solve', board, '--redeals-used', 'two']).stderr).toMatch(/--redeals-used must be a whole number/);
  });

  it('--merci-used takes the merci away from a board in its last deal', () => {
    const record = join(dir, 's3-merci.json');
    writeFileSync(record, lucie(['deal', '--seed', 's3', '--variant', 'merci']).stdout);
    const board = join(dir, 's3-merci.board');
    writeFileSync(board, lucie(['board', record]).stdout);
    const max = (extra: string[]) => lines(lucie(['solve', board, '--variant', 'merci', '--redeals-used', '2', ...extra]).stdout)[0].firstDealMax;
    expect(max([])).toBe(36);
    expect(max(['--merci-used'])).toBe(15);
    expect(lines(lucie(['solve', record, '--merci-used']).stdout)[0].error).toMatch(/--merci-used is for boards/);
    expect(lucie(['solve', '--seed', 's3', '--merci-used']).stderr).toMatch(/--merci-used is for boards given as files/);
  });

  it('gives a clear error for a bad input and exits 1, other inputs still solved', () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'QD 2S 8C');
    const run = lucie(['solve', bad, '--seed', 's1', '--variant', 'no-redeal']);
    expect(run.status).toBe(1);
    expect(lines(run.stdout)[0].error).toMatch(/bad.txt: board: missing AC/);
    expect(lucie(['solve', '--variant', 'nope', '--seed', 'x']).stderr).toMatch(/unknown variant "nope"/);
  });

  it('a node limit says "not exact" instead of guessing', () => {
    const [line] = lines(lucie(['solve', '--seed', 's7', '--nodes', '50']).stdout);
    expect(line).toMatchObject({ firstDealExact: false, firstDealClearable: null, exact: false, par: null, parWon: null });
  });
});

describe('lucie board and lucie stats', () => {
  it('prints the position after action N of a record', () => {
    const record = join(dir, 'w.json');
    writeFileSync(record, JSON.stringify({ format: 'lucie-record/1', variant: 'strict', deals: [WINNABLE], actions: ['1>F', '1>F'] }));
    expect(lucie(['board', record, '--at', '1']).stdout.split('\n').slice(0, 2)).toEqual(['Foundations: C-A D-0 H-0 S-0', ': 3C 2C']);
    expect(lucie(['board', record]).stdout.split('\n')[1]).toBe(': 3C');
    expect(lucie(['board', record, '--at', '3']).stderr).toMatch(/--at must be 0-2/);
  });

  it('prints a win-rate table with 95 % intervals', () => {
    const run = lucie(['stats', '--variant', 'no-redeal', '--seeds', '3']);
    expect(run.status).toBe(0);
    const rows = run.stdout.split('\n');
    expect(rows[0]).toBe('| variant | seeds | first deal alone | par | clairvoyant |');
    expect(rows[2]).toMatch(/^\| no-redeal \| 3 \| 0\.0 % \(0\.0-56\.2\) \| 0\.0 % \(0\.0-56\.2\) \| 0\.0 % \(0\.0-56\.2\) \|$/);
  });
});
