// The `lucie` command: `lucie verify FILE...` and `lucie deal --seed S [--variant V] [--attempt A --check FILE]` (docs/record-format.md).
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
  recordOf,
  verifyRecord,
  type Result,
  type VerifyOutcome,
} from '../shared/index.js';

const USAGE = `usage:
  lucie verify FILE... (or - for standard input)   check lucie-record/1 files, one JSON line each
  lucie deal --seed S [--variant V]                 print the record of a new deal
  lucie deal --seed S [--attempt A] --check FILE    check that a record's deals are the ones seed S
                                                    deals (redeals from attempt A's own stream: a
                                                    daily attempt, A its game id)`;

function fail(message: string): never {
  process.stderr.write(`lucie: ${message}\n${USAGE}\n`);
  process.exit(2);
}

// Strict: a byte that is not UTF-8 makes the record malformed instead of turning into U+FFFD.
// The byte-order mark is kept so that the engine, which ignores exactly one, sees it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A record file's text, decoded strictly; the error is the reason `verify` prints. */
function readRecordText(file: string): Result<string> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    return err(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return ok(utf8.decode(bytes));
  } catch {
    return err('not UTF-8: the file holds bytes that are not valid UTF-8 text');
  }
}

function verify(files: string[]): number {
  if (files.length === 0) fail('verify needs at least one file');
  const lines: string[] = [];
  let allLegal = true;
  for (const file of files) {
    const text = readRecordText(file);
    const outcome: VerifyOutcome = text.ok ? verifyRecord(text.value) : { ok: false, index: null, reason: text.error };
    allLegal &&= outcome.ok;
    lines.push(JSON.stringify(outcome));
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
  if (!variant.ok) fail(variant.error);
  const layout = dealLayout(values.seed, variant.value);
  const record = recordOf(variant.value, [layout], [], { seed: values.seed });
  process.stdout.write(JSON.stringify(makeRecord(record), null, 2) + '\n');
  return 0;
}

/** `lucie deal --check`: prints `{"ok":true,"deals":N}` or the first deal that differs, exit 0 or 1. */
function checkDeals(seed: string, attempt: string | undefined, file: string): number {
  if (attempt !== undefined && !/^(0|[1-9][0-9]{0,14})$/.test(attempt)) fail(`--attempt is a whole number (a game id), not "${attempt}"`);
  const text = readRecordText(file);
  if (!text.ok) fail(text.error);
  const record = parseRecord(text.value);
  if (!record.ok) fail(`${file}: ${record.error}`);
  const redealSeed = attempt === undefined ? seed : attemptSeed(seed, Number(attempt));
  const mismatch = dealsMismatch(record.value.variant, seed, redealSeed, record.value.deals);
  const outcome = mismatch ? { ok: false, ...mismatch } : { ok: true, deals: record.value.deals.length };
  process.stdout.write(JSON.stringify(outcome) + '\n');
  return mismatch ? 1 : 0;
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'verify':
    process.exitCode = verify(rest);
    break;
  case 'deal':
    process.exitCode = deal(rest);
    break;
  case undefined:
  case '--help':
  case 'help':
    process.stdout.write(USAGE + '\n');
    break;
  default:
    fail(`unknown command "${command}"`);
}
