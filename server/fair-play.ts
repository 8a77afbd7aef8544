/**
 * Fair play: what a game's analysis says of how it was played, and which players the operator
 * page lists for a look. Nothing here punishes anyone: an operator decides.
 *
 * Accuracy: the analysis gives, at the start and after each action, the most cards still
 * reachable in the current deal (`dealMax`). A move "kept" the deal's best when the count after
 * it is as high as before it (it can only stay or fall); a move is judged only when both counts
 * are exact and it stays within one deal (a redeal starts a new deal, with a count of its own).
 * Move times: the times between consecutive stored actions, summed up by their median and their
 * median absolute deviation (a spread that one long pause does not swamp).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FairPlayFigures, PlayerFairPlay } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { DomainEvents } from './events.js';
import { after, type Pending } from './ports.js';
import type { FairPlayRow, FairPlayStore, OutlierRow, OutlierRule } from './stores.js';

/** One point of a game's analysis curve (contract analysisPoint). */
export interface CurvePoint {
  readonly deal: number;
  readonly dealMax: number;
  readonly exact: boolean;
}

/**
 * The tail the operator page lists: over at least 20 analysed rated race games, a mean accuracy of 98 %
 * or more, a mean median move time of 700 ms or less (a careful human thinks longer on most
 * moves of this game), and move times as regular as a metronome (spread under a quarter of the
 * median). All four at once: a strong player has the accuracy, a fast one the speed; only a
 * program tends to have both, steadily, over many games.
 */
export const FAIR_PLAY_RULE: OutlierRule = { minGames: 20, minAccuracy: 0.98, maxMedianMs: 700, maxRelativeSpread: 0.25 };

/** Moves judged and moves that kept the deal's best, from the curve (points[i] is before action i). */
export function accuracyOf(points: readonly CurvePoint[]): Pick<FairPlayFigures, 'judged' | 'kept' | 'accuracy'> {
  let judged = 0;
  let kept = 0;
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1]!;
    const after = points[i]!;
    if (before.deal !== after.deal || !before.exact || !after.exact) continue;
    judged++;
    if (after.dealMax >= before.dealMax) kept++;
  }
  return { judged, kept, accuracy: judged === 0 ? null : kept / judged };
}

const median = (sorted: readonly number[]): number => {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The median time between consecutive actions and its median absolute deviation, ms (null under two actions). */
export function moveTimesOf(times: readonly number[]): Pick<FairPlayFigures, 'medianMs' | 'spreadMs'> {
  if (times.length < 2) return { medianMs: null, spreadMs: null };
  const gaps = times.slice(1).map((at, i) => at - times[i]!);
  const middle = median([...gaps].sort((a, b) => a - b));
  const deviations = gaps.map((gap) => Math.abs(gap - middle)).sort((a, b) => a - b);
  return { medianMs: Math.round(middle), spreadMs: Math.round(median(deviations)) };
}

/** A game's figures from its analysis curve and its actions' times. */
export function fairPlayOf(points: readonly CurvePoint[], times: readonly number[]): FairPlayFigures {
  return { ...accuracyOf(points), ...moveTimesOf(times) };
}

/** A stored row's figures. */
export const figuresOf = ({ judged, kept, medianMs, spreadMs }: FairPlayRow): FairPlayFigures => ({ judged, kept, accuracy: judged === 0 ? null : kept / judged, medianMs, spreadMs });

/** Measures every analysed game (as its analysis is stored) and answers the figures of a game, a player, and the tail. */
export class FairPlayService {
  constructor(
    private readonly store: FairPlayStore,
    private readonly clock: Clock,
    log: FastifyBaseLogger,
    events: DomainEvents,
  ) {
    events.on('game-analysed', ({ gameId, playerId, analysis }) =>
      void Promise.resolve()
        .then(() => this.measure(gameId, playerId, analysis.points))
        .catch((error: unknown) => log.warn({ err: error, gameId }, 'cannot store a game’s fair-play figures')),
    );
  }

  measure(gameId: number, playerId: number, points: readonly CurvePoint[]): Pending<void> {
    return after(this.store.moveTimes(gameId), (times) => {
      const { judged, kept, medianMs, spreadMs } = fairPlayOf(points, times);
      return this.store.store({ gameId, playerId, judged, kept, medianMs, spreadMs, createdAt: this.clock.now() });
    });
  }

  ofGame(gameId: number): Pending<FairPlayFigures | null> {
    return after(this.store.byGame(gameId), (row) => (row ? figuresOf(row) : null));
  }

  ofPlayer(playerId: number): Pending<PlayerFairPlay> {
    return this.store.ofPlayer(playerId);
  }

  outliers(limit: number): Pending<OutlierRow[]> {
    return this.store.outliers(FAIR_PLAY_RULE, limit);
  }
}
