// The `lucie` command: `lucie verify FILE...` and `lucie deal --seed S [--variant V]` (docs/record-format.md).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dealLayout, makeRecord, parseVariant, recordOf, verifyRecord, type VerifyOutcome } from '../shared/index.js';

const USAGE = `usage:
  lucie verify FILE... (or - for standard input)   check lucie-record/1 files, one JSON line each
  lucie deal --seed S [--variant V]                 print the record of a new deal`;

function fail(message: string): never {
  process.stderr.write(`lucie: ${message}\n${USAGE}\n`);
  process.exit(2);
}

// Strict: a byte that is not UTF-8 makes the record malformed instead of turning into U+FFFD.
// The byte-order mark is kept so that the engine, which ignores exactly one, sees it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function verifyFile(file: string): VerifyOutcome {
  const bytes = readFileSync(file === '-' ? 0 : file);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, index: null, reason: 'not UTF-8: the file holds bytes that are not valid UTF-8 text' };
  }
  return verifyRecord(text);
}

function verify(files: string[]): number {
  if (files.length === 0) fail('verify needs at least one file');
  const lines: string[] = [];
  let allLegal = true;
  for (const file of files) {
    let outcome: VerifyOutcome;
    try {
      outcome = verifyFile(file);
    } catch (error) {
      outcome = { ok: false, index: null, reason: `cannot read ${file}: ${(error as Error).message}` };
    }
    allLegal &&= outcome.ok;
    lines.push(JSON.stringify(outcome));
  }
  process.stdout.write(lines.join('\n') + '\n');
  return allLegal ? 0 : 1;
}

function deal(args: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { seed: { type: 'string' }, variant: { type: 'string', default: 'strict' } } }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.seed === undefined) fail('deal needs --seed S');
  const variant = parseVariant(values.variant);
  if (!variant.ok) fail(variant.error);
  const layout = dealLayout(values.seed, variant.value);
  const record = recordOf(variant.value, [layout], [], { seed: values.seed });
  process.stdout.write(JSON.stringify(makeRecord(record), null, 2) + '\n');
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
  case undefined:
  case '--help':
  case 'help':
    process.stdout.write(USAGE + '\n');
    break;
  default:
    fail(`unknown command "${command}"`);
}
