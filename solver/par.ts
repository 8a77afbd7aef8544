import type { Action, Layout, Position } from '../shared/index.js';
import { Budget, type Limits } from './budget.js';
import type { GameLine } from './clairvoyant.js';
import { bestInDeal, bestEnds } from './deal.js';
import type { Dealer } from './dealer.js';
import { actionOf, cardsAbove, DealState, heightsCount, unpackHeights, type Heights } from './state.js';

export interface ParSolution extends GameLine {
  /** Par's final count; null when a search was cut short, since the policy then is not defined. */
  readonly par: number | null;
  readonly exact: boolean;
  readonly won: boolean;
  readonly nodes: number;
}

/**
 * Par's choice among the foundation states a deal can end in: the most cards home; then the
 * most even foundations (the highest lowest foundation, so no suit lags far behind); then the
 * highest clubs, diamonds, hearts, spades in that order. It reads only the current deal.
 */
export function parChoice(ends: Iterable<Heights>): Heights {
  let best: Heights | undefined;
  for (const heights of ends) if (best === undefined || better(heights, best)) best = heights;
  if (best === undefined) throw new Error('a deal always ends somewhere');
  return best;
}

function better(a: Heights, b: Heights): boolean {
  if (heightsCount(a) !== heightsCount(b)) return heightsCount(a) > heightsCount(b);
  const [lowA, lowB] = [Math.min(...unpackHeights(a)), Math.min(...unpackHeights(b))];
  if (lowA !== lowB) return lowA > lowB;
  const [ha, hb] = [unpackHeights(a), unpackHeights(b)];
  for (let suit = 0; suit < 4; suit++) if (ha[suit] !== hb[suit]) return ha[suit]! > hb[suit]!;
  return false;
}

/**
 * Par: the count an expert reaches who cannot see the future. In every deal but the last it
 * searches the deal completely (playing at once, in a position that has a safe move home, the
 * first such move by fan number, then cell: this keeps the deal's best count, see
 * DealState.safeHome), goes to the foundation state `parChoice` picks among those reached, and
 * redeals (a redeal never costs a card); in the last deal it plays the
 * deal solver's best (the merci included where the variant has it). The next layout is asked
 * of `dealer` only once par has chosen where to redeal, so par cannot depend on it.
 */
export function solvePar(position: Position, dealer: Dealer, limits: Limits | Budget = {}): ParSolution {
  const budget = limits instanceof Budget ? limits : new Budget(limits);
  const before = budget.nodes;
  const { rules } = position;
  const actions: Action[] = [];
  const redeals: Layout[] = [];
  let state = DealState.fromPosition(position);
  let exact = true;
  let final = state.home;
  for (let deal = position.redealsUsed; ; deal++) {
    if (deal >= rules.redeals) {
      const best = bestInDeal(state, budget);
      actions.push(...best.moves.map(actionOf));
      exact = best.exact;
      final = best.max;
      break;
    }
    const { ends, exact: complete } = bestEnds(state, true, budget);
    if (!complete) {
      exact = false;
      break;
    }
    const heights = parChoice(ends.keys());
    actions.push(...ends.get(heights)!.map(actionOf));
    final = heightsCount(heights);
    if (final === 52) break;
    const layout = dealer(deal + 1, cardsAbove(heights));
    actions.push({ type: 'redeal' });
    redeals.push(layout);
    state = DealState.redealt(rules, heights, layout, deal + 1);
  }
  return { par: exact ? final : null, exact, won: exact && final === 52, actions, redeals, nodes: budget.nodes - before };
}
