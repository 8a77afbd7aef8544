// The bound of a deal's start from its layout alone, against the deal state's own.
import { describe, expect, it } from 'vitest';
import { VARIANTS, type VariantId } from '../../shared/index.js';
import { seedDealer } from '../../solver/index.js';
import { StartBounds } from '../../solver/start-bounds.js';
import { cardsAbove, DealState, packHeights } from '../../solver/state.js';
import { seededRandom } from '../../bench/measure.js';

describe('start bounds', () => {
  it.each<VariantId>(['strict', 'merci', 'super-flower-garden', 'shamrocks', 'fan-reserve'])('%s: one probe gives each start the bound of its own state, whatever came before', (variant) => {
    const rules = VARIANTS[variant];
    const dealer = seedDealer(`bounds-${variant}`);
    const random = seededRandom(7);
    const probe = new StartBounds(rules);
    const bounds = new Set<number>();
    for (let i = 0; i < 200; i++) {
      // Foundations from empty to nearly full, so the layouts' fan counts go up and down.
      const heights = packHeights([0, 1, 2, 3].map(() => Math.floor(random() * 14 * random())));
      const deal = rules.redeals;
      const layout = dealer(deal, cardsAbove(heights));
      const bound = probe.bound(layout, heights, rules.merci);
      expect(bound).toBe(DealState.redealt(rules, heights, layout, deal).bound());
      bounds.add(bound);
    }
    // Not one bound for every start (52 where cells make the bound useless).
    if (rules.cells === 0) expect(bounds.size).toBeGreaterThan(5);
  });
});
