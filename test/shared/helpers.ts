// Helpers for the engine tests: hand-made layouts, and playing actions by their record notation.
import {
  CARD_COUNT,
  Position,
  applyAction,
  cardOf,
  makeAction,
  makeCard,
  makeLayout,
  parseAction,
  parseCard,
  parseLayout,
  problemText,
  type Card,
  type Layout,
  type Problem,
  type VariantId,
} from '../../shared/index.js';

/**
 * A 52-card layout with no legal move in any variant but a redeal: the top cards are the Kings,
 * Jacks, 9s, 7s and 5C 5D (ranks two apart, so nothing builds), and no Ace is on top.
 * Scenarios start from it and `swap` the cards they need into place.
 */
export const DEAD: readonly string[] = [
  'AC AD KC', 'AH AS KD', '2C 2D KH', '2H 2S KS', '3C 3D JC', '3H 3S JD', '4C 4D JH', '4H 4S JS',
  '6C 6D 9C', '6H 6S 9D', '8C 8D 9H', '8H 8S 9S', 'TC TD 7C', 'TH TS 7D', 'QC QD 7H', 'QH QS 7S',
  '5H 5S 5C', '5D',
];

/** The same idea for trefoil's 48 cards (the Aces start on the foundations): no 2 on top. */
export const DEAD_TREFOIL: readonly string[] = [
  '2C 2D KC', '2H 2S KD', '3C 3D KH', '3H 3S KS', '4C 4D JC', '4H 4S JD', '5C 5D JH', '5H 5S JS',
  '6C 6D 9C', '6H 6S 9D', '8C 8D 9H', '8H 8S 9S', 'TC TD 7C', 'TH TS 7D', 'QC QD 7H', 'QH QS 7S',
];

export const deadFor = (variant: VariantId): readonly string[] => (variant === 'trefoil' ? DEAD_TREFOIL : DEAD);

/** Every card reaches its foundation in order: fan 1 is `3C 2C AC` (AC on top), fan 2 `6C 5C 4C`... */
export const WINNABLE: readonly string[] = Array.from({ length: 18 }, (_, fan) =>
  Array.from({ length: Math.min(3, CARD_COUNT - fan * 3) }, (_, i) => makeCard(fan * 3 + i))
    .reverse()
    .join(' '),
);
/** The 52 actions that win WINNABLE: three `n>F` per fan, then `18>F`. */
export const WINNING_ACTIONS: readonly string[] = WINNABLE.flatMap((fan, i) => fan.split(' ').map(() => `${i + 1}>F`));

/** A card by its two-character name (`8C`), for the problems tests expect. */
export function cardNamed(text: string): Card {
  const parsed = parseCard(text);
  if (!parsed.ok) throw new Error(problemText(parsed.error));
  return parsed.value;
}

export function layout(fans: readonly string[]): Layout {
  const parsed = parseLayout(fans);
  if (!parsed.ok) throw new Error(problemText(parsed.error));
  return parsed.value;
}

/** `fans` with each named pair of cards exchanged, in order. */
export function swap(fans: readonly string[], ...pairs: readonly (readonly [string, string])[]): string[] {
  let result = fans.map((fan) => fan.split(' '));
  for (const [a, b] of pairs) {
    const found = (card: string) => {
      const fan = result.findIndex((cards) => cards.includes(card));
      if (fan < 0) throw new Error(`${card} is not in the layout`);
      return [fan, result[fan]!.indexOf(card)] as const;
    };
    const [fanA, iA] = found(a);
    const [fanB, iB] = found(b);
    result = result.map((cards) => [...cards]);
    result[fanA]![iA] = b;
    result[fanB]![iB] = a;
  }
  return result.map((cards) => cards.join(' '));
}

export function start(variant: VariantId, fans: readonly string[]): Position {
  const position = Position.start(variant, layout(fans));
  if (!position.ok) throw new Error(problemText(position.error));
  return position.value;
}

/** Plays actions written in record notation (a redeal takes the next of `layouts`); throws on an illegal one. */
export function play(position: Position, actions: readonly string[], layouts: readonly (readonly string[])[] = []): Position {
  let current = position;
  let nextLayout = 0;
  for (const text of actions) {
    const action = parseAction(text);
    if (!action.ok) throw new Error(problemText(action.error));
    const next = applyAction(current, action.value, action.value.type === 'redeal' ? layout(layouts[nextLayout++]!) : undefined);
    if (!next.ok) throw new Error(`${text}: ${problemText(next.error)}`);
    current = next.value;
  }
  return current;
}

/** Why the action written `text` is illegal here (undefined when legal); a redeal is checked against `next`. */
export function why(position: Position, text: string, next?: readonly string[]): Problem | undefined {
  const action = parseAction(text);
  if (!action.ok) throw new Error(problemText(action.error));
  return position.problem(action.value, next && layout(next));
}

export const fansOf = (position: Position): string[] => makeLayout(position.fans);
export const legal = (position: Position): string[] => position.legalActions().map(makeAction);

/** The fans that differ between two positions of one deal, numbered from 1, with their new contents. */
export function changedFans(before: Position, after: Position): Record<number, string> {
  const changed: Record<number, string> = {};
  const old = fansOf(before);
  fansOf(after).forEach((fan, i) => {
    if (fan !== old[i]) changed[i + 1] = fan;
  });
  return changed;
}

/** How many times each card is held by the position: fans, cells and foundations together. */
export function census(position: Position): number[] {
  const count = new Array<number>(CARD_COUNT).fill(0);
  for (const fan of position.fans) for (const card of fan) count[card]!++;
  for (const card of position.cells) if (card !== null) count[card]!++;
  position.foundations.forEach((height, suit) => {
    for (let rank = 0; rank < height; rank++) count[cardOf(suit, rank)]!++;
  });
  return count;
}

/** Everything that tells two positions apart. */
export const snapshot = (position: Position) => ({
  variant: position.variant,
  fans: position.fans.map((fan) => [...fan]),
  foundations: [...position.foundations],
  cells: [...position.cells],
  status: position.status(),
});
