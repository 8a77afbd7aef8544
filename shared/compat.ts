import type { Action } from './action.js';
import type { Card } from './card.js';
import type { Position } from './position.js';

/**
 * The geometry between the engine's actions and a board: where a player picks a card (a source)
 * and where they put it (a target). A board offers only what `destinations` finds in the legal
 * actions, so legality stays the engine's job.
 */
export type Source =
  | { readonly kind: 'fan'; readonly fan: number }
  | { readonly kind: 'cell'; readonly cell: number }
  /** A covered card, playable only by the merci. */
  | { readonly kind: 'buried'; readonly card: Card };

export type Target =
  | { readonly kind: 'fan'; readonly fan: number }
  | { readonly kind: 'cell'; readonly cell: number }
  | { readonly kind: 'foundation' };

export interface Destination {
  readonly target: Target;
  readonly action: Action;
}

export const sameSource = (a: Source, b: Source): boolean =>
  a.kind === 'fan' ? b.kind === 'fan' && a.fan === b.fan : a.kind === 'cell' ? b.kind === 'cell' && a.cell === b.cell : b.kind === 'buried' && a.card === b.card;

export const sameTarget = (a: Target, b: Target): boolean =>
  a.kind === 'foundation' ? b.kind === 'foundation' : a.kind === 'fan' ? b.kind === 'fan' && a.fan === b.fan : b.kind === 'cell' && a.cell === b.cell;

/** The source an action moves a card from (none for a redeal). */
export function sourceOf(action: Action): Source | undefined {
  switch (action.type) {
    case 'fan-to-foundation':
    case 'fan-to-fan':
    case 'fan-to-cell':
      return { kind: 'fan', fan: action.from };
    case 'cell-to-fan':
    case 'cell-to-foundation':
      return { kind: 'cell', cell: action.cell };
    case 'merci':
      return { kind: 'buried', card: action.card };
    case 'redeal':
      return undefined;
  }
}

export function targetOf(action: Action): Target | undefined {
  switch (action.type) {
    case 'fan-to-foundation':
    case 'cell-to-foundation':
      return { kind: 'foundation' };
    case 'fan-to-fan':
    case 'cell-to-fan':
      return { kind: 'fan', fan: action.to };
    case 'fan-to-cell':
      return { kind: 'cell', cell: action.cell };
    case 'merci':
      return action.to === null ? { kind: 'foundation' } : { kind: 'fan', fan: action.to };
    case 'redeal':
      return undefined;
  }
}

/** The action that would move `source` to `target`, legal or not; undefined for shapes the game has no action for. */
export function actionFor(source: Source, target: Target): Action | undefined {
  switch (source.kind) {
    case 'fan':
      if (target.kind === 'foundation') return { type: 'fan-to-foundation', from: source.fan };
      if (target.kind === 'fan') return { type: 'fan-to-fan', from: source.fan, to: target.fan };
      return { type: 'fan-to-cell', from: source.fan, cell: target.cell };
    case 'cell':
      if (target.kind === 'foundation') return { type: 'cell-to-foundation', cell: source.cell };
      if (target.kind === 'fan') return { type: 'cell-to-fan', cell: source.cell, to: target.fan };
      return undefined;
    case 'buried':
      if (target.kind === 'cell') return undefined;
      return { type: 'merci', card: source.card, to: target.kind === 'fan' ? target.fan : null };
  }
}

/** The legal destinations of `source`, in the engine's order. */
export function destinations(legal: readonly Action[], source: Source): Destination[] {
  const found: Destination[] = [];
  for (const action of legal) {
    const from = sourceOf(action);
    const target = targetOf(action);
    if (from && target && sameSource(from, source)) found.push({ target, action });
  }
  return found;
}

/**
 * The destination a single click plays, when there is no real choice: the foundation whenever
 * the card can go home, otherwise the only fan, or a cell when cells are the only places left
 * (empty cells are interchangeable, so they count as one). Undefined when the player must choose.
 */
export function oneClickDestination(found: readonly Destination[]): Destination | undefined {
  const home = found.find((choice) => choice.target.kind === 'foundation');
  if (home) return home;
  const fans = found.filter((choice) => choice.target.kind === 'fan');
  const cell = found.find((choice) => choice.target.kind === 'cell');
  const choices = fans.length + (cell ? 1 : 0);
  return choices === 1 ? (fans[0] ?? cell) : undefined;
}

/** The card a source holds in `position`. */
export function cardAt(position: Position, source: Source): Card | undefined {
  switch (source.kind) {
    case 'fan':
      return position.topCard(source.fan);
    case 'cell':
      return position.cells[source.cell] ?? undefined;
    case 'buried':
      return source.card;
  }
}
