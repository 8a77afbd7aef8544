import type { Card, Position, Source, Target } from '../engine.js';

/**
 * Every place on the board as one typed value, and one string key for it in the DOM
 * (`data-key`, `data-target`): a fan, a reserve cell, a suit's foundation, or a card.
 * A card key names the card wherever it lies; `sourceAt` / `targetAt` read it back
 * against the position as the engine's source and target.
 */
export type Place =
  | { readonly kind: 'fan'; readonly fan: number }
  | { readonly kind: 'cell'; readonly cell: number }
  | { readonly kind: 'foundation'; readonly suit: number }
  | { readonly kind: 'card'; readonly card: Card };

export type PlaceKind = Place['kind'];
export type PlaceKey = `${PlaceKind}-${number}`;

const KINDS: readonly PlaceKind[] = ['fan', 'cell', 'foundation', 'card'];

export function placeKey(place: Place): PlaceKey {
  switch (place.kind) {
    case 'fan':
      return `fan-${place.fan}`;
    case 'cell':
      return `cell-${place.cell}`;
    case 'foundation':
      return `foundation-${place.suit}`;
    case 'card':
      return `card-${place.card}`;
  }
}

export function parsePlace(key: string | undefined): Place | undefined {
  const match = key === undefined ? null : /^([a-z]+)-(\d+)$/.exec(key);
  if (!match || !KINDS.includes(match[1] as PlaceKind)) return undefined;
  const index = Number(match[2]);
  switch (match[1] as PlaceKind) {
    case 'fan':
      return { kind: 'fan', fan: index };
    case 'cell':
      return { kind: 'cell', cell: index };
    case 'foundation':
      return { kind: 'foundation', suit: index };
    case 'card':
      return { kind: 'card', card: index };
  }
}

/** The place that shows a source: a fan's top card or a covered card by its card, a cell by its cell. */
export function sourcePlace(position: Position, source: Source): Place | undefined {
  if (source.kind === 'cell') return source;
  if (source.kind === 'buried') return { kind: 'card', card: source.card };
  const card = position.topCard(source.fan);
  return card === undefined ? undefined : { kind: 'card', card };
}

const fanOf = (position: Position, card: Card): number => position.fans.findIndex((cards) => cards.includes(card));

/** What picking `place` picks: a fan's top card, a filled cell, or a covered card. */
export function sourceAt(position: Position, place: Place): Source | undefined {
  switch (place.kind) {
    case 'fan':
      return position.fans[place.fan]?.length ? { kind: 'fan', fan: place.fan } : undefined;
    case 'cell':
      return position.cells[place.cell] != null ? place : undefined;
    case 'foundation':
      return undefined;
    case 'card': {
      const fan = fanOf(position, place.card);
      if (fan >= 0) return position.topCard(fan) === place.card ? { kind: 'fan', fan } : { kind: 'buried', card: place.card };
      const cell = position.cells.indexOf(place.card);
      return cell >= 0 ? { kind: 'cell', cell } : undefined;
    }
  }
}

/** Where dropping on `place` puts a card: a card stands for the fan or cell it lies in. */
export function targetAt(position: Position, place: Place): Target | undefined {
  switch (place.kind) {
    case 'fan':
    case 'cell':
      return place;
    case 'foundation':
      return { kind: 'foundation' };
    case 'card': {
      const fan = fanOf(position, place.card);
      if (fan >= 0) return { kind: 'fan', fan };
      const cell = position.cells.indexOf(place.card);
      return cell >= 0 ? { kind: 'cell', cell } : undefined;
    }
  }
}
