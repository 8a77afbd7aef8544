import { tick } from 'svelte';
import type { Card, Position } from '../engine.js';
import type { BoardController } from './controller.svelte.js';
import { Drag } from './drag.js';
import { boardKey, columnsOf, fanKey, type KeyCommand } from './keyboard.js';
import { fanStep, type Geometry } from './layout.js';
import { parsePlace, placeKey, sourceAt, targetAt, type Place, type PlaceKey } from './places.js';

/** The smallest pointer target, px: a covered card showing a narrower strip is picked through the merci picker. */
const MIN_TARGET = 24;

/** What the board's input reads from the view. */
export interface BoardView {
  root(): HTMLElement;
  position(): Position;
  /** Whether the player may pick anything (not a spectator's or a replay's board). */
  interactive(): boolean;
  /** The places holding a card some legal action moves. */
  movable(): ReadonlySet<PlaceKey>;
  /** Whether the merci is legal now. */
  merciNow(): boolean;
  geometry(): Geometry;
}

const placeOf = (element: Element | null): Place | undefined => parsePlace(element?.closest<HTMLElement>('[data-key]')?.dataset.key);
const placeAt = (element: Element): Place | undefined => placeOf(element) ?? parsePlace(element.closest<HTMLElement>('[data-target]')?.dataset.target);

/**
 * The board's DOM input, like chessground's events: pointer presses, clicks, double-clicks,
 * drags and keys turned into places for the controller, the fans' roving focus, and the merci
 * picker (the covered cards of one fan shown side by side, each a large target, when the fan
 * overlaps them too tightly to hit or when the fan itself is clicked).
 */
export class BoardEvents {
  /** The fan holding the fans' single tab stop (roving tabindex). */
  focusFan = $state(0);
  /** The fan whose covered cards the merci picker shows, if open. */
  merciFan = $state<number | null>(null);
  /** The place under the last press, read before running animations land: what the player aimed at. */
  private pressed: Place | undefined;
  /** The focused place before the table changed (`rememberFocus`). */
  private focusKey: string | undefined;
  readonly drag: Drag;

  constructor(
    private readonly view: BoardView,
    private readonly board: BoardController,
  ) {
    this.drag = new Drag(view.root, {
      grab: (target) => {
        if (!view.interactive()) return undefined;
        const element = target.closest<HTMLElement>('[data-key]');
        const place = parsePlace(element?.dataset.key);
        return element && place && sourceAt(view.position(), place) && element.matches('button') ? element : undefined;
      },
      lift: (element) => {
        board.selected = sourceAt(view.position(), parsePlace(element.dataset.key)!) ?? null;
      },
      drop: async (element, under) => {
        const position = view.position();
        const source = sourceAt(position, parsePlace(element.dataset.key)!);
        const place = parsePlace(under?.dataset.target);
        const target = place && targetAt(position, place);
        // Dropped where it came from: nothing was attempted.
        const home = !target || (source?.kind === 'fan' && target.kind === 'fan' && target.fan === source.fan) || (source?.kind === 'cell' && target.kind === 'cell' && target.cell === source.cell);
        if (!source || home) {
          board.reset();
          return false;
        }
        if (!board.attempt(source, target)) return false;
        // The dragged element stays where it was dropped so the move animates from there.
        await tick();
        return true;
      },
      abort: () => board.reset(),
    });
  }

  /** The covered cards of `fan` the merci may pick. */
  pickable(fan: number): Card[] {
    const movable = this.view.movable();
    return (this.view.position().fans[fan] ?? []).filter((card) => movable.has(placeKey({ kind: 'card', card })));
  }

  private narrow(fan: number): boolean {
    return fanStep(this.view.geometry(), this.view.position().fans[fan]?.length ?? 0) < MIN_TARGET;
  }

  /** Whether a click on `place` in `fan` opens the picker rather than picking a card. */
  private opensPicker(place: Place, fan: number | undefined): fan is number {
    if (!this.view.merciNow() || this.board.selected || fan === undefined || this.pickable(fan).length === 0) return false;
    return !(place.kind === 'card' && this.view.movable().has(placeKey(place)) && !this.narrow(fan));
  }

  private async openPicker(fan: number): Promise<void> {
    this.merciFan = fan;
    await tick();
    this.view.root().querySelector<HTMLElement>('.picker button.card')?.focus();
  }

  closePicker(): void {
    if (this.merciFan === null) return;
    const fan = this.merciFan;
    this.merciFan = null;
    if (this.view.root().contains(document.activeElement) || document.activeElement === document.body) this.focusPlace(`fan-${fan}`);
  }

  pickFromPicker(card: Card): void {
    this.merciFan = null;
    this.board.activate({ kind: 'card', card });
  }

  pointerDown(event: PointerEvent): void {
    if (!this.view.interactive()) return;
    this.pressed = placeAt(event.target as Element);
    this.drag.down(event);
  }

  click(event: MouseEvent): void {
    const aimed = event.detail > 0 ? this.pressed : undefined;
    this.pressed = undefined;
    // The second click of a double-click must not play the card that the first one uncovered.
    if (!this.view.interactive() || this.drag.swallowsClick || event.detail > 1) return;
    const place = aimed ?? placeAt(event.target as Element);
    const fan = parsePlace((event.target as Element).closest<HTMLElement>('.fan')?.dataset.target);
    if (this.merciFan !== null) return this.closePicker(); // a click beside the picker closes it
    if (place && this.opensPicker(place, fan?.kind === 'fan' ? fan.fan : undefined)) return void this.openPicker((fan as { fan: number }).fan);
    if (place) this.board.activate(place);
  }

  doubleClick(event: MouseEvent): void {
    const place = this.view.interactive() ? placeOf(event.target as Element) : undefined;
    if (place && sourceAt(this.view.position(), place)) this.board.home(place);
  }

  private focusPlace(target: string): void {
    this.view.root().querySelector<HTMLElement>(`[data-focus="${target}"]`)?.focus();
  }

  private run(command: KeyCommand, place: Place | undefined): void {
    if (command.kind === 'cancel') this.board.cancel();
    else if (!place) return;
    else if (command.kind === 'choose') this.board.activate(place, true);
    else if (command.kind === 'home') this.board.home(place);
  }

  async fansKeydown(event: KeyboardEvent): Promise<void> {
    const fan = parsePlace((event.target as HTMLElement).dataset.focus);
    if (fan?.kind !== 'fan') return;
    const root = this.view.root();
    const command = fanKey(event, fan.fan, this.view.position().fans.length, columnsOf([...root.querySelectorAll<HTMLElement>('.fan')]));
    if (!command) return;
    event.preventDefault();
    event.stopPropagation();
    if (command.kind !== 'focus-fan') return this.run(command, placeOf(event.target as Element));
    this.focusFan = command.fan;
    await tick();
    this.focusPlace(`fan-${this.focusFan}`);
  }

  keydown(event: KeyboardEvent): void {
    if (this.merciFan !== null && event.key === 'Escape') {
      event.preventDefault();
      return this.closePicker();
    }
    const command = boardKey(event);
    if (!command || (command.kind === 'cancel' && !this.board.selected)) return;
    event.preventDefault();
    this.run(command, placeOf(event.target as Element));
  }

  /** Before the table changes: the picker closes and the focused place is noted. */
  rememberFocus(): void {
    this.merciFan = null;
    const root = this.view.root() as HTMLElement | undefined;
    if (!root) return; // not drawn yet
    const active = document.activeElement as HTMLElement | null;
    this.focusKey = active && root.contains(active) ? active.dataset.focus : undefined;
  }

  /** After it changed: the focused card may have left its fan, so the focus goes back to the same place. */
  restoreFocus(): void {
    const root = this.view.root();
    if (this.focusKey && !root.contains(document.activeElement)) {
      this.focusPlace(this.focusKey);
      if (!root.contains(document.activeElement)) this.focusPlace(`fan-${this.focusFan}`);
    }
    this.focusKey = undefined;
  }
}
