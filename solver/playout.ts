import type { Action, Layout } from '../shared/index.js';
import { Budget } from './budget.js';
import type { Dealer } from './dealer.js';
import { explore } from './search.js';
import { actionOf } from './move.js';
import { cardsAbove, DealState } from './state.js';
import { FORCE_NOTHING } from './forcing.js';

/**
 * Nodes for finding where a deal ends. Where play cannot cycle the first line searched already
 * ends (every line is finite), so this only matters where it can, and there a deal with no end
 * in reach is simply left where the line stopped.
 */
const PLAY_OUT_NODES = 100_000;

/**
 * The moves from `state` (in `deal`, `last` being the last deal) to where the game ends: in each
 * deal a position with no move left (merci included where it may be played), found depth first,
 * then a redeal of the layout `dealer` deals while one is left. With no dealer it stops at the end
 * of this deal. A line the solver found stops at its best count; played on like this it ends
 * where the game does, so its record is over. Cards home never go back, so the count stays at
 * least the line's; after an exact best it is exactly that. It has a budget of its own, so
 * playing on never makes an answer less exact.
 */
export function playOut(state: DealState, deal: number, last: number, dealer: Dealer | null): { actions: Action[]; redeals: Layout[] } {
  const actions: Action[] = [];
  const redeals: Layout[] = [];
  for (let live = state; ; ) {
    if (live.home === 52) break;
    let end: number[] | null = null;
    explore(live, FORCE_NOTHING, new Budget({ nodes: PLAY_OUT_NODES }), (position, path) => {
      if (position.hasMove()) return false;
      end = path.slice();
      return true;
    });
    if (end === null) break;
    for (const move of end as number[]) {
      actions.push(actionOf(move));
      live.apply(move);
    }
    if (live.home === 52 || deal >= last || !dealer) break;
    const heights = live.heights();
    const layout = dealer(++deal, cardsAbove(heights));
    actions.push({ type: 'redeal' });
    redeals.push(layout);
    live = DealState.redealt(live.rules, heights, layout, deal);
  }
  return { actions, redeals };
}
