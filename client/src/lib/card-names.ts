import { RANKS, rankOf, SUITS, suitOf, type Card } from './engine.js';
import { t } from './i18n.svelte.js';

/**
 * A card as a screen reader says it, in the player's language: `Queen of diamonds`, `Dame de
 * carreau` (apart from format.ts, which every page loads, so that only pages with cards load the engine).
 */
export const cardSpoken = (card: Card): string => t('card.name', { rank: RANKS[rankOf(card)]!, suit: SUITS[suitOf(card)]! });
