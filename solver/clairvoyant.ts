import type { Action, Layout, Position } from '../shared/index.js';
import { Budget, type Limits } from './budget.js';
import { bestInDeal } from './deal.js';
import { playOut } from './playout.js';
import { explore } from './search.js';
import type { Dealer } from './dealer.js';
import { HeightsTables } from './heights-tables.js';
import { actionOf } from './move.js';
import { StartBounds } from './start-bounds.js';
import { cardsAbove, DealState, type Heights } from './state.js';
import { FORCE_BUILDS } from './forcing.js';

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

/** Keys of `known`: a deal and a foundation state (16 bits, see Heights). */
const HEIGHTS = 1 << 16;
/** Shared by every solve in this thread (see HeightsTables). */
const tables = new HeightsTables();
/** The most foundation states a position's box (see `settled`) may hold for the search to check them all. */
const BOX_LIMIT = 256;
/**
 * The first round's cap on one redeal's search in the search for a win (each round has four
 * times the last's). On strict ref-0..ref-999, 128 rather than 512 took the median seed from 592
 * nodes to 341 and the p90 from 2,085 to 1,267 (the p99 and the slowest within 4 %).
 */
const FIRST_CAP = 128;
/**
 * The last round's cap. A seed with no win within it is more often lost than won, and the exact
 * search (which finds a win as well) then costs less than rounds that end in a proof of loss only
 * to start again: on strict ref-0..ref-999 the slowest seed (lost) took 674,634 nodes, 286,088 with
 * a cap of 8192; with MIDDLE_CAP_FACTOR, 2048 rather than 8192 took the nodes of all 1000 seeds
 * from 785,217 to 710,287 and the slowest from 64,366 to 40,077 (median and p90 the same).
 */
const LAST_CAP = 2048;
/**
 * A redeal into a deal before the last may search this many times the round's cap (which a
 * redeal into the last deal gets). Caps nest (a search's redeals spend from its own cap), so with
 * equal caps the first last-deal search that runs into its cap ends the search of the deal before
 * it too, and no other foundation state of that deal is tried: strict ref-434 won only in the
 * exact pass (152,763 nodes), its first redeal a 121,301-node loss. With twice the cap, the nodes
 * of ref-0..ref-999 went from 1,077,851 to 785,217, the slowest seed from 152,763 to 64,366, the
 * p90 from 1,267 to 1,169 and the median from 341 to 345 (three times: median 301, p90 1,309).
 */
const MIDDLE_CAP_FACTOR = 2;

/**
 * Clairvoyant solver: the best final count from `position` when every later layout is known,
 * which in lucie-deal/1 follows from the seed, the deal number and the cards still out. The
 * choice in each deal but the last is which foundation state to redeal at (each gives its own
 * next layout), so a deal is searched for every reachable foundation state; the last deal only
 * for its best count (the merci included where the variant has it). The value of a deal's start
 * depends only on the deal number and the foundations, so it is kept (for one solve: the layouts
 * come from `dealer`).
 *
 * Every search is branch and bound above a floor: only outcomes above it are sought (see
 * `settled` for what a deal before the last can cut). A first pass looks only for a win (floor
 * 51), which almost every strict seed has and which lets every last deal be cut hard; only when
 * no win turns up within the rounds does a second pass find the exact best. The first pass goes
 * in rounds that cap the search from each redeal (FIRST_CAP, then four times more each round up
 * to LAST_CAP): a seed's win is usually a few hundred nodes away, but the first foundation state
 * tried (redealing at once) can need a million nodes to be proved lost, so the cheap tries come
 * first. A capped search ends inexact, so a round proves nothing but a win (or, when no cap cut
 * it, that there is none); only an uncapped result is exact.
 */
export function solveClairvoyant(position: Position, dealer: Dealer, limits: Limits | Budget = {}): ClairvoyantSolution {
  const budget = limits instanceof Budget ? limits : new Budget(limits);
  const before = budget.nodes;
  const { rules } = position;
  const last = rules.redeals;
  const known = new Map<number, Outcome>();
  const layouts = new Map<number, Layout>();
  const keyOf = (deal: number, heights: Heights) => deal * HEIGHTS + heights;
  tables.begin(last + 1);
  /** The most nodes the search from one redeal may take in this round of the search for a win (Infinity: no cap). */
  let cap = Infinity;

  const layoutOf = (deal: number, heights: Heights): Layout => {
    const key = keyOf(deal, heights);
    let layout = layouts.get(key);
    if (!layout) layouts.set(key, (layout = dealer(deal, cardsAbove(heights))));
    return layout;
  };
  /**
   * Each deal's start, made once: a search leaves its state as it found it, and no search of a
   * start runs inside another of the same start (a search only redeals into the next deal), so
   * every search from that start shares one state (and its kept bound).
   */
  const starts = new Map<number, DealState>();
  const startOf = (deal: number, heights: Heights): DealState => {
    const key = keyOf(deal, heights);
    let start = starts.get(key);
    if (!start) starts.set(key, (start = DealState.redealt(rules, heights, layoutOf(deal, heights), deal)));
    return start;
  };

  const startBounds = new StartBounds(rules);
  /** What is proved of the final count from the start of `deal` at `heights`; for a last deal at least its bound. */
  const ceilingOf = (deal: number, heights: Heights): number => {
    let ceiling = tables.ceiling(deal, heights);
    if (ceiling < 0) tables.setCeiling(deal, heights, (ceiling = deal === last ? startBounds.bound(layoutOf(deal, heights), heights, rules.merci) : 52));
    return ceiling;
  };

  /**
   * Whether no line from `live` (in `deal`, searched as `search`) can lead above `incumbent`
   * other than through foundation states already judged in this search. Every foundation state
   * reachable from `live` lies in its box: each suit at least where it is and at most its
   * `reachOf` (the bound's relaxation). A state of the box not judged yet may still be
   * reachable, so it needs a ceiling no higher than the incumbent (then neither stopping
   * there nor redealing there can beat it) or, in the exact search, to be out of reach by a
   * sharper relaxation (DealState.mayPass). When every state of the box passes, the moves from
   * `live` can change nothing and are left unsearched.
   */
  const settled = (live: DealState, deal: number, search: number, incumbent: number): boolean => {
    live.bound();
    const [c, d, h, s] = live.found as [number, number, number, number];
    const [toC, toD, toH, toS] = [live.reachOf(0), live.reachOf(1), live.reachOf(2), live.reachOf(3)];
    if ((toC - c + 1) * (toD - d + 1) * (toH - h + 1) * (toS - s + 1) > BOX_LIMIT) return false;
    for (let club = c; club <= toC; club++)
      for (let diamond = d; diamond <= toD; diamond++)
        for (let heart = h; heart <= toH; heart++)
          for (let spade = s; spade <= toS; spade++) {
            const heights = club | (diamond << 4) | (heart << 8) | (spade << 12);
            if (tables.judgedBy(deal, heights, search) || ceilingOf(deal + 1, heights) <= incumbent) continue;
            // Only in the exact search: the rounds look for cheap wins, and there it cost more than it saved.
            if (cap !== Infinity || live.mayPass(club, diamond, heart, spade)) return false;
          }
    return true;
  };

  /** The outcome of redealing at `heights` into `deal`, when it may beat `floor`; null when proved not to. */
  const redeal = (deal: number, heights: Heights, floor: number): Outcome | null => {
    const key = keyOf(deal, heights);
    const kept = known.get(key);
    if (kept) return kept;
    if (ceilingOf(deal, heights) <= floor) return null;
    const start = startOf(deal, heights);
    const found = cap === Infinity ? solve(start, deal, floor) : budget.within(deal === last ? cap : cap * MIDDLE_CAP_FACTOR, () => solve(start, deal, floor));
    if (found) known.set(key, found);
    else tables.setCeiling(deal, heights, floor);
    return found;
  };

  /**
   * The outcome from `state` when it beats `floor`; null when proved not to (nothing is kept
   * then, since another line reaching the same start with less in hand needs its exact value).
   * An outcome cut short by the budget is returned as it stands, inexact.
   */
  const solve = (state: DealState, deal: number, floor: number): Outcome | null => {
    if (deal >= last) {
      const best = bestInDeal(state, budget, floor);
      if (best.max > floor) return { value: best.max, exact: best.exact, moves: best.moves, redealAt: null };
      // Nothing above the floor: proved (null), or the budget ran out first (only the cards home are sure).
      return best.exact ? null : { value: state.home, exact: false, moves: [], redealAt: null };
    }
    // Each foundation state is judged as soon as the search first reaches it, so a win found
    // early ends the search of this deal. Safe builds are forced: they keep every foundation
    // state a line can reach (safe moves home do not). Not redealing never beats redealing (the foundations
    // stay), but it is the honest floor when a search is cut short.
    const outcome: Outcome = { value: state.home, exact: true, moves: [], redealAt: null };
    const search = tables.newSearch();
    const complete = explore(state, FORCE_BUILDS, budget, (live, path) => {
      const heights = live.heights();
      if (!tables.judge(deal, heights, search)) {
        if (live.home === 52) return take(outcome, 52, true, path, null);
        if (live.home > outcome.value) take(outcome, live.home, outcome.exact, path, null);
        const next = redeal(deal + 1, heights, Math.max(floor, outcome.value));
        if (next) {
          if (!next.exact) outcome.exact = false;
          if (next.value > outcome.value && take(outcome, next.value, outcome.exact, path, heights)) return true;
        }
      }
      return settled(live, deal, search, Math.max(floor, outcome.value)) ? 'skip' : false;
    });
    if (!complete) outcome.exact = false;
    if (outcome.value === 52) outcome.exact = true;
    return outcome.value > floor || !outcome.exact ? outcome : null;
  };

  const root = DealState.fromPosition(position);
  let first: Outcome | null = null;
  for (cap = FIRST_CAP; cap <= LAST_CAP; cap *= 4) {
    first = solve(root, position.redealsUsed, 51);
    // A win, a proof that there is none, or the budget spent: otherwise a cap cut something.
    if (!first || first.exact || budget.exhausted) break;
    // What a capped search left is dropped; what was proved (wins, ceilings) stays.
    for (const [key, outcome] of known) if (!outcome.exact) known.delete(key);
    first = null;
  }
  cap = Infinity;
  first ??= solve(root, position.redealsUsed, root.home - 1)!;
  const actions: Action[] = [];
  const redeals: Layout[] = [];
  let state = root;
  let deal = position.redealsUsed;
  for (let outcome = first; ; ) {
    actions.push(...outcome.moves.map(actionOf));
    for (const move of outcome.moves) state.apply(move);
    if (outcome.redealAt === null) break;
    deal++;
    actions.push({ type: 'redeal' });
    redeals.push(layoutOf(deal, outcome.redealAt));
    state = startOf(deal, outcome.redealAt);
    outcome = known.get(keyOf(deal, outcome.redealAt))!;
  }
  // A lost line stops at its best count, perhaps before the last deal: it plays on to the end.
  const end = playOut(state, deal, last, dealer);
  actions.push(...end.actions);
  redeals.push(...end.redeals);
  return { best: first.value, exact: first.exact, won: first.value === 52, actions, redeals, nodes: budget.nodes - before };
}
