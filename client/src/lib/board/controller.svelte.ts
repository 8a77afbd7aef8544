import { destinations, oneClickDestination, sameSource, sameTarget, type Action, type Destination, type Position, type Source, type Target } from '../engine.js';
import { sentence } from '../format.js';
import { t } from '../i18n.svelte.js';
import { attemptProblem, describeAction, stuckReason, targetList } from '../moves.js';
import { sourceAt, targetAt, type Place } from './places.js';

/** What the controller reads from the view: the position shown, the legal actions offered, and where a chosen action goes. */
export interface BoardInput {
  position(): Position;
  legal(): readonly Action[];
  play(action: Action): void;
  /** An attempt was refused (for a sound). */
  refused(): void;
}

/**
 * The board's selection state machine. Idle: activating a card plays its one sensible
 * destination (`oneClickDestination`) or selects it when the player must choose. Selected:
 * activating a destination attempts the move, the source again cancels. A redeal while other
 * moves remain is armed by a first press and played by a second. It never decides legality:
 * every refusal is the engine's reason, shown in `message`.
 */
export class BoardController {
  selected = $state<Source | null>(null);
  message = $state('');
  problem = $state(false);
  redealArmed = $state(false);

  constructor(private readonly input: BoardInput) {}

  /** Where the picked card may go. */
  get choices(): Destination[] {
    return this.selected ? destinations(this.input.legal(), this.selected) : [];
  }

  isTarget(target: Target): boolean {
    return this.choices.some((choice) => sameTarget(choice.target, target));
  }

  /** A new position on the table: whatever was picked is gone. */
  reset(): void {
    this.selected = null;
    this.redealArmed = false;
  }

  private say(text: string, problem = false): void {
    this.message = text;
    this.problem = problem;
    if (problem) this.input.refused();
  }

  play(action: Action): void {
    this.say(describeAction(this.input.position(), action));
    this.reset();
    this.input.play(action);
  }

  /** Picks a card: its one sensible destination plays at once; otherwise (or when `choose`) the destinations light up. */
  pick(source: Source, choose = false): void {
    const found = destinations(this.input.legal(), source);
    const only = oneClickDestination(found);
    if (found.length === 0) {
      this.selected = null;
      this.say(stuckReason(this.input.position(), source), true);
    } else if (only && !choose) {
      this.play(only.action);
    } else {
      this.selected = source;
      this.say(t('board.choose', { targets: targetList(found.map((choice) => choice.target)) }));
    }
  }

  /** Tries to move `source` to `target`; returns whether it was legal and played. */
  attempt(source: Source, target: Target): boolean {
    const found = destinations(this.input.legal(), source).find((choice) => sameTarget(choice.target, target));
    if (found) {
      this.play(found.action);
      return true;
    }
    this.selected = null;
    this.say(attemptProblem(this.input.position(), source, target), true);
    return false;
  }

  /** A click, tap or Enter on a place. */
  activate(place: Place, choose = false): void {
    const position = this.input.position();
    const source = sourceAt(position, place);
    if (this.selected) {
      if (source && sameSource(source, this.selected)) return this.cancel();
      const target = targetAt(position, place);
      if (target) this.attempt(this.selected, target);
      return;
    }
    if (source) return this.pick(source, choose);
    if (place.kind === 'foundation') this.say(t('board.pick-first'));
    else if (place.kind === 'fan') this.say(sentence(t('problem.fan-empty', { fan: place.fan + 1 })), true);
    else if (place.kind === 'cell') this.say(sentence(t('problem.cell-empty', { cell: place.cell + 1 })), true);
  }

  /** Sends the card at `place` to its foundation (double-click, or the H key). */
  home(place: Place): void {
    const source = this.selected ?? sourceAt(this.input.position(), place);
    if (source) this.attempt(source, { kind: 'foundation' });
  }

  cancel(): void {
    if (!this.selected) return;
    this.selected = null;
    this.say(t('board.cancelled'));
  }

  redeal(): void {
    const others = this.input.legal().some((action) => action.type !== 'redeal');
    if (others && !this.redealArmed) {
      this.redealArmed = true;
      this.say(t('board.redeal-armed'));
      return;
    }
    this.play({ type: 'redeal' });
  }
}
