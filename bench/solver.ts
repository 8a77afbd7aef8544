// Solver benchmark: per variant and mode, median / p90 / max ms per seed and nodes per second,
// with the share of seeds solved exactly; baseline (same run): the deal search without its bound.
// Seeds per variant and mode: SOLVER_SEEDS (default 1000 in strict, the figure; 30 for
// the other variants, whose whole-game modes can take seconds a seed); SOLVER_VARIANTS
// (comma-separated) picks variants, e.g. `SOLVER_VARIANTS=strict npm run bench -- solver`.
import { Position, VARIANT_IDS, dealLayout, problemText, type VariantId } from '../shared/index.js';
import { Budget, seedDealer, solveClairvoyant, solveDeal, solvePar } from '../solver/index.js';
import { explore } from '../solver/search.js';
import { DealState } from '../solver/state.js';
import { format, percentile } from './measure.js';

const MODES = ['deal', 'par', 'clairvoyant'] as const;
type Mode = (typeof MODES)[number];

function seedsFor(variant: VariantId): number {
  const chosen = Number(process.env.SOLVER_SEEDS);
  if (Number.isInteger(chosen) && chosen > 0) return chosen;
  return variant === 'strict' ? 1000 : 30;
}

function start(variant: VariantId, seed: string): Position {
  const position = Position.start(variant, dealLayout(seed, variant));
  if (!position.ok) throw new Error(problemText(position.error));
  return position.value;
}

function run(position: Position, seed: string, mode: Mode): { nodes: number; exact: boolean } {
  switch (mode) {
    case 'deal':
      return solveDeal(position);
    case 'par':
      return solvePar(position, seedDealer(seed));
    case 'clairvoyant':
      return solveClairvoyant(position, seedDealer(seed));
  }
}

export function benchSolver(): void {
  console.log('solver: ms per seed (median / p90 / max), nodes per second, seeds solved exactly');
  const picked = process.env.SOLVER_VARIANTS?.split(',') ?? VARIANT_IDS;
  for (const variant of VARIANT_IDS.filter((id) => picked.includes(id))) {
    for (const mode of MODES) {
      const count = seedsFor(variant);
      const times: number[] = [];
      let nodes = 0;
      let exact = 0;
      for (let i = 1; i <= count; i++) {
        const seed = String(i);
        const position = start(variant, seed);
        const began = process.hrtime.bigint();
        const result = run(position, seed, mode);
        times.push(Number(process.hrtime.bigint() - began) / 1e6);
        nodes += result.nodes;
        if (result.exact) exact++;
      }
      const total = times.reduce((sum, ms) => sum + ms, 0);
      console.log(
        `  ${variant.padEnd(20)} ${mode.padEnd(12)} ${String(count).padStart(5)} seeds  ` +
          `${format(percentile(times, 0.5))} / ${format(percentile(times, 0.9))} / ${format(Math.max(...times))} ms  ` +
          `${format(nodes / (total / 1000), 0)} nodes/s  exact ${format((100 * exact) / count, 1)} %`,
      );
    }
  }
  // Baseline in the same run, over 100 strict first deals: the deal solver (branch and bound on
  // its relaxation bound, safe moves home forced) against the search of every position with safe
  // moves forced (searching with nothing pruned takes minutes: about 20 times longer again).
  const seeds = Array.from({ length: 100 }, (_, i) => String(i + 1));
  const timed = (search: (position: Position) => void) => {
    const began = process.hrtime.bigint();
    for (const seed of seeds) search(start('strict', seed));
    return Number(process.hrtime.bigint() - began) / 1e6;
  };
  const solver = timed((position) => solveDeal(position));
  const safeOnly = timed((position) => explore(DealState.fromPosition(position), true, new Budget(), () => false));
  console.log(
    `  strict first deals, 100 seeds: deal solver ${format(solver)} ms; every position with safe moves forced ` +
      `${format(safeOnly)} ms (x${format(safeOnly / solver)})`,
  );
}
