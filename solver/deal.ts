import type { Action, Position } from '../shared/index.js';
import { Budget, type Limits } from './budget.js';
import { playOut } from './playout.js';
import { explore } from './search.js';
import { actionOf } from './move.js';
import { DealState } from './state.js';
import { FORCE_BUILDS, FORCE_HOME } from './forcing.js';

export interface DealSolution {
  /** The most cards home reachable in this deal; with `exact` false, only "at least". */
  readonly max: number;
  readonly exact: boolean;
  /** Whether the deal can be cleared (all 52 home); null when the search was cut short below 52. */
  readonly clearable: boolean | null;
  /**
   * A line reaching `max`, played on to the end of the deal (fan, cell and merci moves only: it
   * stops before any redeal, so in the last deal the game is over there).
   */
  readonly line: Action[];
  readonly nodes: number;
}

/**
 * The best count in the deal from `state`, with pruning, and the moves that reach it. Branch and
 * bound: a position whose `bound` is no more than the best found cannot lead higher, so its
 * moves are left unsearched (and so are those not yet tried, once the best found rises to its
 * bound), and the search ends once the best found meets the root's bound. A position with a safe
 * move home or a safe build searches only that move (see Forcing).
 * With a `floor` above the cards home, only counts above it are sought (the search starts as if
 * it had found the floor): a `max` above the floor is the deal's exact best, one at the floor
 * only says the best is no higher.
 */
export function bestInDeal(state: DealState, budget: Budget, floor = state.home): { max: number; exact: boolean; moves: number[] } {
  let max = Math.max(floor, state.home);
  let moves: number[] = [];
  const ceiling = state.bound();
  const complete = explore(state, FORCE_HOME | FORCE_BUILDS, budget, (live, path) => {
    if (live.home > max) {
      max = live.home;
      moves = path.slice();
      if (max === ceiling) return true;
    }
    const bound = live.bound();
    return bound <= max ? 'skip' : bound;
  }, () => max);
  return { max, exact: complete || max === ceiling, moves };
}

/**
 * Deal solver: the exact maximum number of cards home reachable within the current deal of
 * `position`, using only what is on the table (never a later layout; the merci counts when
 * this is the deal in which it may be played).
 */
export function solveDeal(position: Position, limits: Limits | Budget = {}): DealSolution {
  const budget = limits instanceof Budget ? limits : new Budget(limits);
  const before = budget.nodes;
  const state = DealState.fromPosition(position);
  const { max, exact, moves } = bestInDeal(state, budget);
  const nodes = budget.nodes - before;
  for (const move of moves) state.apply(move);
  const end = playOut(state, position.redealsUsed, position.rules.redeals, null);
  return { max, exact, clearable: max === 52 ? true : exact ? false : null, line: [...moves.map(actionOf), ...end.actions], nodes };
}
