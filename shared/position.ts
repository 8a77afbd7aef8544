import { makeAction, type Action } from './action.js';
import { CARD_COUNT, KING, cardOf, rankOf, suitOf, type Card } from './card.js';
import { startingCards } from './deal.js';
import { layoutProblem, type Layout } from './layout.js';
import { problemOf, type Problem } from './problem.js';
import { err, ok, type Result } from './result.js';
import { VARIANTS, type BuildRule, type Rules, type VariantId } from './variant.js';

export interface Status {
  /** Cards on the foundations, 0-52. */
  readonly foundations: number;
  readonly won: boolean;
  /** Won, or no legal action left (no move, no redeal, no merci). */
  readonly over: boolean;
  readonly redealsUsed: number;
  readonly redealsLeft: number;
  readonly merciUsed: boolean;
}

function builds(rule: BuildRule, card: Card, target: Card): boolean {
  switch (rule) {
    case 'same-suit-down':
      return target === card + 1 && rankOf(card) !== KING;
    case 'any-suit-down':
      return rankOf(target) === rankOf(card) + 1;
    case 'same-suit-up-or-down':
      return suitOf(card) === suitOf(target) && Math.abs(rankOf(target) - rankOf(card)) === 1;
  }
}

/**
 * A position of La Belle Lucie. Like a chess position in chessops it is a mutable value with
 * `clone`; `play` trusts its action, so ask `problem` first (or use the pure `applyAction`).
 */
export class Position {
  private constructor(
    readonly rules: Rules,
    /** Fans bottom card first; an emptied fan stays in place so numbers never shift. */
    readonly fans: Card[][],
    /** Cards on each suit's foundation (0-13), in suit order C D H S. */
    readonly foundations: number[],
    /** Reserve cells (fan-reserve only): a card, or null when empty. */
    readonly cells: (Card | null)[],
    private redeals: number,
    private merci: boolean,
  ) {}

  /** The starting position of a variant from its first layout, checked card by card. */
  static start(variant: VariantId, layout: Layout): Result<Position, Problem> {
    const rules = VARIANTS[variant];
    const problem = layoutProblem(layout, startingCards(variant));
    if (problem) return err(problemOf('first-layout', { problem }));
    const foundation = rules.acesStart ? 1 : 0;
    return ok(
      new Position(
        rules,
        layout.map((fan) => [...fan]),
        [foundation, foundation, foundation, foundation],
        Array<Card | null>(rules.cells).fill(null),
        0,
        false,
      ),
    );
  }

  /**
   * A position in the middle of a game, from its parts (as a board gives them): every card of
   * the deck must be exactly once on the fans, in the cells or under a foundation's top.
   */
  static setup(
    variant: VariantId,
    parts: { fans: readonly (readonly Card[])[]; foundations: readonly number[]; cells?: readonly (Card | null)[]; redealsUsed?: number; merciUsed?: boolean },
  ): Result<Position, Problem> {
    const rules = VARIANTS[variant];
    const cells = parts.cells ?? Array<Card | null>(rules.cells).fill(null);
    if (cells.length !== rules.cells) return err(problemOf('cell-count', { variant, cells: rules.cells, size: cells.length }));
    if (parts.foundations.length !== 4 || parts.foundations.some((height) => !Number.isInteger(height) || height < 0 || height > 13)) {
      return err(problemOf('foundation-heights'));
    }
    if (rules.acesStart && parts.foundations.some((height) => height === 0)) return err(problemOf('aces-start', { variant }));
    const redealsUsed = parts.redealsUsed ?? 0;
    if (!Number.isInteger(redealsUsed) || redealsUsed < 0 || redealsUsed > rules.redeals) {
      return err(problemOf('redeals-used', { variant, redeals: rules.redeals }));
    }
    const merciUsed = parts.merciUsed ?? false;
    if (merciUsed && !rules.merci) return err(problemOf('no-merci', { variant }));
    if (parts.fans.length === 0) return err(problemOf('no-fans'));
    const seen = new Uint8Array(CARD_COUNT);
    const place = (card: Card): Problem | undefined => {
      if (seen[card]) return problemOf('card-twice', { card });
      seen[card] = 1;
      return rankOf(card) < parts.foundations[suitOf(card)]! ? problemOf('card-home', { card }) : undefined;
    };
    for (const fan of parts.fans) for (const card of fan) {
      const problem = place(card);
      if (problem) return err(problem);
    }
    for (const card of cells) {
      const problem = card === null ? undefined : place(card);
      if (problem) return err(problem);
    }
    const missing: Card[] = [];
    for (let card = 0; card < CARD_COUNT; card++) {
      if (!seen[card] && rankOf(card) >= parts.foundations[suitOf(card)]!) missing.push(card);
    }
    if (missing.length > 0) return err(problemOf('cards-missing', { cards: missing }));
    return ok(new Position(rules, parts.fans.map((fan) => [...fan]), [...parts.foundations], [...cells], redealsUsed, merciUsed));
  }

  get variant(): VariantId {
    return this.rules.id;
  }
  get redealsUsed(): number {
    return this.redeals;
  }
  get merciUsed(): boolean {
    return this.merci;
  }

  clone(): Position {
    return new Position(
      this.rules,
      this.fans.map((fan) => fan.slice()),
      this.foundations.slice(),
      this.cells.slice(),
      this.redeals,
      this.merci,
    );
  }

  foundationCount(): number {
    return this.foundations[0]! + this.foundations[1]! + this.foundations[2]! + this.foundations[3]!;
  }

  isWon(): boolean {
    return this.foundationCount() === 52;
  }

  /** Cards not on the foundations (fans and cells), in canonical order: what a redeal gathers. */
  gatheredCards(): Card[] {
    const present = new Uint8Array(CARD_COUNT);
    for (const fan of this.fans) for (const card of fan) present[card] = 1;
    for (const card of this.cells) if (card !== null) present[card] = 1;
    const cards: Card[] = [];
    for (let card = 0; card < CARD_COUNT; card++) if (present[card]) cards.push(card);
    return cards;
  }

  topCard(fan: number): Card | undefined {
    const cards = this.fans[fan];
    return cards === undefined ? undefined : cards[cards.length - 1];
  }

  canRedeal(): boolean {
    return this.redeals < this.rules.redeals && !this.isWon();
  }

  /** Why `action` is illegal here, or undefined when it is legal. A redeal is checked against `nextLayout` when given. */
  problem(action: Action, nextLayout?: Layout): Problem | undefined {
    switch (action.type) {
      case 'fan-to-foundation': {
        const source = this.sourceProblem(action.from);
        return source ?? this.foundationProblem(this.topCard(action.from)!);
      }
      case 'fan-to-fan': {
        const source = this.sourceProblem(action.from);
        if (source) return source;
        if (action.from === action.to) return problemOf('own-fan');
        return this.buildProblem(this.topCard(action.from)!, action.to, action.from);
      }
      case 'fan-to-cell': {
        const cell = this.cellProblem(action.cell, false);
        return cell ?? this.sourceProblem(action.from);
      }
      case 'cell-to-fan':
        return this.cellProblem(action.cell, true) ?? this.buildProblem(this.cells[action.cell]!, action.to, null);
      case 'cell-to-foundation':
        return this.cellProblem(action.cell, true) ?? this.foundationProblem(this.cells[action.cell]!);
      case 'redeal':
        return this.redealProblem(nextLayout);
      case 'merci':
        return this.merciProblem(action);
    }
  }

  /** Plays a legal action in place. A redeal needs the next layout. */
  play(action: Action, nextLayout?: Layout): void {
    switch (action.type) {
      case 'fan-to-foundation':
        this.toFoundation(this.fans[action.from]!.pop()!);
        break;
      case 'fan-to-fan':
        this.fans[action.to]!.push(this.fans[action.from]!.pop()!);
        break;
      case 'fan-to-cell':
        this.cells[action.cell] = this.fans[action.from]!.pop()!;
        break;
      case 'cell-to-fan':
        this.fans[action.to]!.push(this.cells[action.cell]!);
        this.cells[action.cell] = null;
        break;
      case 'cell-to-foundation':
        this.toFoundation(this.cells[action.cell]!);
        this.cells[action.cell] = null;
        break;
      case 'redeal':
        if (!nextLayout) throw new Error('a redeal needs the next layout');
        this.fans.splice(0, this.fans.length, ...nextLayout.map((fan) => [...fan]));
        this.cells.fill(null);
        this.redeals++;
        break;
      case 'merci': {
        const fan = this.fans.find((cards) => cards.includes(action.card))!;
        fan.splice(fan.indexOf(action.card), 1);
        if (action.to === null) this.toFoundation(action.card);
        else this.fans[action.to]!.push(action.card);
        this.merci = true;
        break;
      }
    }
  }

  /** Every legal action, in a stable order: fan moves by fan, then cells, redeal, merci. */
  legalActions(): Action[] {
    const actions = this.ordinaryActions(false);
    if (this.canRedeal()) actions.push({ type: 'redeal' });
    if (actions.length === 0 && this.merciAvailable()) actions.push(...this.merciActions());
    return actions;
  }

  hasLegalAction(): boolean {
    return this.ordinaryActions(true).length > 0 || this.canRedeal() || (this.merciAvailable() && this.merciActions().length > 0);
  }

  status(): Status {
    const foundations = this.foundationCount();
    return {
      foundations,
      won: foundations === 52,
      over: foundations === 52 || !this.hasLegalAction(),
      redealsUsed: this.redeals,
      redealsLeft: this.rules.redeals - this.redeals,
      merciUsed: this.merci,
    };
  }

  private toFoundation(card: Card): void {
    this.foundations[suitOf(card)]!++;
  }

  private fanExists(fan: number): Problem | undefined {
    return fan >= 0 && fan < this.fans.length && Number.isInteger(fan) ? undefined : problemOf('no-such-fan', { fan: fan + 1, fans: this.fans.length });
  }

  private sourceProblem(fan: number): Problem | undefined {
    return this.fanExists(fan) ?? (this.fans[fan]!.length === 0 ? problemOf('fan-empty', { fan: fan + 1 }) : undefined);
  }

  private foundationProblem(card: Card): Problem | undefined {
    const suit = suitOf(card);
    const height = this.foundations[suit]!;
    if (this.fitsFoundation(card)) return undefined;
    return problemOf(height === 0 ? 'foundation-starts' : 'foundation-needs', { card, needed: cardOf(suit, height) });
  }

  private fitsFoundation(card: Card): boolean {
    return this.foundations[suitOf(card)] === rankOf(card);
  }

  /** Whether `card` may go on the existing fan `to`; `from` is its own fan, or null from a cell. */
  private canBuild(card: Card, to: number, from: number | null): boolean {
    const target = this.fans[to]!;
    if (target.length === 0) {
      return this.rules.kingsInSpaces && rankOf(card) === KING && (from === null || this.fans[from]!.length > 1);
    }
    if (this.rules.maxFanSize !== null && target.length >= this.rules.maxFanSize) return false;
    return builds(this.rules.build, card, target[target.length - 1]!);
  }

  private buildProblem(card: Card, to: number, from: number | null): Problem | undefined {
    const missing = this.fanExists(to);
    if (missing) return missing;
    if (this.canBuild(card, to, from)) return undefined;
    const fan = to + 1;
    const cards = this.fans[to]!;
    if (cards.length === 0) {
      if (!this.rules.kingsInSpaces) return problemOf('empty-fan-stays-empty', { fan });
      if (rankOf(card) !== KING) return problemOf('king-only', { fan, card });
      return problemOf('king-alone', { card });
    }
    const target = cards[cards.length - 1]!;
    if (this.rules.maxFanSize !== null && cards.length >= this.rules.maxFanSize) {
      return problemOf('fan-full', { card, target, fan, size: cards.length, variant: this.rules.id });
    }
    return problemOf('cannot-build', { card, target, rule: this.rules.build });
  }

  private cellProblem(cell: number, mustHoldCard: boolean): Problem | undefined {
    if (this.rules.cells === 0) return problemOf('no-cells', { variant: this.rules.id });
    const card = this.cells[cell];
    if (card === undefined) return problemOf('no-such-cell', { cell: cell + 1 });
    if (mustHoldCard && card === null) return problemOf('cell-empty', { cell: cell + 1 });
    if (!mustHoldCard && card !== null) return problemOf('cell-full', { cell: cell + 1, card });
    return undefined;
  }

  private redealProblem(nextLayout: Layout | undefined): Problem | undefined {
    if (this.rules.redeals === 0) return problemOf('no-redeal', { variant: this.rules.id });
    if (this.redeals >= this.rules.redeals) return problemOf('no-redeal-left', { redeals: this.rules.redeals });
    if (this.isWon()) return problemOf('game-won');
    if (nextLayout === undefined) return undefined;
    const problem = layoutProblem(nextLayout, this.gatheredCards());
    return problem && problemOf('redeal-layout', { redeal: this.redeals + 1, problem });
  }

  private merciAvailable(): boolean {
    return this.rules.merci && !this.merci && this.redeals === this.rules.redeals && !this.isWon();
  }

  private merciProblem(action: Extract<Action, { type: 'merci' }>): Problem | undefined {
    if (!this.rules.merci) return problemOf('no-merci', { variant: this.rules.id });
    if (this.merci) return problemOf('merci-used');
    const left = this.rules.redeals - this.redeals;
    if (left > 0) return problemOf('merci-too-early', { left });
    const other = this.ordinaryActions(true)[0];
    if (other) return problemOf('merci-not-needed', { action: makeAction(other) });
    const { card } = action;
    const fan = this.fans.findIndex((cards) => cards.includes(card));
    if (fan < 0) return problemOf('not-in-fans', { card });
    if (this.topCard(fan) === card) return problemOf('merci-top-card', { card, fan: fan + 1 });
    if (action.to === null) return this.foundationProblem(card);
    return this.fanExists(action.to) ?? (this.fans[action.to]!.length === 0 ? problemOf('fan-empty', { fan: action.to + 1 }) : undefined);
  }

  /** Fan and cell moves (no redeal, no merci); with `first`, stops at the first one found. */
  private ordinaryActions(first: boolean): Action[] {
    const actions: Action[] = [];
    const { fans, cells } = this;
    const emptyCell = cells.indexOf(null);
    for (let from = 0; from < fans.length; from++) {
      const card = this.topCard(from);
      if (card === undefined) continue;
      if (this.fitsFoundation(card)) {
        actions.push({ type: 'fan-to-foundation', from });
        if (first) return actions;
      }
      for (let to = 0; to < fans.length; to++) {
        if (to !== from && this.canBuild(card, to, from)) {
          actions.push({ type: 'fan-to-fan', from, to });
          if (first) return actions;
        }
      }
      for (let cell = emptyCell; cell >= 0 && cell < cells.length; cell++) {
        if (cells[cell] !== null) continue;
        actions.push({ type: 'fan-to-cell', from, cell });
        if (first) return actions;
      }
    }
    for (let cell = 0; cell < cells.length; cell++) {
      const card = cells[cell];
      if (card === null || card === undefined) continue;
      if (this.fitsFoundation(card)) {
        actions.push({ type: 'cell-to-foundation', cell });
        if (first) return actions;
      }
      for (let to = 0; to < fans.length; to++) {
        if (this.canBuild(card, to, null)) {
          actions.push({ type: 'cell-to-fan', cell, to });
          if (first) return actions;
        }
      }
    }
    return actions;
  }

  private merciActions(): Action[] {
    const actions: Action[] = [];
    for (const fan of this.fans) {
      for (const card of fan.slice(0, -1)) {
        if (this.fitsFoundation(card)) actions.push({ type: 'merci', card, to: null });
        this.fans.forEach((target, to) => {
          if (target.length > 0) actions.push({ type: 'merci', card, to });
        });
      }
    }
    return actions;
  }
}

/** The pure form of `play`: a new position, or the problem that makes the action illegal. */
export function applyAction(position: Position, action: Action, nextLayout?: Layout): Result<Position, Problem> {
  const problem = position.problem(action, nextLayout);
  if (problem !== undefined) return err(problem);
  if (action.type === 'redeal' && nextLayout === undefined) return err(problemOf('redeal-needs-layout'));
  const next = position.clone();
  next.play(action, nextLayout);
  return ok(next);
}
