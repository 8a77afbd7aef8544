import { CARD_COUNT, makeCard, parseCard, type Card } from './card.js';
import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';
import { FAN_SIZE } from './variant.js';

/** Fans in order (fan 1 first), each listed bottom card first, top (playable) card last. */
export type Layout = readonly (readonly Card[])[];

/** Deals cards into fans of 3, bottom to top; the remainder forms a last, shorter fan. */
export function dealFans(cards: readonly Card[]): Card[][] {
  const fans: Card[][] = [];
  for (let i = 0; i < cards.length; i += FAN_SIZE) fans.push(cards.slice(i, i + FAN_SIZE));
  return fans;
}

/**
 * Reads one fan written as cards separated by single spaces, e.g. `QD 2S 8C`. An empty string
 * is an empty fan: spelled right, and left to `layoutProblem` to judge as a fan size.
 */
export function parseFan(text: string): Result<Card[], Problem> {
  if (text === '') return ok([]);
  const cards: Card[] = [];
  for (const word of text.split(' ')) {
    if (word === '') return err(problemOf('card-spacing', { text }));
    const card = parseCard(word);
    if (!card.ok) return card;
    cards.push(card.value);
  }
  return ok(cards);
}

export const makeFan = (fan: readonly Card[]): string => fan.map(makeCard).join(' ');

export function parseLayout(fans: readonly string[]): Result<Layout, Problem> {
  const layout: Card[][] = [];
  for (const [i, text] of fans.entries()) {
    const fan = parseFan(text);
    if (!fan.ok) return err(problemOf('in-fan', { fan: i + 1, problem: fan.error }));
    layout.push(fan.value);
  }
  return ok(layout);
}

export const makeLayout = (layout: Layout): string[] => layout.map(makeFan);

/**
 * Checks that a dealt layout holds exactly `expected` (each once) in fans of 3 with one shorter
 * remainder fan last. Returns the problem when it does not, or undefined.
 */
export function layoutProblem(layout: Layout, expected: readonly Card[]): Problem | undefined {
  const count = new Uint8Array(CARD_COUNT);
  for (const card of expected) count[card] = 1;
  const seen = new Uint8Array(CARD_COUNT);
  let total = 0;
  for (const fan of layout) {
    for (const card of fan) {
      if (seen[card]) return problemOf('card-twice', { card });
      if (!count[card]) return problemOf('card-not-dealt', { card });
      seen[card] = 1;
      total++;
    }
  }
  if (total !== expected.length) {
    return problemOf('cards-missing', { cards: expected.filter((card) => !seen[card]) });
  }
  // Fan by fan, so that an empty fan string is named as the fan of 0 cards it is.
  const fans = Math.ceil(expected.length / FAN_SIZE);
  for (const [i, fan] of layout.entries()) {
    if (i >= fans) {
      return problemOf('extra-fan', { fan: i + 1, size: fan.length, total: expected.length, fans });
    }
    const size = Math.min(FAN_SIZE, expected.length - i * FAN_SIZE);
    if (fan.length !== size) {
      return problemOf('fan-size', { fan: i + 1, size: fan.length, expected: size });
    }
  }
  return undefined;
}
