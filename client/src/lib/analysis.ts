import { errorText, getAnalysis } from './api.js';
import type { AnalysisAnswer, AnalysisLine, AnalysisPoint } from './contract.js';
import { parseLayout, type GameRecord, type Layout, type VariantId } from './engine.js';
import { problemWords } from './moves.js';

/** A move where the deal's best still reachable fell: the cards it cost. */
export interface Loss {
  /** Actions played when it was lost (the replay's step just after the move). */
  readonly step: number;
  readonly cards: number;
}

/**
 * The moves that lost cards: within one deal the maximum still reachable never rises (every
 * later position is reached from the earlier one), so each fall belongs to the move just
 * played. Only exact maxima count: an "at least" figure may fall without a card lost.
 */
export function lossesOf(points: readonly AnalysisPoint[]): Loss[] {
  const losses: Loss[] = [];
  for (let i = 1; i < points.length; i++) {
    const [before, after] = [points[i - 1]!, points[i]!];
    if (before.deal === after.deal && before.exact && after.exact && after.dealMax < before.dealMax) losses.push({ step: i, cards: before.dealMax - after.dealMax });
  }
  return losses;
}

/** A solver line as a record the replayer walks: the game's first layout, then the line's own redeals. */
export function lineRecord(variant: VariantId, first: Layout, line: AnalysisLine): GameRecord | string {
  const deals: Layout[] = [first];
  for (const fans of line.redeals) {
    const layout = parseLayout(fans);
    if (!layout.ok) return problemWords(layout.error);
    deals.push(layout.value);
  }
  return { variant, deals, actions: line.actions };
}

/** A pending analysis is asked for again this often, this many times at most. */
const RETRY_MS = 2000;
const RETRIES = 60;

/**
 * Asks for a game's analysis, and again while it is pending; `onAnswer` hears each answer,
 * `onFailure` a refused or failed request. Returns a function that stops asking.
 */
export function followAnalysis(gameId: number, onAnswer: (answer: AnalysisAnswer) => void, onFailure: (problem: string) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const ask = async (tries: number): Promise<void> => {
    try {
      const answer = await getAnalysis(gameId);
      if (stopped) return;
      onAnswer(answer);
      if (answer.status === 'pending' && tries > 0) timer = setTimeout(() => void ask(tries - 1), RETRY_MS);
    } catch (failure) {
      if (!stopped) onFailure(errorText(failure));
    }
  };
  void ask(RETRIES);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
