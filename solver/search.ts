import type { Budget } from './budget.js';
import type { DealState } from './state.js';
import { PositionSet } from './table.js';

/**
 * What a visitor sees: the live state and the moves that led to it from the root. It returns
 * true to stop the search, 'skip' to leave the moves from this position unsearched.
 */
export type Visit = (state: DealState, path: readonly number[]) => boolean | 'skip' | void;

/**
 * Depth-first search over every position reachable in the deal from `state`, each visited once
 * (a transposition table of keys, which also ends the cycles some variants allow). `visit` is
 * called on the root and on every new position (see Visit). The state is
 * left as it was found. Returns false when the budget ran out before the search was complete.
 */
export function explore(state: DealState, prune: boolean, budget: Budget, visit: Visit): boolean {
  const seen = new PositionSet(state.keyBytes.length);
  seen.add(state.hash, state.keyBytes);
  if (!budget.spend()) return false;
  const path: number[] = [];
  const first = visit(state, path);
  if (first === true) return true;
  const tokens: number[] = [];
  const pending: number[][] = [first === 'skip' ? [] : state.moves(prune)];
  const next: number[] = [0];
  let complete = true;
  while (pending.length > 0) {
    const depth = pending.length - 1;
    const moves = pending[depth]!;
    const index = next[depth]!;
    if (index === moves.length) {
      pending.pop();
      next.pop();
      if (path.length > 0) state.undo(path.pop()!, tokens.pop()!);
      continue;
    }
    next[depth] = index + 1;
    const move = moves[index]!;
    const token = state.apply(move);
    if (!seen.add(state.hash, state.keyBytes)) {
      state.undo(move, token);
      continue;
    }
    path.push(move);
    tokens.push(token);
    if (!budget.spend()) {
      complete = false;
      break;
    }
    const verdict = visit(state, path);
    if (verdict === true) break;
    pending.push(verdict === 'skip' ? [] : state.moves(prune));
    next.push(0);
  }
  while (path.length > 0) state.undo(path.pop()!, tokens.pop()!);
  return complete;
}
