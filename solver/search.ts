import type { Budget } from './budget.js';
import type { Forcing } from './forcing.js';
import { MoveStack } from './move-stack.js';
import type { DealState } from './state.js';
import { PositionSet } from './table.js';

/**
 * What a visitor sees: the live state and the moves that led to it from the root. It returns
 * true to stop the search, 'skip' to leave the moves from this position unsearched, or a
 * number: an upper bound on what the position can lead to (see `explore`'s `floor`).
 */
export type Visit = (state: DealState, path: readonly number[]) => boolean | 'skip' | number | void;

/**
 * Depth-first search over every position reachable in the deal from `state`, each visited once
 * (a transposition table of keys, which also ends the cycles some variants allow). `visit` is
 * called on the root and on every new position (see Visit). With `floor`, a position whose
 * visit gave an upper bound no higher than `floor()` has its remaining moves left unsearched: the
 * floor rises as the search finds better, and nothing below that position can beat it any more.
 * The state is left as it was found. Returns false when the budget ran out before the search
 * was complete.
 */
export function explore(state: DealState, forcing: Forcing, budget: Budget, visit: Visit, floor?: () => number): boolean {
  const width = state.keyWords.length;
  if (seens[nesting]?.width !== width) seens[nesting] = new PositionSet(width);
  const seen = seens[nesting]!;
  const stack = (stacks[nesting] ??= new MoveStack());
  seen.clear();
  stack.length = 0;
  nesting++;
  try {
    return search(state, forcing, budget, visit, floor, seen, stack);
  } finally {
    nesting--;
  }
}

/**
 * Position sets and move stacks to use again, one of each per level of searches nested in a
 * visit (the clairvoyant solver searches a redeal from inside the search of the deal before it;
 * see PositionSet): the clairvoyant solver runs thousands of small searches.
 */
const seens: PositionSet[] = [];
const stacks: MoveStack[] = [];
let nesting = 0;

function search(state: DealState, forcing: Forcing, budget: Budget, visit: Visit, floor: (() => number) | undefined, seen: PositionSet, stack: MoveStack): boolean {
  seen.add(state.hash, state.keyWords);
  if (!budget.spend()) return false;
  const path: number[] = [];
  const tokens: number[] = [];
  /** Per depth on the path: where its moves start in `stack`, the next to try and its upper bound (52, the most any position leads to, when none was given). */
  const starts: number[] = [];
  const nexts: number[] = [];
  const ceilings: number[] = [];
  let verdict = visit(state, path);
  let complete = true;
  for (;;) {
    if (verdict === true) break;
    starts.push(stack.length);
    nexts.push(stack.length);
    ceilings.push(typeof verdict === 'number' ? verdict : 52);
    if (verdict !== 'skip') state.pushMoves(forcing, stack);
    // Down to the deepest position with a move left to try, and that move played.
    let fresh = false;
    while (starts.length > 0) {
      const depth = starts.length - 1;
      const index = nexts[depth]!;
      if (index === stack.length || (floor !== undefined && ceilings[depth]! <= floor())) {
        stack.length = starts.pop()!;
        nexts.pop();
        ceilings.pop();
        if (path.length > 0) state.undo(path.pop()!, tokens.pop()!);
        continue;
      }
      nexts[depth] = index + 1;
      const move = stack.at(index);
      const token = state.apply(move);
      if (seen.add(state.hash, state.keyWords)) {
        path.push(move);
        tokens.push(token);
        fresh = true;
        break;
      }
      state.undo(move, token);
    }
    if (!fresh) break;
    if (!budget.spend()) {
      complete = false;
      break;
    }
    verdict = visit(state, path);
  }
  while (path.length > 0) state.undo(path.pop()!, tokens.pop()!);
  return complete;
}
