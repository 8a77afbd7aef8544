/**
 * A result worth sharing: one spoiler-free line (which game, cards home, time, par, one symbol
 * per deal) and the replay's link once the game may be seen. It never holds a card, nor the seed:
 * what it is built from (counts and times) says nothing of a layout.
 */
import { parseLayout, replayRecord, VARIANTS, type Layout, type RecordJson, type VariantId } from './engine.js';
import type { GameSummary } from './contract.js';
import { duration } from './format.js';
import { t } from './i18n.svelte.js';

/** Which game the line is about. */
export type SharedGame =
  | { readonly kind: 'daily'; readonly day: string }
  | { readonly kind: 'race'; readonly code: string }
  | { readonly kind: 'series'; readonly code: string; readonly deal: number }
  | { readonly kind: 'ghost'; readonly ghost: string };

export interface SharedResult {
  readonly game: SharedGame;
  readonly foundations: number;
  readonly elapsedMs: number;
  /** Par on this game's redeals, once known (its analysis). */
  readonly par: number | null;
  /** Cards home at the end of each deal played, in order (the last one: at the end of the game). */
  readonly dealEnds: readonly number[];
  /** How many deals the variant allows (3 in strict). */
  readonly dealsAllowed: number;
  /** The replay's address, once anyone may see it; null before. */
  readonly link: string | null;
}

/** One deal's symbol: all home, some home in it, none home in it, never reached. */
export const DEAL_SYMBOLS = { won: '🟩', some: '🟨', none: '🟥', unplayed: '⬜' } as const;

/** The symbols of the deals: what each deal played brought home, then the deals never reached. */
export function dealSymbols(dealEnds: readonly number[], dealsAllowed: number): string {
  const played = dealEnds.map((home, k) => (home === 52 ? DEAL_SYMBOLS.won : home > (k === 0 ? 0 : dealEnds[k - 1]!) ? DEAL_SYMBOLS.some : DEAL_SYMBOLS.none));
  return [...played, ...Array.from({ length: Math.max(0, dealsAllowed - dealEnds.length) }, () => DEAL_SYMBOLS.unplayed)].join('');
}

function gameWords(game: SharedGame): string {
  switch (game.kind) {
    case 'daily':
      return t('share.daily', { day: game.day });
    case 'race':
      return t('share.race', { code: game.code });
    case 'series':
      return t('share.series', { code: game.code, deal: game.deal });
    case 'ghost':
      return t('share.ghost', { name: game.ghost });
  }
}

/** The line to paste, with the replay's address on a line of its own once it may be seen. */
export function shareText(result: SharedResult): string {
  const line = t('share.line', {
    game: gameWords(result.game),
    cards: result.foundations,
    time: duration(result.elapsedMs),
    par: result.par === null ? '?' : String(result.par),
    deals: dealSymbols(result.dealEnds, result.dealsAllowed),
  });
  return result.link === null ? line : `${line}\n${result.link}`;
}

/** Cards home at the end of each deal of a game, from its own deals and actions (what its player holds). */
export function dealEndsOf(variant: VariantId, deals: readonly (readonly string[])[], actions: readonly string[]): number[] {
  const ends: number[] = [];
  let home = 0;
  const layouts: Layout[] = [];
  for (const deal of deals) {
    const layout = parseLayout(deal);
    if (!layout.ok) return [];
    layouts.push(layout.value);
  }
  const replay = replayRecord({ variant, deals: layouts, actions }, (position, _index, action) => {
    if (action.type === 'redeal') ends.push(home);
    home = position.foundationCount();
  });
  if (replay.ok) home = replay.value.foundationCount();
  ends.push(home);
  return ends;
}

/** Which game a summary is, for the line (a ghost race's line is made on its own page, with the ghost's name). */
export function sharedGameOf(summary: Pick<GameSummary, 'kind' | 'day' | 'raceCode' | 'series'>): SharedGame | null {
  if (summary.kind === 'daily' && summary.day) return { kind: 'daily', day: summary.day };
  if (summary.kind === 'race' && summary.raceCode) return { kind: 'race', code: summary.raceCode };
  if (summary.kind === 'series' && summary.series) return { kind: 'series', code: summary.series.code, deal: summary.series.deal };
  return null;
}

/** How many deals a variant allows. */
export const dealsAllowedIn = (variant: VariantId): number => VARIANTS[variant].redeals + 1;

/**
 * The line of an ended game from its summary and its record (which its player always gets),
 * with `link` (the replay's address) only once its seed is public; null for a game still played.
 * `game`: how the line names it, when the summary alone cannot (a ghost race names its ghost).
 */
export function sharedResultOf(summary: GameSummary, record: Pick<RecordJson, 'deals' | 'actions'>, link: string, par: number | null = null, game = sharedGameOf(summary)): SharedResult | null {
  if (!game || summary.result.state === 'playing') return null;
  return {
    game,
    foundations: summary.result.foundations,
    elapsedMs: summary.result.elapsedMs ?? 0,
    par,
    dealEnds: dealEndsOf(summary.variant, record.deals, record.actions),
    dealsAllowed: dealsAllowedIn(summary.variant),
    link: summary.seed === null ? null : link,
  };
}
