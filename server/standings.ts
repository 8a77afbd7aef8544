import type { StandingView } from '../contract/index.js';

export type Finisher = Omit<StandingView, 'rank'>;

/** Times (milliseconds) up to this, about 557 years, keep a rank key below 2^53. */
const TIME_SPAN = 2 ** 44;

/**
 * The ranking rule as one integer: smaller is better, equal exactly when tied. More cards on the
 * foundations first, then less time. A game is won exactly when its 52 cards are home, so every
 * win comes first, fastest first, then the losses by cards home, then by time. One number lets
 * SQL sort and rank a day's leaderboard on one index (games.rank_key). `time` is a race's finish
 * time or a daily attempt's elapsed time.
 */
export function rankKey(foundations: number, time: number): number {
  return (52 - foundations) * TIME_SPAN + Math.min(Math.max(0, time), TIME_SPAN - 1);
}

/** The smallest rank key of a result with `foundations` cards home: the keys of that many cards run from here. */
export const firstRankKey = (foundations: number): number => rankKey(foundations, 0);

/**
 * Standard competition ranks (1, 2, 2, 4) of results sorted by rank key. `start` is the 0-based
 * place of the first one in the whole board and `firstRank` its rank (1 + the results ahead of it):
 * a page of a leaderboard ranks itself from those two.
 */
export function competitionRanks(sortedKeys: readonly number[], start = 0, firstRank = 1): number[] {
  const ranks: number[] = [];
  sortedKeys.forEach((key, i) => ranks.push(i === 0 ? firstRank : key === sortedKeys[i - 1] ? ranks[i - 1]! : start + i + 1));
  return ranks;
}

/**
 * Ranks a race: winners first by finish time, then everyone else by cards on foundations (more
 * is better). Two losses with as many cards home tie whenever each stopped (timed out, resigned
 * or abandoned alike), as do two wins in the same millisecond: a tie shares a rank (1, 1, 3),
 * which the ratings read as a draw; within it the input order (seat order) is kept.
 */
export function rankStandings(finishers: readonly Finisher[]): StandingView[] {
  const keyed = finishers.map((finisher) => ({ finisher, key: raceKey(finisher) }));
  keyed.sort((a, b) => a.key - b.key);
  const ranks = competitionRanks(keyed.map(({ key }) => key));
  return keyed.map(({ finisher }, i) => ({ rank: ranks[i]!, ...finisher }));
}

/** A race result as one number: a win by its finish time, a loss by its cards home alone. */
const raceKey = ({ state, foundations, finishedAt }: Finisher): number => (state === 'won' ? rankKey(52, finishedAt ?? TIME_SPAN) : firstRankKey(foundations));
