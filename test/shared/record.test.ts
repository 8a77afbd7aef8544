import { describe, expect, it } from 'vitest';
import {
  RECORD_FORMAT,
  dealLayout,
  makeAction,
  makeRecord,
  parseRecord,
  recordOf,
  replayRecord,
  type Action,
  type GameRecord,
} from '../../shared/index.js';
import { DEAD, WINNABLE, fansOf, layout, swap } from './helpers.js';

const WORKED = swap(DEAD, ['AS', 'KD'], ['2H', 'QD'], ['KS', '8C'], ['7C', '3H']);

describe('records: parse and make', () => {
  it('writes the fields in the order of the spec, leaving out an absent seed and meta', () => {
    const record = recordOf('strict', [layout(DEAD)], [{ type: 'redeal' }], { seed: 'lucie', meta: { player: 'ana' } });
    const json = makeRecord(record);
    expect(Object.keys(json)).toEqual(['format', 'variant', 'seed', 'deals', 'actions', 'meta']);
    expect(json).toEqual({ format: RECORD_FORMAT, variant: 'strict', seed: 'lucie', deals: [DEAD], actions: ['R'], meta: { player: 'ana' } });
    expect(Object.keys(makeRecord(recordOf('merci', [layout(DEAD)], [])))).toEqual(['format', 'variant', 'deals', 'actions']);
    expect(RECORD_FORMAT).toBe('lucie-record/1');
  });

  it('reads what it writes, from an object or from JSON text', () => {
    const record: GameRecord = {
      variant: 'fan-reserve',
      seed: 'daily-2026-11-29',
      deals: [dealLayout('daily-2026-11-29', 'fan-reserve'), layout(DEAD)],
      actions: ['1>C1', 'C1>F', 'R', 'M QD>F', '1>f'],
      meta: { player: 'ana', nested: { startedAt: '2026-11-29T10:00:00Z', n: [1, 2] } },
    };
    const json = makeRecord(record);
    expect(parseRecord(json)).toEqual({ ok: true, value: record });
    expect(parseRecord(JSON.stringify(json))).toEqual({ ok: true, value: record });
    expect(makeRecord((parseRecord(JSON.stringify(json)) as { value: GameRecord }).value)).toEqual(json);
  });

  it('reads cards leniently and writes them canonically; keeps actions exactly as written', () => {
    const lenient = DEAD.map((fan) => fan.replace('TC', '10c').replace('QD', 'q♦').replace('KH', 'K♥'));
    const parsed = parseRecord({ format: RECORD_FORMAT, variant: 'strict', deals: [lenient], actions: [' 1>F', 'M 10c>F'] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(makeRecord(parsed.value)).toEqual({ format: RECORD_FORMAT, variant: 'strict', deals: [DEAD], actions: [' 1>F', 'M 10c>F'] });
  });

  it('writes actions in record notation', () => {
    const actions: Action[] = [
      { type: 'fan-to-foundation', from: 1 },
      { type: 'fan-to-fan', from: 3, to: 8 },
      { type: 'merci', card: 9, to: null },
    ];
    expect(recordOf('strict', [layout(DEAD)], actions).actions).toEqual(['2>F', '4>9', 'M TC>F']);
    expect(actions.map(makeAction)).toEqual(['2>F', '4>9', 'M TC>F']);
  });

  it.each<[unknown, string]>([
    ['[]', 'a record must be a JSON object'],
    ['null', 'a record must be a JSON object'],
    ['"lucie-record/1"', 'a record must be a JSON object'],
    ['3', 'a record must be a JSON object'],
    [null, 'a record must be a JSON object'],
    [[], 'a record must be a JSON object'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[[]],"actions":[],"Actions":[]}', 'unknown field "Actions" (fields: format, variant, seed, deals, actions, meta)'],
    ['{"__proto__":{},"format":"lucie-record/1","variant":"strict","deals":[[]],"actions":[]}', 'unknown field "__proto__" (fields: format, variant, seed, deals, actions, meta)'],
    ['{"variant":"strict","deals":[[]],"actions":[]}', 'missing field "format"'],
    ['{"format":"lucie-record/1","deals":[[]],"actions":[]}', 'missing field "variant"'],
    ['{"format":"lucie-record/1","variant":"strict","actions":[]}', 'missing field "deals"'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[[]]}', 'missing field "actions"'],
    ['{"format":1,"variant":"strict","deals":[[]],"actions":[]}', '"format" must be a string'],
    ['{"format":"lucie-record/1","variant":["strict"],"deals":[[]],"actions":[]}', '"variant" must be a string'],
    ['{"format":"lucie-record/1","variant":"strict","seed":7,"deals":[[]],"actions":[]}', '"seed" must be a string'],
    ['{"format":"lucie-record/1","variant":"strict","seed":null,"deals":[[]],"actions":[]}', '"seed" must be a string'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[],"actions":[]}', '"deals" must be a non-empty array of layouts'],
    ['{"format":"lucie-record/1","variant":"strict","deals":{"0":[]},"actions":[]}', '"deals" must be a non-empty array of layouts'],
    ['{"format":"lucie-record/1","variant":"strict","deals":"AC","actions":[]}', '"deals" must be a non-empty array of layouts'],
    ['{"format":"lucie-record/1","variant":"strict","deals":["AC 2C"],"actions":[]}', 'deals[0] must be an array of fan strings'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"],[["AC"]]],"actions":[]}', 'deals[1] must be an array of fan strings'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC",null]],"actions":[]}', 'deals[0] must be an array of fan strings'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":"R"}', '"actions" must be an array of strings'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":["R",1]}', '"actions" must be an array of strings'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":[]}', '"meta" must be an object'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":null}', '"meta" must be an object'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":"ana"}', '"meta" must be an object'],
    ['{"format":"lucie-record/2","variant":"strict","deals":[["AC"]],"actions":[]}', 'unsupported format "lucie-record/2" (expected "lucie-record/1")'],
    ['{"format":"Lucie-Record/1","variant":"strict","deals":[["AC"]],"actions":[]}', 'unsupported format "Lucie-Record/1" (expected "lucie-record/1")'],
    ['{"format":"lucie-record/1","variant":"Strict","deals":[["AC"]],"actions":[]}', 'unknown variant "Strict" (one of strict, merci, trefoil, shamrocks, super-flower-garden, fan-reserve, kings-in-spaces, no-redeal)'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC 1C"]],"actions":[]}', 'deals[0] fan 1: "1C" is not a card (rank A 2-9 T/10 J Q K, then suit C D H S or ♣ ♦ ♥ ♠)'],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"],["2C","KD  QD"]],"actions":[]}', 'deals[1] fan 2: "KD  QD": cards must be separated by single spaces'],
  ])('refuses %j: %s', (input, error) => {
    expect(parseRecord(input)).toEqual({ ok: false, error });
  });

  it('refuses text that is not JSON', () => {
    for (const text of ['', '{', 'nope', '{"format":"lucie-record/1"} x', "{'format':'lucie-record/1'}"]) {
      const parsed = parseRecord(text);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.error).toMatch(/^not JSON: /);
    }
  });
});

describe('replaying a record', () => {
  it('visits the position after each action, and returns the last one', () => {
    const record = recordOf('strict', [layout(WORKED)], [
      { type: 'fan-to-foundation', from: 1 },
      { type: 'fan-to-fan', from: 3, to: 8 },
      { type: 'fan-to-foundation', from: 3 },
    ]);
    const seen: [number, string, string][] = [];
    const replay = replayRecord(record, (position, index, action) => seen.push([index, makeAction(action), fansOf(position)[3]!]));
    expect(seen).toEqual([
      [0, '2>F', 'QD 2S 8C'],
      [1, '4>9', 'QD 2S'],
      [2, '4>F', 'QD'],
    ]);
    expect(replay.ok && replay.value.foundations).toEqual([0, 0, 0, 2]);
  });

  it('stops at the first illegal action, naming it', () => {
    const record: GameRecord = { variant: 'strict', deals: [layout(WINNABLE)], actions: ['1>F', '2>F', '1>F'] };
    expect(replayRecord(record)).toEqual({
      ok: false,
      error: { index: 1, action: '2>F', reason: '4C cannot go to the foundation: the clubs foundation needs 2C next' },
    });
  });
});
