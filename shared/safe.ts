import type { Action } from './action.js';
import { KING, rankOf, type Card } from './card.js';
import { cardAt, sourceOf } from './compat.js';
import type { Position } from './position.js';

/**
 * Whether sending `card` home can never cost the player anything, so a board may play it by
 * itself. Cards never leave the foundations, so a card is safe when no card still in play
 * could ever want to be built on it:
 * - building down in suit (strict and most variants): only the next lower card of its suit
 *   builds on it, and that card is already home whenever this one may go: every card is safe;
 * - building down in any suit (shamrocks): any card one rank lower builds on it, so it is safe
 *   only once all four foundations hold every card below its rank (Aces are always safe);
 * - building up or down in suit (super flower garden): the next higher card of its suit could
 *   also rest on it, and that card is never home yet, so only Kings are safe.
 */
export function isSafeHome(position: Position, card: Card): boolean {
  switch (position.rules.build) {
    case 'same-suit-down':
      return true;
    case 'any-suit-down':
      return position.foundations.every((height) => height >= rankOf(card));
    case 'same-suit-up-or-down':
      return rankOf(card) === KING;
  }
}

/** The first legal move that sends a safe card home (never a merci, which is the player's one choice). */
export function safeHomeAction(position: Position, legal: readonly Action[]): Action | undefined {
  return legal.find((action) => {
    if (action.type !== 'fan-to-foundation' && action.type !== 'cell-to-foundation') return false;
    const card = cardAt(position, sourceOf(action)!);
    return card !== undefined && isSafeHome(position, card);
  });
}
