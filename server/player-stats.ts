/**
 * A player's record, read from their finished games (race seats and daily attempts alike): per
 * variant how many games, wins, the win rate, the average cards home, the fastest win, and the
 * current and best run of wins in a row (in the order the games ended).
 */
import type { PlayerStats, VariantStats } from '../contract/index.js';
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

/** The record of games given in the order they ended; variants in the order first played. */
export function variantStats(finished: readonly FinishedGame[]): VariantStats[] {
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
    };
  });
}

/** `seriesOf` gives the series the player took part in (none where series are not served), `fairPlayOf` their accuracy and move times (fair-play.ts). */
export async function playerStats(
  store: PlayerStore,
  playerId: number,
  seriesOf: (playerId: number) => Pending<PlayerStats['series']>,
  fairPlayOf: (playerId: number) => Pending<PlayerStats['fairPlay']>,
): Promise<PlayerStats> {
  const player = await store.byId(playerId);
  if (!player) throw new Refusal('unknown-player', `there is no player ${playerId}`, { field: 'id', params: { player: playerId } });
  const finished = (await store.finishedGames(playerId)).map((row) => ({
    variant: row.variant,
    won: row.status === 'won',
    foundations: row.foundations,
    elapsedMs: (row.finishedAt ?? row.startedAt) - row.startedAt,
  }));
  return { player, variants: variantStats(finished), series: await seriesOf(playerId), fairPlay: await fairPlayOf(playerId) };
}
