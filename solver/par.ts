import type { Action, Layout, Position } from '../shared/index.js';
import { Budget, type Limits } from './budget.js';
import type { GameLine } from './clairvoyant.js';
import { bestInDeal } from './deal.js';
import { playOut } from './playout.js';
import { explore } from './search.js';
import type { Dealer } from './dealer.js';
import { actionOf } from './move.js';
import { cardsAbove, DealState, heightsCount, type Heights } from './state.js';
import { FORCE_HOME } from './forcing.js';

export interface ParSolution extends GameLine {
  /** Par's final count; null when a search was cut short, since the policy then is not defined. */
  readonly par: number | null;
  readonly exact: boolean;
  readonly won: boolean;
  readonly nodes: number;
}

/**
 * Whether par prefers ending a deal at foundation state `a` over `b`: the most cards home; then
 * the most even foundations (the highest lowest foundation, so no suit lags far behind); then the
 * highest clubs, diamonds, hearts, spades in that order. It reads only the current deal.
 */
export function parPrefers(a: Heights, b: Heights): boolean {
  const countA = heightsCount(a);
  const countB = heightsCount(b);
  if (countA !== countB) return countA > countB;
  const lowA = lowest(a);
  const lowB = lowest(b);
  if (lowA !== lowB) return lowA > lowB;
  for (let shift = 0; shift < 16; shift += 4) {
    const heightA = (a >> shift) & 15;
    const heightB = (b >> shift) & 15;
    if (heightA !== heightB) return heightA > heightB;
  }
  return false;
}

const lowest = (heights: Heights): number => Math.min(heights & 15, (heights >> 4) & 15, (heights >> 8) & 15, (heights >> 12) & 15);

/**
 * The foundation state par ends deal `state` at (see parPrefers), among those reachable when
 * every position that has a safe move home (see DealState.moves) plays its first one: a
 * well-defined subset that still holds the deal's best count. Each suit can only reach a
 * foundation within `bound`'s box (see DealState.reachOf), whose highest count is the box's
 * top corner alone: a position whose bound is below the best state's count, or equal to it
 * with a top corner par does not prefer, cannot lead to a state par prefers, so its moves are
 * left unsearched. The line is the first one the search finds to that state.
 */
export function parEnd(state: DealState, budget: Budget): { heights: Heights; moves: number[]; exact: boolean } {
  let best = state.heights();
  let count = state.home;
  let moves: number[] = [];
  const exact = explore(state, FORCE_HOME, budget, (live, path) => {
    const heights = live.heights();
    if (parPrefers(heights, best)) {
      best = heights;
      count = live.home;
      moves = path.slice();
      if (count === 52) return true;
    }
    const ceiling = live.bound();
    if (ceiling < count) return 'skip';
    const corner = live.reachOf(0) | (live.reachOf(1) << 4) | (live.reachOf(2) << 8) | (live.reachOf(3) << 12);
    return ceiling === count && !parPrefers(corner, best) ? 'skip' : false;
  });
  return { heights: best, moves, exact };
}

/**
 * Par: the count an expert reaches who cannot see the future. In every deal but the last it
 * searches the deal completely (playing at once, in a position that has a safe move home, the
 * first such move by fan number, then cell: this keeps the deal's best count, see
 * DealState.safeHome), goes to the foundation state `parEnd` picks among those reached, and
 * redeals (a redeal never costs a card); in the last deal it plays the
 * deal solver's best (the merci included where the variant has it), then plays on until no move
 * is left. The next layout is asked
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
      for (const move of best.moves) state.apply(move);
      actions.push(...playOut(state, deal, rules.redeals, dealer).actions);
      exact = best.exact;
      final = best.max;
      break;
    }
    const { heights, moves, exact: complete } = parEnd(state, budget);
    if (!complete) {
      exact = false;
      break;
    }
    actions.push(...moves.map(actionOf));
    final = heightsCount(heights);
    if (final === 52) break;
    const layout = dealer(deal + 1, cardsAbove(heights));
    actions.push({ type: 'redeal' });
    redeals.push(layout);
    state = DealState.redealt(rules, heights, layout, deal + 1);
  }
  return { par: exact ? final : null, exact, won: exact && final === 52, actions, redeals, nodes: budget.nodes - before };
}
