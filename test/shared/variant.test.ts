import { describe, expect, it } from 'vitest';
import { FAN_SIZE, VARIANTS, VARIANT_IDS, parseVariant, type Rules } from '../../shared/index.js';

/** Each variant's row of docs/rules.md: the fields that differ from `strict`, nothing else. */
const DIFFERENCES: Record<string, Partial<Rules>> = {
  strict: {},
  merci: { merci: true },
  trefoil: { acesStart: true },
  shamrocks: { build: 'any-suit-down', maxFanSize: 3, canCycle: true },
  'super-flower-garden': { build: 'same-suit-up-or-down', canCycle: true },
  'fan-reserve': { cells: 4, canCycle: true },
  'kings-in-spaces': { kingsInSpaces: true },
  'no-redeal': { redeals: 0 },
};

describe('variants', () => {
  it('are the eight of docs/rules.md, strict first', () => {
    expect(VARIANT_IDS).toEqual([
      'strict',
      'merci',
      'trefoil',
      'shamrocks',
      'super-flower-garden',
      'fan-reserve',
      'kings-in-spaces',
      'no-redeal',
    ]);
    expect(Object.keys(VARIANTS).sort()).toEqual([...VARIANT_IDS].sort());
  });

  it('strict is the profile of docs/rules.md: 2 redeals, no merci, same-suit builds down, no cells, empty fans stay empty', () => {
    const { title: _title, ...strict } = VARIANTS.strict;
    expect(strict).toEqual({
      id: 'strict',
      redeals: 2,
      merci: false,
      acesStart: false,
      build: 'same-suit-down',
      maxFanSize: null,
      cells: 0,
      kingsInSpaces: false,
      canCycle: false,
    });
    expect(FAN_SIZE).toBe(3);
  });

  it.each(VARIANT_IDS)('%s differs from strict only by its row of docs/rules.md', (id) => {
    const { title: _title, ...rules } = VARIANTS[id];
    const { title: _strictTitle, ...strict } = VARIANTS.strict;
    expect(rules).toEqual({ ...strict, id, ...DIFFERENCES[id] });
  });

  it('reads variant ids exactly', () => {
    for (const id of VARIANT_IDS) expect(parseVariant(id)).toEqual({ ok: true, value: id });
    for (const text of ['Strict', 'STRICT', ' strict', 'strict ', 'super flower garden', 'belle', '', '__proto__', 'toString']) {
      expect(parseVariant(text)).toEqual({
        ok: false,
        error: { code: 'unknown-variant', text },
      });
    }
  });
});
