import { describe, expect, it } from 'vitest';
import { Position, VARIANTS, VARIANT_IDS, dealLayout, makeBoard, redealLayout, type Layout } from '../../shared/index.js';

/**
 * Plays random legal actions (a fixed linear congruential stream, so runs are repeatable) and
 * reports whether a position ever came back. `canCycle` in the variant table must match.
 */
function repeatsAPosition(variant: (typeof VARIANT_IDS)[number], games: number): boolean {
  let state = 12345;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let game = 0; game < games; game++) {
    const seed = `cycle-${game}`;
    const position = (Position.start(variant, dealLayout(seed, variant)) as { value: Position }).value;
    const seen = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const key = `${position.redealsUsed} ${makeBoard(position)}`;
      if (seen.has(key)) return true;
      seen.add(key);
      const legal = position.legalActions();
      if (legal.length === 0) break;
      const action = legal[Math.floor(random() * legal.length)]!;
      let layout: Layout | undefined;
      if (action.type === 'redeal') layout = redealLayout(seed, position.redealsUsed + 1, position.gatheredCards());
      position.play(action, layout);
    }
  }
  return false;
}

describe('canCycle', () => {
  it.each(VARIANT_IDS)('%s: a position can come back exactly when the variant says play can cycle', (variant) => {
    expect(repeatsAPosition(variant, VARIANTS[variant].canCycle ? 20 : 60)).toBe(VARIANTS[variant].canCycle);
  });
});
