import { describe, expect, it } from 'vitest';
import {
  RECORD_FORMAT,
  dealLayout,
  makeAction,
  makeRecord,
  parseRecord,
  problemText,
  recordOf,
  replayRecord,
  type Action,
  type GameRecord,
  type Problem,
} from '../../shared/index.js';
import { DEAD, WINNABLE, fansOf, layout, swap, cardNamed } from './helpers.js';

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

  it.each<[unknown, Problem]>([
    ['[]', { code: 'not-an-object' }],
    ['null', { code: 'not-an-object' }],
    ['"lucie-record/1"', { code: 'not-an-object' }],
    ['3', { code: 'not-an-object' }],
    [null, { code: 'not-an-object' }],
    [[], { code: 'not-an-object' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[[]],"actions":[],"Actions":[]}', { code: 'unknown-field', name: 'Actions' }],
    ['{"__proto__":{},"format":"lucie-record/1","variant":"strict","deals":[[]],"actions":[]}', { code: 'unknown-field', name: '__proto__' }],
    ['{"variant":"strict","deals":[[]],"actions":[]}', { code: 'missing-field', name: 'format' }],
    ['{"format":"lucie-record/1","deals":[[]],"actions":[]}', { code: 'missing-field', name: 'variant' }],
    ['{"format":"lucie-record/1","variant":"strict","actions":[]}', { code: 'missing-field', name: 'deals' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[[]]}', { code: 'missing-field', name: 'actions' }],
    ['{"format":1,"variant":"strict","deals":[[]],"actions":[]}', { code: 'not-a-string', name: 'format' }],
    ['{"format":"lucie-record/1","variant":["strict"],"deals":[[]],"actions":[]}', { code: 'not-a-string', name: 'variant' }],
    ['{"format":"lucie-record/1","variant":"strict","seed":7,"deals":[[]],"actions":[]}', { code: 'not-a-string', name: 'seed' }],
    ['{"format":"lucie-record/1","variant":"strict","seed":null,"deals":[[]],"actions":[]}', { code: 'not-a-string', name: 'seed' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[],"actions":[]}', { code: 'no-deals' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":{"0":[]},"actions":[]}', { code: 'no-deals' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":"AC","actions":[]}', { code: 'no-deals' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":["AC 2C"],"actions":[]}', { code: 'deal-not-fans', deal: 0 }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"],[["AC"]]],"actions":[]}', { code: 'deal-not-fans', deal: 1 }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC",null]],"actions":[]}', { code: 'deal-not-fans', deal: 0 }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":"R"}', { code: 'actions-not-strings' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":["R",1]}', { code: 'actions-not-strings' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":[]}', { code: 'meta-not-object' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":null}', { code: 'meta-not-object' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"]],"actions":[],"meta":"ana"}', { code: 'meta-not-object' }],
    ['{"format":"lucie-record/2","variant":"strict","deals":[["AC"]],"actions":[]}', { code: 'unsupported-format', text: 'lucie-record/2' }],
    ['{"format":"Lucie-Record/1","variant":"strict","deals":[["AC"]],"actions":[]}', { code: 'unsupported-format', text: 'Lucie-Record/1' }],
    ['{"format":"lucie-record/1","variant":"Strict","deals":[["AC"]],"actions":[]}', { code: 'unknown-variant', text: 'Strict' }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC 1C"]],"actions":[]}', { code: 'in-deal', deal: 0, problem: { code: 'in-fan', fan: 1, problem: { code: 'not-a-card', text: '1C' } } }],
    ['{"format":"lucie-record/1","variant":"strict","deals":[["AC"],["2C","KD  QD"]],"actions":[]}', { code: 'in-deal', deal: 1, problem: { code: 'in-fan', fan: 2, problem: { code: 'card-spacing', text: 'KD  QD' } } }],
  ])('refuses %j: %s', (input, error) => {
    expect(parseRecord(input)).toEqual({ ok: false, error });
  });

  it('refuses text that is not JSON', () => {
    for (const text of ['', '{', 'nope', '{"format":"lucie-record/1"} x', "{'format':'lucie-record/1'}"]) {
      const parsed = parseRecord(text);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.error).toEqual({ code: 'not-json', detail: expect.any(String) });
      expect(!parsed.ok && problemText(parsed.error)).toMatch(/^not JSON: /);
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
      error: { index: 1, action: '2>F', problem: { code: 'foundation-needs', card: cardNamed('4C'), needed: cardNamed('2C') } },
    });
  });
});
