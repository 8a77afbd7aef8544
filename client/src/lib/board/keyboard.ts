/**
 * Keyboard play: the fans are one tab stop (roving tabindex); the arrows walk between fans in
 * the grid as it is drawn, Home/End jump to the first/last fan. Enter or Space activates the
 * focused place, Shift+Enter picks a card to choose its destination, H sends it home, Escape
 * cancels a pick.
 */
export type KeyCommand = { readonly kind: 'focus-fan'; readonly fan: number } | { readonly kind: 'choose' } | { readonly kind: 'home' } | { readonly kind: 'cancel' };

/** The command for a key on a fan, given the fan grid (`columns` fans a row, `count` fans). */
export function fanKey(event: Pick<KeyboardEvent, 'key' | 'shiftKey'>, fan: number, count: number, columns: number): KeyCommand | undefined {
  const walk: Record<string, number> = {
    ArrowLeft: fan - 1,
    ArrowRight: fan + 1,
    ArrowUp: fan - columns,
    ArrowDown: fan + columns,
    Home: 0,
    End: count - 1,
  };
  const next = walk[event.key];
  if (next !== undefined) return { kind: 'focus-fan', fan: Math.min(count - 1, Math.max(0, next)) };
  return boardKey(event);
}

/** The command for a key anywhere on the board. */
export function boardKey(event: Pick<KeyboardEvent, 'key' | 'shiftKey'>): KeyCommand | undefined {
  // Plain Enter and Space are the focused button's own click.
  if ((event.key === 'Enter' || event.key === ' ') && event.shiftKey) return { kind: 'choose' };
  if (event.key === 'h' || event.key === 'H') return { kind: 'home' };
  if (event.key === 'Escape') return { kind: 'cancel' };
  return undefined;
}

/** Fans in the first row of the drawn grid. */
export function columnsOf(fans: readonly HTMLElement[]): number {
  const top = fans[0]?.offsetTop;
  return Math.max(1, fans.filter((fan) => fan.offsetTop === top).length);
}
