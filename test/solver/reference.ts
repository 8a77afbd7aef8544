// A slow, independent reference for the solver: plain exhaustive search through the engine's
// own legalActions/play, every position keyed by its board text, no pruning, no tricks.
import {
  problemText,
  DECK,
  Position,
  applyAction,
  makeBoard,
  rankOf,
  suitOf,
  type Action,
  type Layout,
  type VariantId,
} from '../../shared/index.js';
import type { Dealer } from '../../solver/index.js';
import { seededRandom } from '../../bench/measure.js';

const keyOf = (position: Position) => `${makeBoard(position)}#${position.redealsUsed}#${position.merciUsed}`;

/**
 * The most cards home over every position reachable from `position`: within the deal when
 * `dealer` is absent, across redeals (each dealt by `dealer`) when given.
 */
export function referenceBest(position: Position, dealer?: Dealer): number {
  const seen = new Set<string>([keyOf(position)]);
  const stack = [position];
  let best = position.foundationCount();
  while (stack.length > 0) {
    const current = stack.pop()!;
    best = Math.max(best, current.foundationCount());
    if (best === 52) break;
    for (const action of current.legalActions()) {
      if (action.type === 'redeal' && !dealer) continue;
      const layout = action.type === 'redeal' ? dealer!(current.redealsUsed + 1, current.gatheredCards()) : undefined;
      const next = applyAction(current, action, layout);
      if (!next.ok) throw new Error(problemText(next.error));
      const key = keyOf(next.value);
      if (seen.has(key)) continue;
      seen.add(key);
      stack.push(next.value);
    }
  }
  return best;
}

/**
 * A small position of `variant` for brute force: a first layout whose leading fans hold the
 * low cards (random heights per suit) in an order that plays straight home, the other cards
 * shuffled by `seed` into the last fans; the leading fans are then played home, leaving about
 * `left` cards out in deal 1, leading fans empty.
 */
export function smallPosition(variant: VariantId, seed: number, left: number): Position {
  const random = seededRandom(seed);
  const aces = variant === 'trefoil';
  const cards = DECK.filter((card) => !aces || rankOf(card) !== 0);
  const easyCount = Math.floor((cards.length - left) / 3) * 3;
  // Heights: deal `easyCount` low cards among the suits at random.
  const heights = [0, 0, 0, 0].map(() => (aces ? 1 : 0));
  for (let i = 0; i < easyCount; ) {
    const suit = Math.floor(random() * 4);
    if (heights[suit]! < 13) {
      heights[suit]!++;
      i++;
    }
  }
  const easy = cards.filter((card) => rankOf(card) < heights[suitOf(card)]!).sort((a, b) => rankOf(a) - rankOf(b) || a - b);
  const rest = cards.filter((card) => !easy.includes(card));
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const fans: number[][] = [];
  for (let i = 0; i < easy.length; i += 3) fans.push(easy.slice(i, i + 3).reverse());
  for (let i = 0; i < rest.length; i += 3) fans.push(rest.slice(i, i + 3));
  const start = Position.start(variant, fans as Layout);
  if (!start.ok) throw new Error(problemText(start.error));
  const position = start.value;
  for (let fan = 0; fan < easy.length / 3; fan++) {
    for (let i = 0; i < 3; i++) playOrThrow(position, { type: 'fan-to-foundation', from: fan });
  }
  return position;
}

function playOrThrow(position: Position, action: Action): void {
  const problem = position.problem(action);
  if (problem) throw new Error(problemText(problem));
  position.play(action);
}
