import type { GameState, StandingView } from './protocol.js';

export type Finisher = Omit<StandingView, 'rank'>;

/**
 * Ranks a race: winners first by finish time, then everyone else by cards on foundations (more
 * is better), then by finish time (earlier is better, unfinished last). Exact ties share a rank
 * (1, 1, 3); otherwise the input order (seat order) is kept.
 */
export function rankStandings(finishers: readonly Finisher[]): StandingView[] {
  const sorted = [...finishers].sort(compareFinishers);
  const standings: StandingView[] = [];
  sorted.forEach((finisher, i) => {
    const previous = standings[i - 1];
    const tied = previous !== undefined && compareFinishers(sorted[i - 1]!, finisher) === 0;
    standings.push({ rank: tied ? previous.rank : i + 1, ...finisher });
  });
  return standings;
}

const won = (state: GameState): number => (state === 'won' ? 0 : 1);
const time = (finishedAt: number | null): number => finishedAt ?? Number.POSITIVE_INFINITY;

function compareFinishers(a: Finisher, b: Finisher): number {
  return won(a.state) - won(b.state) || b.foundations - a.foundations || time(a.finishedAt) - time(b.finishedAt);
}
