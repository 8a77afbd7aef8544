import type { AnalysisLine, AnalysisPoint } from './contract.js';
import { parseLayout, type GameRecord, type Layout, type VariantId } from './engine.js';

/** A move where the deal's best still reachable fell: the cards it cost. */
export interface Loss {
  /** Actions played when it was lost (the replay's step just after the move). */
  readonly step: number;
  readonly cards: number;
}

/**
 * The moves that lost cards: within one deal the maximum still reachable never rises (every
 * later position is reached from the earlier one), so each fall belongs to the move just
 * played. Only exact maxima count: an "at least" figure may fall without a card lost.
 */
export function lossesOf(points: readonly AnalysisPoint[]): Loss[] {
  const losses: Loss[] = [];
  for (let i = 1; i < points.length; i++) {
    const [before, after] = [points[i - 1]!, points[i]!];
    if (before.deal === after.deal && before.exact && after.exact && after.dealMax < before.dealMax) losses.push({ step: i, cards: before.dealMax - after.dealMax });
  }
  return losses;
}

/** A solver line as a record the replayer walks: the game's first layout, then the line's own redeals. */
export function lineRecord(variant: VariantId, first: Layout, line: AnalysisLine): GameRecord | string {
  const deals: Layout[] = [first];
  for (const fans of line.redeals) {
    const layout = parseLayout(fans);
    if (!layout.ok) return layout.error;
    deals.push(layout.value);
  }
  return { variant, deals, actions: line.actions };
}
