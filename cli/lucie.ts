// The `lucie` command: `lucie verify FILE...` and `lucie deal --seed S [--variant V] [--attempt A --check FILE]` (docs/record-format.md);
// `lucie solve`, `lucie stats` and `lucie board` (the solver).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  attemptSeed,
  dealLayout,
  dealsMismatch,
  makeRecord,
  parseRecord,
  parseVariant,
  err,
  ok,
  problemText,
  recordOf,
  verifyRecord,
  type Result,
  type VariantId,
} from '../shared/index.js';
import { backup, restore } from './backup.js';
import { verifyLine } from './verify-line.js';
import { boardOf, formatRate, readInput, readText, seedInput, solveInput, writeLines, type Rate, type SolveInput } from './solve.js';

const USAGE = `usage:
  lucie verify FILE... (or - for standard input)   check lucie-record/1 files, one JSON line each
  lucie deal --seed S [--variant V]                 print the record of a new deal
  lucie deal --seed S [--attempt A] --check FILE    check that a record's deals are the ones seed S
                                                    deals (redeals from attempt A's own stream: a
                                                    daily attempt, A its game id)
  lucie solve FILE... | --seed S [--variant V] [--lines DIR] [--nodes N (per measure)]
              [--redeals-used N] [--merci-used]     solve records or boards (one fan per line, or
                                                    the Foundations:/: board form), one JSON line each;
                                                    a board is in deal 1 unless N redeals came before,
                                                    its merci still to play unless --merci-used
  lucie stats --variant V --seeds N [--nodes N]     win rates (95 % intervals) over seeds 1..N
  lucie board FILE [--at N]                         the position after action N of a record, as a board
  lucie backup DATA_DIR FILE                        copy DATA_DIR's database to FILE, online (the server may run)
  lucie restore FILE DATA_DIR                       put backup FILE in place as DATA_DIR's database (refused
                                                    while a server runs on it; a stopped one is kept aside)`;

function fail(message: string): never {
  process.stderr.write(`lucie: ${message}\n${USAGE}\n`);
  process.exit(2);
}

// Strict: a byte that is not UTF-8 makes the record malformed instead of turning into U+FFFD.
// The byte-order mark is kept so that the engine, which ignores exactly one, sees it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why a file gives no text to verify: the command's own codes beside the engine's. */
interface Unreadable {
  readonly code: 'unreadable-file' | 'not-utf8';
  readonly reason: string;
}

/** A record file's text, decoded strictly; the error is the code and reason `verify` prints. */
function readRecordText(file: string): Result<string, Unreadable> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    return err({ code: 'unreadable-file', reason: `cannot read ${file}: ${(error as Error).message}` });
  }
  try {
    return ok(utf8.decode(bytes));
  } catch {
    return err({ code: 'not-utf8', reason: 'not UTF-8: the file holds bytes that are not valid UTF-8 text' });
  }
}

function verify(files: string[]): number {
  if (files.length === 0) fail('verify needs at least one file');
  const lines: string[] = [];
  let allLegal = true;
  for (const file of files) {
    const text = readRecordText(file);
    if (!text.ok) {
      allLegal = false;
      lines.push(JSON.stringify({ ok: false, index: null, ...text.error }));
      continue;
    }
    const outcome = verifyRecord(text.value);
    allLegal &&= outcome.ok;
    lines.push(verifyLine(outcome));
  }
  process.stdout.write(lines.join('\n') + '\n');
  return allLegal ? 0 : 1;
}

function deal(args: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { seed: { type: 'string' }, variant: { type: 'string', default: 'strict' }, attempt: { type: 'string' }, check: { type: 'string' } },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.seed === undefined) fail('deal needs --seed S');
  if (values.attempt !== undefined && values.check === undefined) fail('--attempt goes with --check FILE');
  if (values.check !== undefined) return checkDeals(values.seed, values.attempt, values.check);
  const variant = parseVariant(values.variant);
  if (!variant.ok) fail(problemText(variant.error));
  const layout = dealLayout(values.seed, variant.value);
  const record = recordOf(variant.value, [layout], [], { seed: values.seed });
  process.stdout.write(JSON.stringify(makeRecord(record), null, 2) + '\n');
  return 0;
}

/** `lucie deal --check`: prints `{"ok":true,"deals":N}` or the first deal that differs, exit 0 or 1. */
function checkDeals(seed: string, attempt: string | undefined, file: string): number {
  if (attempt !== undefined && !/^(0|[1-9][0-9]{0,14})$/.test(attempt)) fail(`--attempt is a whole number (a game id), not "${attempt}"`);
  const text = readRecordText(file);
  if (!text.ok) fail(text.error.reason);
  const record = parseRecord(text.value);
  if (!record.ok) fail(`${file}: ${problemText(record.error)}`);
  const redealSeed = attempt === undefined ? seed : attemptSeed(seed, Number(attempt));
  const mismatch = dealsMismatch(record.value.variant, seed, redealSeed, record.value.deals);
  const outcome = mismatch ? { ok: false, ...mismatch } : { ok: true, deals: record.value.deals.length };
  process.stdout.write(JSON.stringify(outcome) + '\n');
  return mismatch ? 1 : 0;
}

function variantOption(text: string | undefined): VariantId {
  const variant = parseVariant(text ?? 'strict');
  if (!variant.ok) fail(problemText(variant.error));
  return variant.value;
}

function nodesOption(text: string | undefined): { nodes?: number } {
  if (text === undefined) return {};
  const nodes = Number(text);
  if (!Number.isInteger(nodes) || nodes < 1) fail(`--nodes must be a positive whole number, not "${text}"`);
  return { nodes };
}

function solve(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        seed: { type: 'string' },
        variant: { type: 'string' },
        lines: { type: 'string' },
        nodes: { type: 'string' },
        'redeals-used': { type: 'string' },
        'merci-used': { type: 'boolean' },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  const variant = variantOption(values.variant);
  const limits = nodesOption(values.nodes);
  const redealsText = values['redeals-used'];
  const redealsUsed = redealsText === undefined ? undefined : Number(redealsText);
  if (redealsUsed !== undefined && (!Number.isInteger(redealsUsed) || redealsUsed < 0)) {
    fail(`--redeals-used must be a whole number from 0, not "${redealsText}"`);
  }
  if (redealsUsed !== undefined && positionals.length === 0) fail('--redeals-used is for boards given as files');
  const merciUsed = values['merci-used'] === true;
  if (merciUsed && positionals.length === 0) fail('--merci-used is for boards given as files');
  const inputs: (SolveInput | string)[] = [];
  if (positionals.length === 0) {
    if (values.seed === undefined) fail('solve needs files or --seed S');
    inputs.push(seedInput(values.seed, variant));
  }
  for (const file of positionals) {
    try {
      inputs.push(readInput(file, readText(file), variant, values.seed, { ...(redealsUsed !== undefined && { redealsUsed }), ...(merciUsed && { merciUsed }) }));
    } catch (error) {
      inputs.push(`cannot read ${file}: ${(error as Error).message}`);
    }
  }
  let allSolved = true;
  for (const input of inputs) {
    if (typeof input === 'string') {
      allSolved = false;
      process.stdout.write(JSON.stringify({ error: input }) + '\n');
      continue;
    }
    const { line, lines } = solveInput(input, limits, () => performance.now());
    process.stdout.write(JSON.stringify(line) + '\n');
    if (values.lines !== undefined) writeLines(values.lines, input, lines);
  }
  return allSolved ? 0 : 1;
}

function stats(args: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { variant: { type: 'string' }, seeds: { type: 'string' }, nodes: { type: 'string' } } }));
  } catch (error) {
    fail((error as Error).message);
  }
  const variant = variantOption(values.variant);
  const count = Number(values.seeds);
  if (!Number.isInteger(count) || count < 1) fail('stats needs --seeds N (a positive whole number)');
  const limits = nodesOption(values.nodes);
  const rates = { firstDeal: { won: 0, unknown: 0, total: count }, par: { won: 0, unknown: 0, total: count }, clairvoyant: { won: 0, unknown: 0, total: count } };
  const tally = (rate: Rate, won: boolean | null) => (won === null ? rate.unknown++ : won && rate.won++);
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const { line } = solveInput(seedInput(String(i), variant), limits, () => performance.now());
    tally(rates.firstDeal, line.firstDealClearable);
    tally(rates.par, line.parWon);
    tally(rates.clairvoyant, line.clairvoyantWon);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      `| variant | seeds | first deal alone | par | clairvoyant |`,
      `| --- | --- | --- | --- | --- |`,
      `| ${variant} | ${count} | ${formatRate(rates.firstDeal)} | ${formatRate(rates.par)} | ${formatRate(rates.clairvoyant)} |`,
      `(seeds "1" to "${count}", ${seconds} s)`,
    ].join('\n') + '\n',
  );
  return 0;
}

function board(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { at: { type: 'string' } } });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) fail('board needs exactly one record file');
  const at = values.at === undefined ? undefined : Number(values.at);
  if (at !== undefined && !Number.isInteger(at)) fail(`--at must be a whole number, not "${values.at}"`);
  try {
    process.stdout.write(boardOf(readText(positionals[0]!), at));
  } catch (error) {
    process.stderr.write(`lucie: ${(error as Error).message}\n`);
    return 1;
  }
  return 0;
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'verify':
    process.exitCode = verify(rest);
    break;
  case 'deal':
    process.exitCode = deal(rest);
    break;
  case 'solve':
    process.exitCode = solve(rest);
    break;
  case 'stats':
    process.exitCode = stats(rest);
    break;
  case 'backup':
    process.exitCode = await backup(rest, fail);
    break;
  case 'restore':
    process.exitCode = await restore(rest, fail);
    break;
  case 'board':
    process.exitCode = board(rest);
    break;
  case undefined:
  case '--help':
  case 'help':
    process.stdout.write(USAGE + '\n');
    break;
  default:
    fail(`unknown command "${command}"`);
}
