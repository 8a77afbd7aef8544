import type { ReplayGame } from './contract.js';
import { parseRecord, RECORD_FORMAT, type VariantId } from './engine.js';
import { t } from './i18n.svelte.js';
import { problemWords } from './moves.js';
import { buildReplay, type Replay } from './replay.js';

/**
 * A finished race on one clock: each racer's replay (positions rebuilt with the shared engine)
 * and the moment each of their moves was stored, so every board can show, at any time of the
 * race, the position its racer had then. A ghost race is one too: the player and the ghost on
 * the ghost race's clock.
 */

export interface TimelineTrack {
  readonly game: ReplayGame;
  readonly replay: Replay;
  /** Ms after the start at which each action was played. */
  readonly offsets: readonly number[];
  /** Ms after the start at which the racer's game ended (null: never, which a finished race does not have). */
  readonly finishOffset: number | null;
}

export interface RaceTimeline {
  readonly startsAt: number;
  /** Ms from the start to the last thing that happened: the last move or the last finish. */
  readonly length: number;
  readonly tracks: readonly TimelineTrack[];
}

/** Builds the timeline of `games` played from `startsAt`; an error names the racer whose stored game cannot be rebuilt. */
export function buildTimeline(
  { variant, startsAt }: { readonly variant: VariantId; readonly startsAt: number },
  games: readonly ReplayGame[],
): { ok: true; value: RaceTimeline } | { ok: false; error: string } {
  const tracks: TimelineTrack[] = [];
  for (const game of games) {
    const record = parseRecord({ format: RECORD_FORMAT, variant, deals: game.deals, actions: game.actions });
    if (!record.ok) return { ok: false, error: t('race-replay.unreadable', { name: game.name, problem: problemWords(record.error) }) };
    const replay = buildReplay(record.value);
    if (replay.failure) return { ok: false, error: t('race-replay.unplayable', { name: game.name, problem: problemWords(replay.failure.problem) }) };
    tracks.push({
      game,
      replay,
      offsets: game.times.map((at) => Math.max(0, at - startsAt)),
      finishOffset: game.finishedAt === null ? null : Math.max(0, game.finishedAt - startsAt),
    });
  }
  const ends = tracks.flatMap((track) => [track.offsets.at(-1) ?? 0, track.finishOffset ?? 0]);
  return { ok: true, value: { startsAt, length: Math.max(0, ...ends), tracks } };
}

/** How many of a track's actions were played by `offset` ms after the start (moves stored at that very ms included). */
export function stepAt(track: TimelineTrack, offset: number): number {
  let low = 0;
  let high = track.offsets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (track.offsets[middle]! <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
