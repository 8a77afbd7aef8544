/**
 * A player's record, read from their finished games (race seats and daily attempts alike): per
 * variant how many games, wins, the win rate, the average cards home, the fastest win, and the
 * current and best run of wins in a row (in the order the games ended), and the rating.
 */
import { addDays, type PlayerStats, type RatingView, type VariantStats } from '../contract/index.js';
import type { VariantId } from '../shared/index.js';
import { Refusal } from './errors.js';
import type { Pending } from './ports.js';
import type { PlayerStore } from './stores.js';

/** What the record needs of one finished game. */
export interface FinishedGame {
  readonly variant: VariantId;
  readonly won: boolean;
  readonly foundations: number;
  readonly elapsedMs: number;
}

/** The record of games given in the order they ended, with the variants' ratings; variants in the order first played. */
export function variantStats(finished: readonly FinishedGame[], ratings: ReadonlyMap<VariantId, RatingView> = new Map()): VariantStats[] {
  const byVariant = new Map<VariantId, FinishedGame[]>();
  for (const game of finished) byVariant.set(game.variant, [...(byVariant.get(game.variant) ?? []), game]);
  return [...byVariant].map(([variant, played]) => {
    const wins = played.filter((game) => game.won);
    let streak = 0;
    let bestStreak = 0;
    for (const game of played) {
      streak = game.won ? streak + 1 : 0;
      bestStreak = Math.max(bestStreak, streak);
    }
    return {
      variant,
      games: played.length,
      wins: wins.length,
      winRate: wins.length / played.length,
      averageFoundations: played.reduce((sum, game) => sum + game.foundations, 0) / played.length,
      bestWinMs: wins.length === 0 ? null : Math.min(...wins.map((game) => game.elapsedMs)),
      currentStreak: streak,
      bestStreak,
      rating: ratings.get(variant) ?? null,
    };
  });
}

/**
 * The daily streak from the days of a player's ended attempts: the longest run of consecutive
 * days, and the run that reaches `today` or the day before (today's attempt may be still to come).
 */
export function dailyStreak(days: readonly string[], today: string): { current: number; best: number } {
  const sorted = [...new Set(days)].sort();
  let run = 0;
  let best = 0;
  let previous: string | null = null;
  for (const day of sorted) {
    run = previous !== null && addDays(previous, 1) === day ? run + 1 : 1;
    best = Math.max(best, run);
    previous = day;
  }
  const current = previous !== null && (previous === today || previous === addDays(today, -1)) ? run : 0;
  return { current, best };
}

/** Where the record's other parts come from: the series the player took part in, and their ratings by variant. */
export interface RecordSources {
  readonly seriesOf: (playerId: number) => Pending<PlayerStats['series']>;
  readonly ratingsOf: (playerId: number) => Pending<ReadonlyMap<VariantId, RatingView>>;
  /** Their accuracy and move times (fair-play.ts). */
  readonly fairPlayOf: (playerId: number) => Pending<PlayerStats['fairPlay']>;
}

export async function playerStats(store: PlayerStore, playerId: number, { seriesOf, ratingsOf, fairPlayOf }: RecordSources, today: string): Promise<PlayerStats> {
  const player = await store.byId(playerId);
  if (!player) throw new Refusal('unknown-player', `there is no player ${playerId}`, { field: 'id', params: { player: playerId } });
  const rows = await store.finishedGames(playerId);
  const finished = rows.map((row) => ({
    variant: row.variant,
    won: row.status === 'won',
    foundations: row.foundations,
    elapsedMs: (row.finishedAt ?? row.startedAt) - row.startedAt,
  }));
  const days = rows.flatMap((row) => (row.day === null ? [] : [row.day]));
  return { player, variants: variantStats(finished, await ratingsOf(playerId)), daily: dailyStreak(days, today), series: await seriesOf(playerId), fairPlay: await fairPlayOf(playerId) };
}
