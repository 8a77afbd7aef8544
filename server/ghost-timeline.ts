/**
 * A finished game told again on its own clock, pure: how it stood a given time after its start
 * (cards home, redeals, moves, and its end once reached), and when it next changes. A ghost race
 * shows its ghost this way: counts only, never a card.
 */
import { Position, replayRecord } from '../shared/index.js';
import type { EndState, GameState } from '../contract/index.js';
import { storedLayout, type LiveGame } from './games/live-game.js';

/** One action of the ghost: how long after its start it was stored, and the counts after it. */
export interface GhostStep {
  readonly after: number;
  readonly foundations: number;
  readonly redealsUsed: number;
}

export interface GhostTimeline {
  /** Cards home before the first action (the Aces of trefoil). */
  readonly startFoundations: number;
  readonly steps: readonly GhostStep[];
  /** How it ended, and how long after its start. */
  readonly end: { readonly after: number; readonly state: EndState };
}

/** How the ghost stands `elapsed` ms after its start. */
export interface GhostMoment {
  readonly foundations: number;
  readonly redealsUsed: number;
  readonly moves: number;
  readonly state: GameState;
  /** Its end, ms after its start, once reached. */
  readonly finishedAfter: number | null;
  /** When it next changes, ms after its start; null once it has ended. */
  readonly nextAfter: number | null;
}

/** The timeline of an ended game from its move log and the times its actions were stored. */
export function ghostTimeline(game: Pick<LiveGame, 'variant' | 'deals' | 'actions' | 'startedAt' | 'finishedAt' | 'state'>, times: readonly number[]): GhostTimeline {
  if (game.state === 'playing' || game.finishedAt === null) throw new Error('a ghost is a game that has ended');
  if (times.length !== game.actions.length) throw new Error(`${game.actions.length} actions but ${times.length} times`);
  const steps: GhostStep[] = [];
  const deals = game.deals.map(storedLayout);
  const start = Position.start(game.variant, deals[0]!);
  if (!start.ok) throw new Error(`stored deal 0 does not start a game: ${JSON.stringify(start.error)}`);
  const full = replayRecord({ variant: game.variant, deals, actions: game.actions }, (position, index) =>
    steps.push({ after: Math.max(0, times[index]! - game.startedAt), foundations: position.foundationCount(), redealsUsed: position.redealsUsed }),
  );
  if (!full.ok) throw new Error(`stored move log does not replay: ${JSON.stringify(full.error)}`);
  const lastAction = steps.at(-1)?.after ?? 0;
  return { startFoundations: start.value.foundationCount(), steps, end: { after: Math.max(lastAction, game.finishedAt - game.startedAt), state: game.state } };
}

/** The ghost `elapsed` ms after its start: every action stored by then played, its end once reached. */
export function ghostAt(timeline: GhostTimeline, elapsed: number): GhostMoment {
  const { steps, end } = timeline;
  let moves = 0;
  while (moves < steps.length && steps[moves]!.after <= elapsed) moves++;
  const last = moves === 0 ? undefined : steps[moves - 1]!;
  const ended = elapsed >= end.after;
  return {
    foundations: last?.foundations ?? timeline.startFoundations,
    redealsUsed: last?.redealsUsed ?? 0,
    moves,
    state: ended ? end.state : 'playing',
    finishedAfter: ended ? end.after : null,
    nextAfter: ended ? null : (steps[moves]?.after ?? end.after),
  };
}
