/**
 * FLIP animation keyed by card: measure every `[data-card]` element before the DOM changes,
 * then play each card that moved from its old place to its new one. The board does this on
 * every position change, so a move, a redeal, a resync and a replay step animate alike.
 */
export type Snapshot = Map<string, DOMRect>;

export function snapshot(root: ParentNode): Snapshot {
  const rects: Snapshot = new Map();
  for (const element of root.querySelectorAll<HTMLElement>('[data-card]')) {
    rects.set(element.dataset.card!, element.getBoundingClientRect());
  }
  return rects;
}

export const reducedMotion = (): boolean => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Plays the moves from `before` in `duration` ms (0: none). */
export function animateFrom(root: ParentNode, before: Snapshot, duration: number): void {
  if (duration <= 0) return;
  for (const element of root.querySelectorAll<HTMLElement>('[data-card]')) {
    const from = before.get(element.dataset.card!);
    if (!from) continue;
    const to = element.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const scale = to.width > 0 ? from.width / to.width : 1;
    element.classList.add('flying');
    const animation = element.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, transformOrigin: 'top left' },
        { transform: 'none', transformOrigin: 'top left' },
      ],
      { duration, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)' },
    );
    const land = (): void => element.classList.remove('flying');
    animation.addEventListener('finish', land);
    animation.addEventListener('cancel', land);
  }
}

/** Lands every running card animation at once: input aims at where cards rest, never where they fly. */
export function finishAnimations(root: Element): void {
  for (const animation of root.getAnimations({ subtree: true })) animation.finish();
}
