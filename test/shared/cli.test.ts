// The `lucie` command end to end: `lucie verify FILE... -` and `lucie deal --seed S [--variant V]`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECK, VARIANT_IDS, attemptSeed, dealLayout, makeLayout, makeRecord, recordOf, redealLayout } from '../../shared/index.js';
import { DEAD, WINNABLE, WINNING_ACTIONS } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;

/** Runs `node bin/lucie.mjs ...args` from the repository root. */
const lucie = (args: readonly string[], input = '') => {
  const run = spawnSync(process.execPath, ['bin/lucie.mjs', ...args], { cwd: ROOT, input, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content));
  return path;
};
const record = (fields: object) => ({ format: 'lucie-record/1', variant: 'strict', deals: [DEAD], actions: [], ...fields });

beforeAll(() => {
  // dist/lucie.mjs is what bin/lucie.mjs runs: build it from the current cli/ and shared/.
  execFileSync('npm', ['run', '--silent', 'prepare'], { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'lucie-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lucie verify', () => {
  it('prints one JSON line per record, in order, files and standard input alike; exit 1 when one is not legal', () => {
    const legal = file('legal.json', record({ deals: [WINNABLE], actions: WINNING_ACTIONS }));
    const illegal = file('illegal.json', record({ actions: ['R', '1>f'], deals: [DEAD, DEAD] }));
    const run = lucie(['verify', legal, illegal, '-'], JSON.stringify(record({ variant: 'nope' })));
    expect(run.stdout).toBe(
      [
        '{"ok":true,"foundations":52,"won":true,"over":true,"redealsUsed":0}',
        '{"ok":false,"index":1,"action":"1>f","code":"not-an-action","reason":"\\"1>f\\" is not an action (a>F, a>b, a>Cn, Cn>b, Cn>F, R, M XY>b or M XY>F)"}',
        '{"ok":false,"index":null,"code":"unknown-variant","reason":"unknown variant \\"nope\\" (one of strict, merci, trefoil, shamrocks, super-flower-garden, fan-reserve, kings-in-spaces, no-redeal)"}',
        '',
      ].join('\n'),
    );
    expect(run.status).toBe(1);
  });

  it('exits 0 only when every record is legal', () => {
    const a = file('a.json', record({}));
    const b = file('b.json', record({ deals: [DEAD, DEAD, DEAD], actions: ['R', 'R'] }));
    const run = lucie(['verify', a, b]);
    expect(run.stdout).toBe(
      '{"ok":true,"foundations":0,"won":false,"over":false,"redealsUsed":0}\n{"ok":true,"foundations":0,"won":false,"over":true,"redealsUsed":2}\n',
    );
    expect(run.status).toBe(0);
    expect(lucie(['verify', '-'], JSON.stringify(record({}))).status).toBe(0);
  });

  it('reads a file that starts with a UTF-8 byte-order mark like any other', () => {
    const run = lucie(['verify', file('bom.json', '\uFEFF' + JSON.stringify(record({})))]);
    expect(run.stdout).toBe('{"ok":true,"foundations":0,"won":false,"over":false,"redealsUsed":0}\n');
    expect(run.status).toBe(0);
  });

  it('refuses bytes that are not UTF-8 anywhere in the file as malformed, never replacing them', () => {
    const good = Buffer.from(JSON.stringify(record({ meta: { player: 'ana' } })));
    const at = good.indexOf('ana');
    const cases = [
      [0xff], // never valid in UTF-8
      [0xc3], // a lead byte without its continuation
      [0xc0, 0xae], // an overlong "."
      [0xed, 0xa0, 0x80], // a UTF-16 surrogate
    ].map((bytes, i) => file(`bad-utf8-${i}.json`, Buffer.concat([good.subarray(0, at), Buffer.from(bytes), good.subarray(at)])));
    const run = lucie(['verify', ...cases, file('good-utf8.json', good)]);
    const notUtf8 = '{"ok":false,"index":null,"code":"not-utf8","reason":"not UTF-8: the file holds bytes that are not valid UTF-8 text"}';
    expect(run.stdout).toBe([notUtf8, notUtf8, notUtf8, notUtf8, '{"ok":true,"foundations":0,"won":false,"over":false,"redealsUsed":0}', ''].join('\n'));
    expect(run.status).toBe(1);
    const piped = spawnSync(process.execPath, ['bin/lucie.mjs', 'verify', '-'], { cwd: ROOT, input: Buffer.concat([good, Buffer.from([0xfe])]) });
    expect([piped.status, piped.stdout.toString()]).toEqual([1, notUtf8 + '\n']);
  });

  it('reports malformed input on its own line and goes on with the next record', () => {
    const notJson = file('not.json', '{"format": "lucie-record/1",');
    const empty = file('empty.json', '');
    const good = file('good.json', record({}));
    const run = lucie(['verify', notJson, join(dir, 'missing.json'), empty, good]);
    const lines = run.stdout.trimEnd().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines.slice(0, 3).map((outcome) => [outcome.ok, outcome.index])).toEqual([
      [false, null],
      [false, null],
      [false, null],
    ]);
    expect(lines.slice(0, 3).map((outcome) => outcome.code)).toEqual(['not-json', 'unreadable-file', 'not-json']);
    expect(String(lines[0]!.reason)).toMatch(/^not JSON: /);
    expect(String(lines[1]!.reason)).toContain('missing.json');
    expect(String(lines[2]!.reason)).toMatch(/^not JSON: /);
    expect(lines[3]).toEqual({ ok: true, foundations: 0, won: false, over: false, redealsUsed: 0 });
    expect(run.status).toBe(1);
  });

  it('checks many files in one call, each line matching its file', () => {
    const files = Array.from({ length: 200 }, (_, i) =>
      file(`many-${i}.json`, i % 3 === 2 ? record({ actions: [`${(i % 18) + 1}>F`] }) : record({ deals: [WINNABLE], actions: WINNING_ACTIONS.slice(0, i % 50) })),
    );
    const run = lucie(['verify', ...files]);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    lines.forEach((text, i) => {
      const outcome = JSON.parse(text) as { ok: boolean; index?: number; foundations?: number };
      if (i % 3 === 2) expect(outcome).toMatchObject({ ok: false, index: 0 });
      else expect(outcome).toMatchObject({ ok: true, foundations: i % 50 });
    });
    expect(run.status).toBe(1);
  });

  it('needs at least one file', () => {
    const run = lucie(['verify']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('verify needs at least one file');
    expect(run.status).toBe(2);
  });
});

describe('lucie deal', () => {
  it('prints the record of a new deal: deals[0] only, no actions, the same on every run', () => {
    const first = lucie(['deal', '--seed', 'lucie']);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(makeRecord(recordOf('strict', [dealLayout('lucie', 'strict')], [], { seed: 'lucie' })));
    expect(JSON.parse(first.stdout).deals[0][0]).toBe('8S 4H JD');
    expect(lucie(['deal', '--seed', 'lucie']).stdout).toBe(first.stdout);
    expect(lucie(['deal', '--seed', 'lucie', '--variant', 'strict']).stdout).toBe(first.stdout);
    expect(JSON.parse(lucie(['deal', '--seed', '']).stdout).deals[0][0]).toBe('3D AS JD');
  });

  it('deals records of every variant that verify as new games', () => {
    const files = VARIANT_IDS.map((variant) => {
      const dealt = lucie(['deal', '--seed', 'daily-2026-11-29', '--variant', variant]);
      expect(dealt.status).toBe(0);
      const json = JSON.parse(dealt.stdout) as { variant: string; seed: string; deals: string[][]; actions: string[] };
      expect([json.variant, json.seed, json.actions, json.deals.length]).toEqual([variant, 'daily-2026-11-29', [], 1]);
      expect(json.deals[0]).toEqual(makeLayout(dealLayout('daily-2026-11-29', variant)));
      return file(`deal-${variant}.json`, dealt.stdout);
    });
    const verified = lucie(['verify', ...files]);
    expect(verified.status).toBe(0);
    const outcomes = verified.stdout.trimEnd().split('\n').map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(outcomes.map(({ over: _over, ...outcome }) => outcome)).toEqual(
      VARIANT_IDS.map((variant) => ({ ok: true, foundations: variant === 'trefoil' ? 4 : 0, won: false, redealsUsed: 0 })),
    );
  });

  it('checks a daily attempt\'s deals against the revealed seed and the attempt\'s own redeal stream', () => {
    const seed = 'daily-2026-11-29-revealed';
    const own = redealLayout(attemptSeed(seed, 7), 1, DECK);
    const attempt = file('attempt-7.json', makeRecord(recordOf('strict', [dealLayout(seed, 'strict'), own], [], { seed })));
    const checked = lucie(['deal', '--seed', seed, '--attempt', '7', '--check', attempt]);
    expect([checked.status, checked.stdout]).toEqual([0, '{"ok":true,"deals":2}\n']);
    // The same cards from another attempt's stream, or from the seed itself (as races redeal), differ.
    const other = lucie(['deal', '--seed', seed, '--attempt', '8', '--check', attempt]);
    expect(other.status).toBe(1);
    expect(JSON.parse(other.stdout)).toEqual({ ok: false, k: 1, expected: makeLayout(redealLayout(attemptSeed(seed, 8), 1, DECK)) });
    const shared = lucie(['deal', '--seed', seed, '--check', attempt]);
    expect(JSON.parse(shared.stdout)).toEqual({ ok: false, k: 1, expected: makeLayout(redealLayout(seed, 1, DECK)) });
    // A race record (redeals from the race seed) checks without --attempt.
    const race = file('race.json', makeRecord(recordOf('strict', [dealLayout(seed, 'strict'), redealLayout(seed, 1, DECK)], [])));
    expect(lucie(['deal', '--seed', seed, '--check', race]).stdout).toBe('{"ok":true,"deals":2}\n');
    expect(JSON.parse(lucie(['deal', '--seed', 'another', '--check', race]).stdout)).toMatchObject({ ok: false, k: 0 });
  });

  it('refuses --attempt without --check, and an attempt that is not a number', () => {
    const alone = lucie(['deal', '--seed', 's', '--attempt', '3']);
    expect([alone.status, alone.stderr.split('\n')[0]]).toEqual([2, 'lucie: --attempt goes with --check FILE']);
    const bad = lucie(['deal', '--seed', 's', '--attempt', '1.5', '--check', file('x.json', record({}))]);
    expect([bad.status, bad.stderr.split('\n')[0]]).toEqual([2, 'lucie: --attempt is a whole number (a game id), not "1.5"']);
  });

  it('runs as `npx lucie`, the bin of the root package', () => {
    const run = spawnSync('npx', ['--no-install', 'lucie', 'deal', '--seed', 'lucie'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(lucie(['deal', '--seed', 'lucie']).stdout);
  });

  it('refuses an unknown variant or a missing seed', () => {
    const unknown = lucie(['deal', '--seed', 'x', '--variant', 'klondike']);
    expect([unknown.status, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toContain('unknown variant "klondike"');
    const noSeed = lucie(['deal']);
    expect([noSeed.status, noSeed.stdout]).toEqual([2, '']);
    expect(noSeed.stderr).toContain('deal needs --seed S');
  });
});
