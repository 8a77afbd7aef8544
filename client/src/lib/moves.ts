import { cardLabel, cardName, makeAction, parseCard, suitName, suitOf, type Action, type Card, type Position } from './engine.js';

/**
 * What the board lets a player pick and where it lets them put it. The board never decides
 * legality: destinations come from the engine's legal actions, and every refused attempt is
 * explained by `position.problem`.
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

/** `f3`, `c1`, `b40`: a source as a string, for DOM attributes and sets. */
export const sourceKey = (source: Source): string =>
  source.kind === 'fan' ? `f${source.fan}` : source.kind === 'cell' ? `c${source.cell}` : `b${source.card}`;

export function parseSourceKey(key: string): Source | undefined {
  const match = /^([fcb])(\d+)$/.exec(key);
  if (!match) return undefined;
  const index = Number(match[2]);
  return match[1] === 'f' ? { kind: 'fan', fan: index } : match[1] === 'c' ? { kind: 'cell', cell: index } : { kind: 'buried', card: index };
}

/** `F`, `f3`, `c1`: a target as a string, for DOM attributes and comparisons. */
export const targetKey = (target: Target): string =>
  target.kind === 'foundation' ? 'F' : target.kind === 'fan' ? `f${target.fan}` : `c${target.cell}`;

export function parseTargetKey(key: string): Target | undefined {
  if (key === 'F') return { kind: 'foundation' };
  const match = /^([fc])(\d+)$/.exec(key);
  if (!match) return undefined;
  const index = Number(match[2]);
  return match[1] === 'f' ? { kind: 'fan', fan: index } : { kind: 'cell', cell: index };
}

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
  const key = sourceKey(source);
  const found: Destination[] = [];
  for (const action of legal) {
    const from = sourceOf(action);
    const target = targetOf(action);
    if (from && target && sourceKey(from) === key) found.push({ target, action });
  }
  return found;
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

/** Engine reasons name cards as `8C`; people read `8♣`. */
export const humanize = (reason: string): string =>
  reason.replace(/\b(?:[2-9TJQKA])[CDHS]\b/g, (code) => {
    const card = parseCard(code);
    return card.ok ? cardLabel(card.value) : code;
  });

export function targetName(target: Target): string {
  switch (target.kind) {
    case 'foundation':
      return 'its foundation';
    case 'fan':
      return `fan ${target.fan + 1}`;
    case 'cell':
      return `cell ${target.cell + 1}`;
  }
}

/** Why moving `source` to `target` is refused, in the engine's words. */
export function attemptProblem(position: Position, source: Source, target: Target): string {
  const action = actionFor(source, target);
  if (!action) return source.kind === 'cell' ? 'a card in a cell can only go to its foundation or onto a fan' : 'a covered card cannot go to a cell';
  return humanize(position.problem(action) ?? `${makeAction(action)} is not available right now`);
}

/** Why a picked source has nowhere to go: the engine's reason for its foundation, and the fact that no fan takes it. */
export function stuckReason(position: Position, source: Source): string {
  const card = cardAt(position, source);
  if (card === undefined) return source.kind === 'cell' ? `cell ${source.cell + 1} is empty` : 'there is no card there';
  const label = cardLabel(card);
  if (source.kind === 'buried') {
    const covered = `${label} is covered: only the top card of a fan can be played`;
    if (!position.rules.merci) return covered;
    return `${covered} (merci: ${humanize(position.problem({ type: 'merci', card, to: null }) ?? 'it has nowhere to go')})`;
  }
  const toFoundation = position.problem(actionFor(source, { kind: 'foundation' })!);
  const foundation = toFoundation ? humanize(toFoundation) : `${label} cannot go to the foundation`;
  return `No move for ${label}: ${foundation}, and no fan takes it`;
}

/** A short sentence for screen readers and the move log: "8♣ to fan 5". */
export function describeAction(position: Position, action: Action): string {
  if (action.type === 'redeal') return `Redeal ${position.redealsUsed + 1}`;
  const source = sourceOf(action)!;
  const card = cardAt(position, source);
  const target = targetOf(action)!;
  const what = card === undefined ? makeAction(action) : cardName(card);
  const where = target.kind === 'foundation' && card !== undefined ? `the ${suitName(suitOf(card))} foundation` : targetName(target);
  return `${action.type === 'merci' ? 'Merci: ' : ''}${what} to ${where}`;
}
