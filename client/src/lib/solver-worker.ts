// The solver in a Web Worker (practice's hint and "solve from here"), loaded only when first
// asked: the search never blocks the page and its code stays out of the entry chunk.
import { seedDealer, solveDeal, solvePar } from '../../../solver/index.js';
import { applyAction, dealLayout, makeAction, parseAction, Position, redealLayout, type Problem } from './engine.js';
import type { SolverReply, SolverRequest } from './solver.js';

/** Each ask may search this much: a hint must come quickly, or say it could not. */
const LIMITS = { nodes: 2_000_000, ms: 4000, clock: () => performance.now() };

/** The practice position: the seed's deal and its redeals, replayed action by action. */
function positionOf({ variant, seed, actions }: SolverRequest): Position | Problem {
  const start = Position.start(variant, dealLayout(seed, variant));
  if (!start.ok) return start.error;
  let position = start.value;
  for (const text of actions) {
    const action = parseAction(text);
    if (!action.ok) return action.error;
    const next =
      action.value.type === 'redeal'
        ? applyAction(position, action.value, redealLayout(seed, position.redealsUsed + 1, position.gatheredCards()))
        : applyAction(position, action.value);
    if (!next.ok) return next.error;
    position = next.value;
  }
  return position;
}

function answer(request: SolverRequest): SolverReply {
  const position = positionOf(request);
  if (!(position instanceof Position)) return { id: request.id, actions: [], exact: false, problem: position };
  if (request.kind === 'solve') {
    const deal = solveDeal(position, LIMITS);
    return { id: request.id, actions: deal.line.map(makeAction), exact: deal.exact, count: deal.max };
  }
  // Par never reads a layout before it is dealt: the practice seed's redeals are only asked once par has chosen.
  const par = solvePar(position, seedDealer(request.seed), LIMITS);
  return { id: request.id, actions: par.actions.slice(0, 1).map(makeAction), exact: par.exact, count: par.par };
}

self.onmessage = (event: MessageEvent<SolverRequest>) => self.postMessage(answer(event.data));
