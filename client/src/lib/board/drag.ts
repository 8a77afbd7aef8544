import { finishAnimations } from './animation.js';

/** What a drag asks of the board. */
export interface DragHooks {
  /** The element a press on `target` would drag (a card that may be picked), if any. */
  grab(target: Element): HTMLElement | undefined;
  /** The pointer moved far enough: the grabbed card is being dragged. */
  lift(element: HTMLElement): void;
  /** Dropped over `under` (the drop target below the pointer, if any); returns whether a move was played. */
  drop(element: HTMLElement, under: HTMLElement | undefined): Promise<boolean> | boolean;
  /** The drag ended without a drop (pointer cancelled). */
  abort(): void;
}

/** Pixels a press must travel before it is a drag rather than a click. */
const THRESHOLD = 6;

/**
 * Drag and drop with pointer events (mouse, pen and touch alike). A press first finishes every
 * running animation, so the cards sit where they are going and what the player aims at stays
 * put; the dragged card follows the pointer lifted above the others, and the drop target is
 * found under the pointer, ignoring the card itself.
 */
export class Drag {
  private current: { element: HTMLElement; pointerId: number; x: number; y: number; moved: boolean } | null = null;
  /** The click that follows a drag's pointerup must not count as a click. */
  private justDropped = false;

  constructor(
    private readonly root: () => HTMLElement,
    private readonly hooks: DragHooks,
  ) {}

  get active(): boolean {
    return this.current?.moved ?? false;
  }

  get swallowsClick(): boolean {
    return this.justDropped;
  }

  /** A press: `event.target` is what the player saw under the pointer, even on a card in flight. */
  down(event: PointerEvent): void {
    if (event.button !== 0 || this.current) return;
    const element = this.hooks.grab(event.target as Element);
    finishAnimations(this.root());
    if (!element) return;
    this.current = { element, pointerId: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
    element.setPointerCapture?.(event.pointerId);
  }

  move(event: PointerEvent): void {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      drag.moved = true;
      drag.element.classList.add('dragging');
      this.hooks.lift(drag.element);
    }
    // Lifted: a little larger and tilted, its shadow deeper (`.dragging` in app.css).
    drag.element.style.transform = `translate(${dx}px, ${dy}px) scale(1.06) rotate(-2deg)`;
  }

  async up(event: PointerEvent): Promise<void> {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.current = null;
    if (!drag.moved) return; // a click: the click handler takes it
    this.justDropped = true;
    setTimeout(() => (this.justDropped = false));
    // Whatever started to move during the drag lands first, so the drop hits what is shown at rest.
    finishAnimations(this.root());
    const under = document
      .elementsFromPoint(event.clientX, event.clientY)
      .find((element) => !drag.element.contains(element))
      ?.closest<HTMLElement>('[data-target]');
    const played = await this.hooks.drop(drag.element, under ?? undefined);
    // A played card is redrawn in its new place and animates from where it was dropped; otherwise it flies back.
    if (!played || drag.element.isConnected) settle(drag.element);
  }

  cancel(event: PointerEvent): void {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return;
    this.current = null;
    settle(drag.element);
    this.hooks.abort();
  }
}

/** Brings a dragged card back to its place, above the other fans on its way. */
function settle(element: HTMLElement): void {
  const from = element.style.transform;
  element.style.transform = '';
  element.classList.remove('dragging');
  if (!from) return;
  element.classList.add('flying');
  const animation = element.animate([{ transform: from }, { transform: 'none' }], { duration: 180, easing: 'ease-out' });
  const land = (): void => element.classList.remove('flying');
  animation.addEventListener('finish', land);
  animation.addEventListener('cancel', land);
}
