import type { Action, Layout, Position } from '../shared/index.js';
import { Budget, type Limits } from './budget.js';
import { bestInDeal } from './deal.js';
import { explore } from './search.js';
import type { Dealer } from './dealer.js';
import { actionOf, cardsAbove, DealState, heightsCount, type Heights } from './state.js';

export interface GameLine {
  /** Every action, redeals included (`{ type: 'redeal' }`). */
  readonly actions: Action[];
  /** The layouts the line's redeals deal, in order. */
  readonly redeals: Layout[];
}

export interface ClairvoyantSolution extends GameLine {
  /** The best final count with every redeal layout known; with `exact` false, only "at least". */
  readonly best: number;
  readonly exact: boolean;
  readonly won: boolean;
  readonly nodes: number;
}

/** The best a deal leads to, and how: the foundation state to redeal at (null: play out the last deal). */
interface Outcome {
  value: number;
  exact: boolean;
  moves: number[];
  redealAt: Heights | null;
}

function take(outcome: Outcome, value: number, exact: boolean, path: readonly number[], redealAt: Heights | null): boolean {
  outcome.value = value;
  outcome.exact = exact;
  outcome.moves = path.slice();
  outcome.redealAt = redealAt;
  return value === 52;
}

/**
 * Clairvoyant solver: the best final count from `position` when every later layout is known,
 * which in lucie-deal/1 follows from the seed, the deal number and the cards still out. The
 * choice in each deal but the last is which foundation state to redeal at (each gives its own
 * next layout), so a deal is searched for every reachable foundation state, without pruning;
 * the last deal only for its best count (the merci included where the variant has it). The
 * value of a deal's start depends only on the deal number and the foundations, so it is kept
 * (for one solve: the layouts come from `dealer`).
 */
export function solveClairvoyant(position: Position, dealer: Dealer, limits: Limits | Budget = {}): ClairvoyantSolution {
  const budget = limits instanceof Budget ? limits : new Budget(limits);
  const before = budget.nodes;
  const { rules } = position;
  const known = new Map<number, Outcome>();
  const layouts = new Map<number, Layout>();
  const keyOf = (deal: number, heights: Heights) => deal * 65536 + heights;

  const layoutOf = (deal: number, heights: Heights): Layout => {
    const key = keyOf(deal, heights);
    let layout = layouts.get(key);
    if (!layout) layouts.set(key, (layout = dealer(deal, cardsAbove(heights))));
    return layout;
  };

  /** The outcome from `state`; in the last deal only above `floor` (see bestInDeal), null when it cannot beat it. */
  const solve = (state: DealState, deal: number, floor = state.home): Outcome | null => {
    if (deal >= rules.redeals) {
      const best = bestInDeal(state, budget, floor);
      if (best.max > floor || floor <= state.home) return { value: best.max, exact: best.exact, moves: best.moves, redealAt: null };
      // Nothing above the floor: proved (null), or the budget ran out first (only the cards home are sure).
      return best.exact ? null : { value: state.home, exact: false, moves: [], redealAt: null };
    }
    // Each foundation state is judged as soon as the search first reaches it, so a win found
    // early ends the search of this deal. Not redealing never beats redealing (the foundations
    // stay), but it is the honest floor when a search is cut short.
    const outcome: Outcome = { value: state.home, exact: true, moves: [], redealAt: null };
    const judged = new Set<Heights>();
    const complete = explore(state, false, budget, (live, path) => {
      const heights = live.heights();
      if (judged.has(heights)) return false;
      judged.add(heights);
      if (live.home === 52) return take(outcome, 52, true, path, null);
      if (live.home > outcome.value) take(outcome, live.home, outcome.exact, path, null);
      const key = keyOf(deal + 1, heights);
      let next = known.get(key);
      if (!next) {
        // A last deal is searched only for more than this deal already has: when it cannot beat
        // that, the outcome stands and nothing is kept, since another line reaching this state
        // with less in hand needs its exact value.
        const found = solve(DealState.redealt(rules, heights, layoutOf(deal + 1, heights), deal + 1), deal + 1, outcome.value);
        if (!found) return false;
        next = found;
        known.set(key, next);
      }
      if (!next.exact) outcome.exact = false;
      if (next.value > outcome.value) take(outcome, next.value, outcome.exact, path, heights);
      return outcome.value === 52;
    });
    if (!complete) outcome.exact = false;
    if (outcome.value === 52) outcome.exact = true;
    return outcome;
  };

  const first = solve(DealState.fromPosition(position), position.redealsUsed)!;
  const actions: Action[] = [];
  const redeals: Layout[] = [];
  for (let outcome = first, deal = position.redealsUsed; ; ) {
    actions.push(...outcome.moves.map(actionOf));
    if (outcome.redealAt === null) break;
    deal++;
    actions.push({ type: 'redeal' });
    redeals.push(layoutOf(deal, outcome.redealAt));
    outcome = known.get(keyOf(deal, outcome.redealAt))!;
  }
  return { best: first.value, exact: first.exact, won: first.value === 52, actions, redeals, nodes: budget.nodes - before };
}
