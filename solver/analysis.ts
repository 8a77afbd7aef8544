import { Position, err, ok, problemOf, replayRecord, type GameRecord, type ReplayFailure, type Result } from '../shared/index.js';
import { Budget } from './budget.js';
import { solveDeal } from './deal.js';

/** The game at one point: at the start, or after one of its actions. */
export interface AnalysisPoint {
  /** Deal number, 0 for the first layout. */
  readonly deal: number;
  readonly home: number;
  /** The deal solver's maximum still reachable in this deal; with `exact` false, only "at least". */
  readonly dealMax: number;
  readonly exact: boolean;
}

export interface GameAnalysis {
  /** The start, then one point after each action. */
  readonly points: AnalysisPoint[];
  readonly nodes: number;
}

/** Node limit per analysed position: a whole game is a few hundred of them. */
export const ANALYSIS_NODES = 200_000;

/**
 * The curve of a game, the way an evaluation graph shows a chess game: cards home and the most
 * still reachable in the current deal, at the start and after every action. Every position is
 * reachable from the one before it in the same deal, so within a deal the maximum never rises:
 * a drop marks the move that cost those cards. Only the layouts already dealt are looked at.
 */
export function analyseRecord(record: GameRecord, nodesPerPosition = ANALYSIS_NODES): Result<GameAnalysis, ReplayFailure> {
  const points: AnalysisPoint[] = [];
  let nodes = 0;
  const judge = (position: Position) => {
    const solution = solveDeal(position, new Budget({ nodes: nodesPerPosition }));
    nodes += solution.nodes;
    points.push({ deal: position.redealsUsed, home: position.foundationCount(), dealMax: solution.max, exact: solution.exact });
  };
  const start = Position.start(record.variant, record.deals[0]!);
  if (!start.ok) return err({ index: null, problem: problemOf('in-deal', { deal: 0, problem: start.error }) });
  judge(start.value);
  const replay = replayRecord(record, (position) => judge(position));
  return replay.ok ? ok({ points, nodes }) : err(replay.error);
}
