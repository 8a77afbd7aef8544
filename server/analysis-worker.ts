// The analysis worker thread (server/analyses.ts starts it): solves one game at a time off the
// event loop. It reads no database and no clock but its own; every answer goes back as a message.
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { makeAction, makeLayout, parseRecord, Position, problemText, type Action, type Layout } from '../shared/index.js';
import { analyseRecord, seedDealer, solveClairvoyant, solveDeal, solvePar, type Limits } from '../solver/index.js';
import type { AnalysisLine, GameAnalysis } from '../contract/index.js';

export interface AnalysisJob {
  job: number;
  /** The game's lucie-record/1 (seed included: it is public by now). */
  record: unknown;
  /** Where its redeals come from (games/live-game.ts redealSeedOf). */
  redealSeed: string;
  /** Nodes and milliseconds for each of the deal, par and clairvoyant solves. */
  nodes: number;
  ms: number;
}

export type AnalysisReply = { job: number; analysis: GameAnalysis } | { job: number; failure: string };

const lineOf = (actions: readonly Action[], redeals: readonly Layout[]): AnalysisLine => ({
  actions: actions.map(makeAction),
  redeals: redeals.map(makeLayout),
});

/** The game's analysis, or why there is none (a record the engine refuses). */
export function analyseGame({ record: input, redealSeed, nodes, ms }: AnalysisJob): GameAnalysis | string {
  const started = performance.now();
  const record = parseRecord(input);
  if (!record.ok) return `the stored record does not read: ${problemText(record.error)}`;
  const start = Position.start(record.value.variant, record.value.deals[0]!);
  if (!start.ok) return `the first layout does not deal: ${problemText(start.error)}`;
  const limits = (): Limits => ({ nodes, ms, clock: () => performance.now() });
  const dealer = seedDealer(redealSeed);
  const deal = solveDeal(start.value, limits());
  const par = solvePar(start.value, dealer, limits());
  const clairvoyant = solveClairvoyant(start.value, dealer, limits());
  const curve = analyseRecord(record.value);
  if (!curve.ok) return `the stored moves do not replay: action ${curve.error.index}: ${problemText(curve.error.problem)}`;
  return {
    firstDeal: { max: deal.max, clearable: deal.clearable, exact: deal.exact },
    par: { count: par.par, won: par.exact ? par.won : null, line: par.exact ? lineOf(par.actions, par.redeals) : null },
    clairvoyant: { best: clairvoyant.best, won: clairvoyant.won, exact: clairvoyant.exact, line: lineOf(clairvoyant.actions, clairvoyant.redeals) },
    points: curve.value.points,
    nodes: deal.nodes + par.nodes + clairvoyant.nodes + curve.value.nodes,
    ms: Math.round(performance.now() - started),
  };
}

parentPort?.on('message', (job: AnalysisJob) => {
  let reply: AnalysisReply;
  try {
    const analysis = analyseGame(job);
    reply = typeof analysis === 'string' ? { job: job.job, failure: analysis } : { job: job.job, analysis };
  } catch (error) {
    reply = { job: job.job, failure: `the solver failed: ${(error as Error).message}` };
  }
  parentPort!.postMessage(reply);
});
