// Engine benchmark: validated actions per second on random playouts of every variant, and the
// time to verify a long record as a ratio to JSON.parse of the same text.
import {
  Position,
  VARIANT_IDS,
  applyAction,
  dealLayout,
  makeRecord,
  problemText,
  recordOf,
  redealLayout,
  verifyRecord,
  type Action,
  type Layout,
  type VariantId,
} from '../shared/index.js';
import { format, medianMs, seededRandom } from './measure.js';

interface Playout {
  readonly variant: VariantId;
  readonly deals: Layout[];
  readonly actions: Action[];
}

/** Plays random legal actions (redealing only when stuck) until the game is over or `cap` actions. */
export function randomPlayout(variant: VariantId, seed: string, random: () => number, cap: number): Playout {
  const deals: Layout[] = [dealLayout(seed, variant)];
  const position = Position.start(variant, deals[0]!);
  if (!position.ok) throw new Error(problemText(position.error));
  const game = position.value;
  const actions: Action[] = [];
  while (actions.length < cap) {
    const legal = game.legalActions();
    if (legal.length === 0) break;
    const moves = legal.filter((action) => action.type !== 'redeal');
    const action = moves.length > 0 ? moves[Math.floor(random() * moves.length)]! : legal[0]!;
    let layout: Layout | undefined;
    if (action.type === 'redeal') {
      layout = redealLayout(seed, game.redealsUsed + 1, game.gatheredCards());
      deals.push(layout);
    }
    game.play(action, layout);
    actions.push(action);
  }
  return { variant, deals, actions };
}

/** Replays every playout with full validation (problem + play), as the server does per move. */
function validateAll(playouts: readonly Playout[]): number {
  let count = 0;
  for (const { variant, deals, actions } of playouts) {
    const game = (Position.start(variant, deals[0]!) as { value: Position }).value;
    for (const action of actions) {
      const layout = action.type === 'redeal' ? deals[game.redealsUsed + 1] : undefined;
      if (game.problem(action, layout) !== undefined) throw new Error('a legal action was refused');
      game.play(action, layout);
      count++;
    }
  }
  return count;
}

/** The same through the pure API: every action yields a new position. */
function applyAll(playouts: readonly Playout[]): number {
  let count = 0;
  for (const { variant, deals, actions } of playouts) {
    let game = (Position.start(variant, deals[0]!) as { value: Position }).value;
    for (const action of actions) {
      const next = applyAction(game, action, action.type === 'redeal' ? deals[game.redealsUsed + 1] : undefined);
      if (!next.ok) throw new Error(problemText(next.error));
      game = next.value;
      count++;
    }
  }
  return count;
}

export function benchEngine(): void {
  console.log('## Engine (one core)');
  console.log('| variant | games | actions | validated actions/s | pure applyAction/s | playouts/s (legal moves + play) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  const all: Playout[] = [];
  for (const variant of VARIANT_IDS) {
    const random = seededRandom(42);
    const games = 400;
    let playouts: Playout[] = [];
    const playMs = medianMs(3, () => {
      playouts = Array.from({ length: games }, (_, i) => randomPlayout(variant, `bench-${i}`, random, 300));
    });
    all.push(...playouts);
    let actions = 0;
    const validateMs = medianMs(7, () => {
      actions = validateAll(playouts);
    });
    const applyMs = medianMs(5, () => applyAll(playouts));
    console.log(
      `| ${variant} | ${games} | ${actions} | ${format(actions / validateMs / 1000, 3)} M | ${format(actions / applyMs / 1000, 3)} M | ${format((games / playMs) * 1000, 0)} |`,
    );
  }
  let total = 0;
  const allMs = medianMs(7, () => {
    total = validateAll(all);
  });
  console.log(`\nAll variants: ${total} actions validated at ${format(total / allMs / 1000, 3)} M actions/s (target ≥ 2 M/s).`);

  // A long record: in shamrocks a card can shuttle between two fans, so a game runs to thousands of actions.
  const long = randomPlayout('shamrocks', 'long-0', seededRandom(0), 20_000);
  const text = JSON.stringify(makeRecord(recordOf(long.variant, long.deals, long.actions, { seed: 'bench-long' })));
  const parseMs = medianMs(41, () => JSON.parse(text));
  const verifyMs = medianMs(41, () => {
    if (!verifyRecord(text).ok) throw new Error('the long record should verify');
  });
  console.log(
    `\nVerify a long record (${long.actions.length} actions, ${format(text.length / 1024, 0)} KiB): ` +
      `verify ${format(verifyMs, 3)} ms, JSON.parse ${format(parseMs, 3)} ms, ratio ${format(verifyMs / parseMs)}× (target ≤ 3×).`,
  );
}
