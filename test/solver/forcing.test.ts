// Forced moves: a safe build keeps every foundation state a line can pass through, and the best count.
import { describe, expect, it } from 'vitest';
import { dealLayout, makeAction, Position, problemText, type VariantId } from '../../shared/index.js';
import { Budget } from '../../solver/budget.js';
import { FORCE_BUILDS, FORCE_HOME, FORCE_NOTHING, type Forcing } from '../../solver/forcing.js';
import { actionOf } from '../../solver/move.js';
import { MoveStack } from '../../solver/move-stack.js';
import { explore } from '../../solver/search.js';
import { DealState } from '../../solver/state.js';
import { DEAD, play, start, swap } from '../shared/helpers.js';

function movesOf(position: Position, forcing: Forcing): string[] {
  const out = new MoveStack();
  DealState.fromPosition(position).pushMoves(forcing, out);
  return Array.from({ length: out.length }, (_, i) => makeAction(actionOf(out.at(i))));
}

/** Every position of the first deal of strict `seed` searched with `forcing`: the foundation states reached, the best count and the positions. */
function reach(seed: string, forcing: Forcing): { heights: number[]; best: number; nodes: number } {
  const position = Position.start('strict', dealLayout(seed, 'strict'));
  if (!position.ok) throw new Error(problemText(position.error));
  const heights = new Set<number>();
  let best = 0;
  const budget = new Budget({ nodes: 1_000_000 });
  expect(explore(DealState.fromPosition(position.value), forcing, budget, (state) => {
    heights.add(state.heights());
    best = Math.max(best, state.home);
  })).toBe(true);
  return { heights: [...heights].sort((a, b) => a - b), best, nodes: budget.nodes };
}

describe('safe builds', () => {
  // 4D comes to the top of fan 7 and 5D is alone in fan 18; 8H on 12 may build on 9H, which covers 8D on 11, and 7H on 15 on 8H.
  const fans = swap(DEAD, ['JH', '4D'], ['9S', '8H']);

  it('strict: building on a card that can only go home is the one move searched', () => {
    const position = start('strict', fans);
    expect(movesOf(position, FORCE_NOTHING).sort()).toEqual(['12>11', '15>12', '7>18']);
    expect(movesOf(position, FORCE_BUILDS)).toEqual(['7>18']);
    // 9H could still go onto 10H, so covering it is not safe.
    expect(movesOf(start('strict', swap(DEAD, ['9S', '8H'], ['JH', '4D'], ['5D', 'KH'])), FORCE_BUILDS).sort()).toEqual(['12>11', '15>12', '7>3']);
  });

  it.each<[VariantId, string]>([
    ['kings-in-spaces', 'an empty fan may take a King'],
    ['super-flower-garden', 'a card may also build up'],
    ['fan-reserve', 'a card may go to a cell'],
  ])('%s: no build is forced (%s)', (variant) => {
    expect(movesOf(start(variant, fans), FORCE_BUILDS).length).toBeGreaterThan(1);
  });

  it('merci: no build is forced while the merci may be played', () => {
    const last = play(start('merci', DEAD), ['R', 'R'], [fans, fans]);
    expect(movesOf(last, FORCE_BUILDS).sort()).toEqual(['12>11', '15>12', '7>18']);
  });

  it.each(['s2', 's19', 's21', 's26', 's28'])('strict %s: forcing safe builds keeps every foundation state reached and the best count', (seed) => {
    const all = reach(seed, FORCE_NOTHING);
    const builds = reach(seed, FORCE_BUILDS);
    expect(builds.heights).toEqual(all.heights);
    expect(builds.nodes).toBeLessThan(all.nodes);
    expect(reach(seed, FORCE_HOME | FORCE_BUILDS).best).toBe(reach(seed, FORCE_HOME).best);
  });
});
