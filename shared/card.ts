import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';

/** Suits in canonical order: clubs, diamonds, hearts, spades. */
export const SUITS = ['C', 'D', 'H', 'S'] as const;
/** Ranks from Ace (low) to King; ranks do not wrap. */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export type Suit = (typeof SUITS)[number];
export type Rank = (typeof RANKS)[number];

/**
 * A card is a number 0..51: suit index * 13 + rank index. Numeric order is the canonical order
 * (C, D, H, S, then A..K), the order in which gathered cards are shuffled.
 */
export type Card = number;

export const CARD_COUNT = 52;
export const KING = 12;
export const suitOf = (card: Card): number => (card / 13) | 0;
/** 0 for an Ace up to 12 for a King. */
export const rankOf = (card: Card): number => card % 13;
export const cardOf = (suit: number, rank: number): Card => suit * 13 + rank;
export const isRed = (card: Card): boolean => suitOf(card) === 1 || suitOf(card) === 2;

/** The 52 cards in canonical order. */
export const DECK: readonly Card[] = Array.from({ length: CARD_COUNT }, (_, card) => card);

const SUIT_SYMBOLS: Record<string, number> = { '♣': 0, '♦': 1, '♥': 2, '♠': 3 };
const LENIENT_CARD = /^(10|[2-9atjqk])([cdhs♣♦♥♠])$/i;

/** Reads a card leniently: `TC`, `10c`, `10♣` and `tc` are all the ten of clubs. */
export function parseCard(text: string): Result<Card, Problem> {
  const match = LENIENT_CARD.exec(text);
  if (!match) return err(problemOf('not-a-card', { text }));
  const rankText = match[1]!.toUpperCase();
  const suitText = match[2]!;
  const rank = RANKS.indexOf((rankText === '10' ? 'T' : rankText) as Rank);
  const suit = SUIT_SYMBOLS[suitText] ?? SUITS.indexOf(suitText.toUpperCase() as Suit);
  return ok(cardOf(suit, rank));
}

/** Writes the canonical two-character form, e.g. `TC`, `QD`. */
export const makeCard = (card: Card): string => RANKS[rankOf(card)]! + SUITS[suitOf(card)]!;

const SYMBOLS = ['♣', '♦', '♥', '♠'] as const;
/** For people: `10♣`, `Q♦`. */
export const cardLabel = (card: Card): string => {
  const rank = RANKS[rankOf(card)]!;
  return (rank === 'T' ? '10' : rank) + SYMBOLS[suitOf(card)]!;
};

const SUIT_NAMES = ['clubs', 'diamonds', 'hearts', 'spades'] as const;
const RANK_NAMES = ['Ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'Jack', 'Queen', 'King'] as const;
/** Accessible name, e.g. `Queen of diamonds`. */
export const cardName = (card: Card): string => `${RANK_NAMES[rankOf(card)]} of ${SUIT_NAMES[suitOf(card)]}`;
export const suitName = (suit: number): string => SUIT_NAMES[suit]!;
