// The analysis curve of a game: cards home and the deal solver's maximum after every action.
import { describe, expect, it } from 'vitest';
import { Position, dealLayout, recordOf, type Action, type VariantId, problemText } from '../../shared/index.js';
import { analyseRecord, seedDealer, solvePar } from '../../solver/index.js';
import { seededRandom } from '../../bench/measure.js';

describe('analyseRecord', () => {
  it('along par\'s line the maximum stays at what each deal reaches, and ends at par', () => {
    const cases: [VariantId, string][] = [
      ['strict', 'p0'],
      ['merci', 'p1'],
      ['trefoil', 'p4'],
      ['kings-in-spaces', 'p1'],
    ];
    for (const [variant, seed] of cases) {
      const layout = dealLayout(seed, variant);
      const start = Position.start(variant, layout);
      if (!start.ok) throw new Error(problemText(start.error));
      const par = solvePar(start.value, seedDealer(seed), { nodes: 200_000 });
      expect(par.exact).toBe(true);
      const record = recordOf(variant, [layout, ...par.redeals], par.actions);
      const analysis = analyseRecord(record);
      if (!analysis.ok) throw new Error(problemText(analysis.error.problem));
      const { points } = analysis.value;
      expect(points).toHaveLength(par.actions.length + 1);
      expect(points.every((point) => point.exact && point.dealMax >= point.home)).toBe(true);
      // Par reaches its deal's best count in every deal, so the curve is flat within a deal,
      // at the count par redeals at (or ends with).
      for (let i = 0; i < points.length; i++) {
        const next = points.findLast((point) => point.deal === points[i]!.deal)!;
        expect(points[i]!.dealMax).toBe(next.home);
      }
      expect(points.at(-1)!.home).toBe(par.par);
    }
  });

  it('random play loses cards: the curve never rises within a deal and drops where a move cost cards', () => {
    const random = seededRandom(12);
    let drops = 0;
    for (const seed of ['p0', 'p1', 'p2', 'p3', 'p4']) {
      const layout = dealLayout(seed, 'strict');
      const start = Position.start('strict', layout);
      if (!start.ok) throw new Error(problemText(start.error));
      const playout = start.value.clone();
      const actions: Action[] = [];
      for (let step = 0; step < 200; step++) {
        const legal = playout.legalActions().filter((action) => action.type !== 'redeal');
        if (legal.length === 0) break;
        const action = legal[Math.floor(random() * legal.length)]!;
        playout.play(action);
        actions.push(action);
      }
      const analysis = analyseRecord(recordOf('strict', [layout], actions));
      if (!analysis.ok) throw new Error(problemText(analysis.error.problem));
      const { points } = analysis.value;
      expect(points.every((point) => point.exact && point.dealMax >= point.home)).toBe(true);
      for (let i = 1; i < points.length; i++) {
        expect(points[i]!.dealMax).toBeLessThanOrEqual(points[i - 1]!.dealMax);
        if (points[i]!.dealMax < points[i - 1]!.dealMax) drops++;
      }
      expect(points.at(-1)!.home).toBe(playout.foundationCount());
    }
    expect(drops).toBeGreaterThan(0);
  });

  it('a record that does not replay gives the engine\'s failure, not a curve', () => {
    const layout = dealLayout('p0', 'strict');
    const analysis = analyseRecord({ variant: 'strict', deals: [layout], actions: ['nonsense'] });
    expect(analysis.ok).toBe(false);
    if (!analysis.ok) expect(analysis.error).toMatchObject({ index: 0, action: 'nonsense' });
  });
});
