import { KING, type Card } from '../shared/card.js';

// Rank and suit by table: the search asks them millions of times.
const RANK = Uint8Array.from({ length: 52 }, (_, card) => card % 13);
const SUIT = Uint8Array.from({ length: 52 }, (_, card) => (card / 13) | 0);
export const rankOf = (card: Card): number => RANK[card]!;
export const suitOf = (card: Card): number => SUIT[card]!;
/** The King's rank as a plain number, for the hot paths. */
export const KING_RANK: number = KING;
