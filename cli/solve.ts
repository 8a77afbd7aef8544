// `lucie solve`, `lucie stats` and `lucie board`: the solver and boards from the command line.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  Position,
  dealLayout,
  makeBoard,
  makeRecord,
  parseBoard,
  parseRecord,
  problemText,
  recordOf,
  replayRecord,
  type Action,
  type Layout,
  type VariantId,
} from '../shared/index.js';
import { seedDealer, solveClairvoyant, solveDeal, solvePar, type Limits } from '../solver/index.js';

export interface SolveInput {
  readonly name: string;
  readonly variant: VariantId;
  readonly seed?: string;
  /** The first layout when the input is a whole game (seed or record); absent for a board. */
  readonly firstLayout?: Layout;
  readonly position: Position;
}

/** One JSON line of `lucie solve`. Counts are null when unknown; with an `...Exact` false a count means "at least". */
export interface SolveLine {
  input: string;
  variant: VariantId;
  seed: string | null;
  firstDealMax: number;
  firstDealClearable: boolean | null;
  firstDealExact: boolean;
  par: number | null;
  parWon: boolean | null;
  parExact: boolean;
  clairvoyant: number | null;
  clairvoyantWon: boolean | null;
  clairvoyantExact: boolean;
  nodes: number;
  /** The whole solve, then each measure's own share (null where the measure was not run). */
  ms: number;
  msDeal: number;
  msPar: number | null;
  msClairvoyant: number | null;
  exact: boolean;
}

export interface SolvedLines {
  deal: Action[];
  par: { actions: Action[]; redeals: Layout[] } | null;
  clairvoyant: { actions: Action[]; redeals: Layout[] } | null;
}

/** What a board cannot show of its game: the redeals used before it, and whether the merci was played. */
export interface BoardState {
  redealsUsed?: number;
  merciUsed?: boolean;
}

/**
 * Reads a record file or a board file (a board needs the variant, how many redeals were used
 * before it, 0 unless told, and whether the merci was played; the seed gives its redeals).
 */
export function readInput(file: string, text: string, variant: VariantId, seed?: string, board: BoardState = {}): SolveInput | string {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{')) {
    if (board.redealsUsed !== undefined) return `${file}: --redeals-used is for boards; a record counts its own redeals`;
    if (board.merciUsed) return `${file}: --merci-used is for boards; a record shows its own merci`;
    const record = parseRecord(trimmed);
    if (!record.ok) return `${file}: ${problemText(record.error)}`;
    const start = Position.start(record.value.variant, record.value.deals[0]!);
    if (!start.ok) return `${file}: ${problemText(start.error)}`;
    const recordSeed = seed ?? record.value.seed;
    return { name: file, variant: record.value.variant, ...(recordSeed === undefined ? {} : { seed: recordSeed }), firstLayout: record.value.deals[0]!, position: start.value };
  }
  const position = parseBoard(trimmed, variant, board);
  if (!position.ok) return `${file}: ${problemText(position.error)}`;
  return { name: file, variant, ...(seed === undefined ? {} : { seed }), position: position.value };
}

export function seedInput(seed: string, variant: VariantId): SolveInput {
  const firstLayout = dealLayout(seed, variant);
  const start = Position.start(variant, firstLayout);
  if (!start.ok) throw new Error(problemText(start.error));
  return { name: `seed:${seed}`, variant, seed, firstLayout, position: start.value };
}

/** Solves one input: deal max always; par and clairvoyant when a seed gives the redeals; `limits` apply to each. */
export function solveInput(input: SolveInput, limits: Limits, now: () => number): { line: SolveLine; lines: SolvedLines } {
  const started = now();
  const timed = <T>(solve: () => T): { value: T; ms: number } => {
    const began = now();
    const value = solve();
    return { value, ms: tenths(now() - began) };
  };
  // Each measure has the limits to itself, so a slow par never starves the clairvoyant solve.
  const { value: deal, ms: msDeal } = timed(() => solveDeal(input.position, limits));
  const dealer = input.seed === undefined ? undefined : seedDealer(input.seed);
  const timedPar = dealer && timed(() => solvePar(input.position, dealer, limits));
  const timedClairvoyant = dealer && timed(() => solveClairvoyant(input.position, dealer, limits));
  const par = timedPar?.value;
  const searched = timedClairvoyant?.value;
  // Par's line is a line a clairvoyant player may play too: when a cut-short search found less, it is the better floor.
  const parBetter = par && searched && par.par !== null && par.par > searched.best;
  const clairvoyant =
    searched && (parBetter ? { ...searched, best: par.par!, won: par.won, exact: par.won, actions: par.actions, redeals: par.redeals } : searched);
  const line: SolveLine = {
    input: input.name,
    variant: input.variant,
    seed: input.seed ?? null,
    firstDealMax: deal.max,
    firstDealClearable: deal.clearable,
    firstDealExact: deal.exact,
    par: par?.par ?? null,
    parWon: par ? (par.exact ? par.won : null) : null,
    parExact: par?.exact ?? false,
    clairvoyant: clairvoyant?.best ?? null,
    clairvoyantWon: clairvoyant ? (clairvoyant.won || (clairvoyant.exact ? false : null)) : null,
    clairvoyantExact: clairvoyant?.exact ?? false,
    nodes: deal.nodes + (par?.nodes ?? 0) + (clairvoyant?.nodes ?? 0),
    ms: tenths(now() - started),
    msDeal,
    msPar: timedPar?.ms ?? null,
    msClairvoyant: timedClairvoyant?.ms ?? null,
    exact: deal.exact && (par ? par.exact : true) && (clairvoyant ? clairvoyant.exact : true),
  };
  return {
    line,
    lines: {
      deal: deal.line,
      par: par && par.exact ? { actions: par.actions, redeals: par.redeals } : null,
      clairvoyant: clairvoyant ? { actions: clairvoyant.actions, redeals: clairvoyant.redeals } : null,
    },
  };
}

const tenths = (ms: number): number => Math.round(ms * 10) / 10;

/** Writes each line of a whole-game input as a lucie-record/1 file in `dir`; returns the paths. */
export function writeLines(dir: string, input: SolveInput, lines: SolvedLines): string[] {
  if (!input.firstLayout) return [];
  mkdirSync(dir, { recursive: true });
  const stem = basename(input.name).replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.json$/, '');
  const written: string[] = [];
  const write = (kind: string, actions: Action[], redeals: Layout[]) => {
    const path = join(dir, `${stem}.${kind}.json`);
    const record = recordOf(input.variant, [input.firstLayout!, ...redeals], actions, {
      ...(input.seed === undefined ? {} : { seed: input.seed }),
      meta: { line: kind },
    });
    writeFileSync(path, JSON.stringify(makeRecord(record)) + '\n');
    written.push(path);
  };
  write('deal', lines.deal, []);
  if (lines.par) write('par', lines.par.actions, lines.par.redeals);
  if (lines.clairvoyant) write('clairvoyant', lines.clairvoyant.actions, lines.clairvoyant.redeals);
  return written;
}

/** Wilson score interval at 95 %. */
export function wilson(successes: number, total: number): [number, number] {
  if (total === 0) return [0, 1];
  const z = 1.96;
  const p = successes / total;
  const denominator = 1 + (z * z) / total;
  const centre = p + (z * z) / (2 * total);
  const margin = z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total));
  return [Math.max(0, (centre - margin) / denominator), Math.min(1, (centre + margin) / denominator)];
}

export interface Rate {
  won: number;
  /** Seeds the limits left undecided (neither a win found nor a loss proved). */
  unknown: number;
  total: number;
}

/** "4.1 % (3.0-5.5)": wins over all seeds; unknown seeds widen the interval upward, never guessed. */
export function formatRate(rate: Rate): string {
  const [low] = wilson(rate.won, rate.total);
  const [, high] = wilson(rate.won + rate.unknown, rate.total);
  const percent = (x: number) => (x * 100).toFixed(1);
  const unknown = rate.unknown > 0 ? `, ${rate.unknown} unknown` : '';
  return `${percent(rate.won / rate.total)} % (${percent(low)}-${percent(high)}${unknown})`;
}

/** The position after action `at` (all of them when absent) of a record, as a board. */
export function boardOf(text: string, at?: number): string {
  const record = parseRecord(text.replace(/^\uFEFF/, ''));
  if (!record.ok) throw new Error(problemText(record.error));
  const actions = at === undefined ? record.value.actions : record.value.actions.slice(0, at);
  if (at !== undefined && (at < 0 || at > record.value.actions.length)) {
    throw new Error(`--at must be 0-${record.value.actions.length} (the record has ${record.value.actions.length} actions)`);
  }
  const used = actions.filter((action) => action === 'R').length;
  const replay = replayRecord({ ...record.value, actions, deals: record.value.deals.slice(0, used + 1) });
  if (!replay.ok) throw new Error(`action ${replay.error.index === null ? '' : replay.error.index + 1} ${problemText(replay.error.problem)}`);
  return makeBoard(replay.value);
}

export const readText = (file: string): string => readFileSync(file === '-' ? 0 : file, 'utf8');
