import type { Card } from '../shared/card.js';
import type { Layout } from '../shared/layout.js';
import type { Position } from '../shared/position.js';
import type { Rules } from '../shared/variant.js';
import { KING_RANK, rankOf, suitOf } from './card-tables.js';
import { aOf, bOf, CELL_FAN, CELL_HOME, FAN_CELL, FAN_FAN, FAN_HOME, kindOf, MERCI, move, TO_HOME } from './move.js';
import { FORCE_BUILDS, FORCE_HOME, FORCE_NOTHING, type Forcing } from './forcing.js';
import { MoveStack } from './move-stack.js';
import { Relaxation } from './relaxation.js';

/**
 * The solver's own mutable copy of one deal: fans, cells, foundations and whether the merci may
 * still be played in it. It applies the engine's rules (position.ts) move for move, with
 * do/undo instead of copies; tests replay every line it returns through the engine.
 *
 * A move is one number (see move.ts).
 */
const EMPTY = -1;

/** Foundation heights packed 4 bits a suit (C lowest): the whole of what a redeal depends on. */
export type Heights = number;
export const packHeights = (found: readonly number[]): Heights => found[0]! | (found[1]! << 4) | (found[2]! << 8) | (found[3]! << 12);
export const unpackHeights = (heights: Heights): number[] => [heights & 15, (heights >> 4) & 15, (heights >> 8) & 15, (heights >> 12) & 15];
export const heightsCount = (heights: Heights): number => (heights & 15) + ((heights >> 4) & 15) + ((heights >> 8) & 15) + ((heights >> 12) & 15);
/** The cards a redeal gathers when the foundations stand at `heights`, in canonical order. */
export function cardsAbove(heights: Heights): Card[] {
  const found = unpackHeights(heights);
  const cards: Card[] = [];
  for (let suit = 0; suit < 4; suit++) for (let rank = found[suit]!; rank < 13; rank++) cards.push(suit * 13 + rank);
  return cards;
}

/** A well-mixed 32-bit value for "`code` lies under `entry`", XORed into the position's hash. */
function mark(entry: number, code: number): number {
  let x = Math.imul((entry << 8) | code, 0x9e3779b1);
  x = Math.imul(x ^ (x >>> 15), 0x85ebca6b);
  return x ^ (x >>> 13);
}

/** Codes in `under` besides a card number: the bottom of fan f is BOTTOM + f. */
const BOTTOM = 60;
const IN_CELL = 100;
const HOME = 101;

export class DealState {
  home: number;
  /**
   * For each card, what lies under it: a card, the bottom of a fan, a cell or the foundation;
   * entry 52 is the merci flag. It determines the position exactly (each fan is the chain up
   * from its bottom), so it is the transposition key, with cells as a set since they are
   * interchangeable.
   */
  private readonly under = new Uint8Array(56);
  /** `under` (53 entries padded to 56 bytes, the padding always 0) as 32-bit words: the key, compared a word at a time. */
  private readonly key = new Int32Array(this.under.buffer);
  /** A hash of `under`, kept up to date move by move. */
  hash = 0;

  constructor(
    readonly rules: Rules,
    readonly fans: Card[][],
    readonly cells: number[],
    readonly found: number[],
    /** The merci may still be played in this deal (its last deal, not yet used). */
    public merci: boolean,
  ) {
    this.home = found[0]! + found[1]! + found[2]! + found[3]!;
    this.relaxation = new Relaxation(rules, fans, found);
    this.plainBuilds = rules.build === 'same-suit-down' && !rules.kingsInSpaces && rules.maxFanSize === null && rules.cells === 0;
    const { under } = this;
    under.fill(HOME, 0, 52);
    for (let f = 0; f < fans.length; f++) for (let i = 0; i < fans[f]!.length; i++) under[fans[f]![i]!] = i === 0 ? BOTTOM + f : fans[f]![i - 1]!;
    for (const card of cells) if (card !== EMPTY) under[card] = IN_CELL;
    under[52] = merci ? 1 : 0;
    for (let entry = 0; entry <= 52; entry++) this.hash ^= mark(entry, under[entry]!);
  }

  /** The `under` code of a card put on fan `to` now. */
  private onto(to: number): number {
    const fan = this.fans[to]!;
    return fan.length === 0 ? BOTTOM + to : fan[fan.length - 1]!;
  }

  static fromPosition(position: Position): DealState {
    const { rules } = position;
    return new DealState(
      rules,
      position.fans.map((fan) => fan.slice()),
      position.cells.map((card) => (card === null ? EMPTY : card)),
      position.foundations.slice(),
      rules.merci && !position.merciUsed && position.redealsUsed === rules.redeals,
    );
  }

  /** The first position of deal `deal` (1 = first redeal) with the foundations at `heights`. */
  static redealt(rules: Rules, heights: Heights, layout: Layout, deal: number): DealState {
    return new DealState(
      rules,
      layout.map((fan) => fan.slice()),
      Array<number>(rules.cells).fill(EMPTY),
      unpackHeights(heights),
      rules.merci && deal === rules.redeals,
    );
  }

  heights(): Heights {
    return packHeights(this.found);
  }

  /** The exact transposition key (see `under`), live: it changes as moves are played. */
  get keyWords(): Int32Array {
    return this.key;
  }

  /** Sets what lies under `entry`, keeping the hash. */
  private put(entry: number, code: number): void {
    this.hash ^= mark(entry, code) ^ mark(entry, this.under[entry]!);
    this.under[entry] = code;
  }

  private fits(card: Card): boolean {
    return this.found[suitOf(card)] === rankOf(card);
  }

  /**
   * Whether sending `card` home can never lower the best count reachable in this deal, so the
   * search may play it and try nothing else here. Let A be the position after the move and B
   * before; invariant: A's fans and cells are B's (fans relabelled) less a set D of cards that
   * are home in A. Every move of B then has a counterpart in A that keeps the invariant and
   * never leaves A with fewer cards home: a move of a card of D is skipped; a card of B that
   * builds on a card of D has, in A, its own foundation free (same suit, one lower is home: in
   * the same-suit rules a card one higher home means it is home too, and a card built on the
   * one below it now fits the foundation), so it goes home instead; a King that may not leave
   * a fan left alone in A simply stays where it is, and the fans are relabelled; A has at least
   * B's free cells and never a longer fan. Two rules break the invariant: building on any suit
   * (shamrocks), where D's card could still carry another suit's card, so there the move is safe
   * only when every card one rank lower is already home; and the merci, which needs "no other
   * move" (A may have moves B lacks), so nothing is forced while the merci can still be played.
   */
  private safeHome(card: Card): boolean {
    if (this.merci) return false;
    if (this.rules.build !== 'any-suit-down') return true;
    const rank = rankOf(card);
    return this.found.every((height) => height >= rank);
  }

  /**
   * The fan to build top card `card` (c) on, the one whose top is the next card of its suit,
   * when that build can never lower the best count in this deal nor change which sequences of
   * moves home a line from here may play, so the search may play it and try nothing else here
   * (-1 when there is none). It holds when that next card (c+1) can never move but home: it is
   * alone in its fan, or the card it could build on (c+2) lies under it there. Let B be the
   * position before the build and A after. A line from B has a counterpart from A that plays the
   * same moves home in the same order: it skips B's move of c onto c+1 (already played), and c+1
   * moves in B only home, after c, when nothing covers it in A either. Every other move is legal
   * in A at the same point, since A differs only in c already on c+1 and the card under c
   * already uncovered. Only same-suit building makes
   * c+1 a card that only c may cover and c+2 the only card c+1 may move onto; an empty fan that
   * may take a King, a fan size limit, cells (c+1 could leave for one) and the merci (it needs
   * "no other move") each break the argument, so they rule it out.
   */
  private safeBuild(card: Card): number {
    if (this.merci || !this.plainBuilds || rankOf(card) === KING_RANK) return -1;
    const to = this.topFan[card + 1]!;
    if (to < 0) return -1;
    const target = this.fans[to]!;
    return target.length === 1 || target.lastIndexOf(card + 2) >= 0 ? to : -1;
  }

  /** The rules under which a build can be safe (see safeBuild): same-suit building, no King in a space, no fan size limit, no cells. */
  private readonly plainBuilds: boolean;

  /**
   * Pushes the moves to search from here onto `out`. Per `forcing`, a safe move home (see
   * safeHome) or a safe build (see safeBuild) is the only one pushed. Cells are interchangeable,
   * so a card goes only to the first empty one.
   */
  pushMoves(forcing: Forcing, out: MoveStack): void {
    const start = out.length;
    const { fans, cells, topFan } = this;
    const fanCount = fans.length;
    for (let f = 0; f < fanCount; f++) {
      const fan = fans[f]!;
      if (fan.length > 0) topFan[fan[fan.length - 1]!] = f;
    }
    const emptyCell = cells.indexOf(EMPTY);
    let forced = -1;
    const forceHome = (forcing & FORCE_HOME) !== 0;
    const forceBuilds = (forcing & FORCE_BUILDS) !== 0;
    for (let from = 0; from < fanCount; from++) {
      const fan = fans[from]!;
      if (fan.length === 0) continue;
      const card = fan[fan.length - 1]!;
      if (this.fits(card)) {
        if (forceHome && this.safeHome(card)) {
          forced = move(FAN_HOME, from);
          break;
        }
        out.push(move(FAN_HOME, from));
      }
      const safeTo = forceBuilds ? this.safeBuild(card) : -1;
      if (safeTo >= 0) {
        forced = move(FAN_FAN, from, safeTo);
        break;
      }
      this.pushBuilds(out, FAN_FAN, from, card, from);
      if (emptyCell >= 0) out.push(move(FAN_CELL, from, emptyCell));
    }
    for (let cell = 0; cell < cells.length && forced < 0; cell++) {
      const card = cells[cell]!;
      if (card === EMPTY) continue;
      if (this.fits(card)) {
        if (forceHome && this.safeHome(card)) forced = move(CELL_HOME, cell);
        else out.push(move(CELL_HOME, cell));
      }
      this.pushBuilds(out, CELL_FAN, cell, card, null);
    }
    for (let f = 0; f < fanCount; f++) {
      const fan = fans[f]!;
      if (fan.length > 0) topFan[fan[fan.length - 1]!] = -1;
    }
    if (forced >= 0) {
      out.length = start;
      out.push(forced);
      return;
    }
    if (out.length === start && this.merci) {
      for (const fan of fans) {
        for (let i = 0; i < fan.length - 1; i++) {
          const card = fan[i]!;
          if (this.fits(card)) out.push(move(MERCI, card, TO_HOME));
          for (let to = 0; to < fanCount; to++) if (fans[to]!.length > 0) out.push(move(MERCI, card, to));
        }
      }
    }
  }

  /** Whether any move is left here (the merci included while it may be played). */
  hasMove(): boolean {
    const out = (this.probe ??= new MoveStack());
    out.length = 0;
    this.pushMoves(FORCE_NOTHING, out);
    return out.length > 0;
  }
  /** `hasMove`'s scratch (made when first needed). */
  private probe?: MoveStack;

  /**
   * An upper bound on the cards home anywhere in this deal from here, by a relaxation: a card
   * may leave its place once every card above it has left, if it could go home then (every
   * lower card of its suit has left its place) or some card it may build on is a top card or
   * has left its place (a card that has left is home or on a pile whose top only that card's
   * builders can cover), or it is a King where Kings may fill spaces. Every real game satisfies
   * these conditions move for move and they only loosen as cards leave, so the cards freed at
   * the fixpoint hold every card any line can send home; the bound counts, per suit, those
   * freed from the bottom up. Cells (any top card may leave) make it useless, so it is 52 there.
   * A playable merci lets one buried card leave (see boundWithMerci).
   */
  bound(): number {
    if (this.boundKnown < 0) this.boundKnown = this.relaxation.bound(this.cells.length > 0, this.merci);
    return this.boundKnown;
  }

  /**
   * `bound` as last computed (with `reach`), while it still holds (-1: not known). A move home
   * leaves it as it was: the card sent home was free to leave in the relaxation (it fitted its
   * foundation), and the position after the move starts the relaxation from marks (that card
   * gone, the one under it on top) that lie between the start and the fixpoint before it, so the
   * fixpoint, the least set closed under its rules, is the same. Undoing a move home goes back
   * the same way; every other move, played or undone, forgets it.
   */
  private boundKnown = -1;

  /**
   * After `bound`: the highest foundation `suit` can reach in this deal from here. A suit's
   * foundation grows from the Ace up, each card freed in the relaxation first, so it never
   * passes the run of freed cards that `bound` counts for it.
   */
  reachOf(suit: number): number {
    return this.relaxation.reachOf(suit);
  }

  /** Whether a line from here may pass through these foundation heights (see Relaxation.mayPass). */
  mayPass(clubs: number, diamonds: number, hearts: number, spades: number): boolean {
    return this.relaxation.mayPass(clubs, diamonds, hearts, spades, this.cells.length > 0, this.merci);
  }

  private readonly relaxation: Relaxation;

  /** Fan of each top card during `pushMoves` (-1 otherwise). */
  private readonly topFan = new Int8Array(52).fill(-1);

  /** Pushes the builds of `card` (from fan or cell `source`) onto the fans whose top takes it. */
  private pushBuilds(moves: MoveStack, kind: number, source: number, card: Card, from: number | null): void {
    const rank = rankOf(card);
    switch (this.rules.build) {
      case 'same-suit-down':
        if (rank !== KING_RANK) this.pushBuild(moves, kind, source, card + 1, from);
        break;
      case 'any-suit-down':
        if (rank !== KING_RANK) for (let suit = 0; suit < 4; suit++) this.pushBuild(moves, kind, source, suit * 13 + rank + 1, from);
        break;
      case 'same-suit-up-or-down':
        if (rank !== KING_RANK) this.pushBuild(moves, kind, source, card + 1, from);
        if (rank !== 0) this.pushBuild(moves, kind, source, card - 1, from);
    }
    const { fans } = this;
    if (this.rules.kingsInSpaces && rank === KING_RANK && (from === null || fans[from]!.length > 1)) {
      for (let to = 0; to < fans.length; to++) if (fans[to]!.length === 0) moves.push(move(kind, source, to));
    }
  }

  /** Pushes the build onto the fan whose top card is `top`, if there is one and it has room. */
  private pushBuild(moves: MoveStack, kind: number, source: number, top: Card, from: number | null): void {
    const to = this.topFan[top]!;
    const limit = this.rules.maxFanSize;
    if (to >= 0 && to !== from && (limit === null || this.fans[to]!.length < limit)) moves.push(move(kind, source, to));
  }

  /** Plays a move from `moves`; returns what `undo` needs. */
  apply(m: number): number {
    const a = aOf(m);
    const b = bOf(m);
    const { fans, cells, under } = this;
    const kind = kindOf(m);
    if (kind !== FAN_HOME && kind !== CELL_HOME) this.boundKnown = -1;
    switch (kind) {
      case FAN_HOME: {
        const card = fans[a]!.pop()!;
        this.put(card, HOME);
        this.found[suitOf(card)]!++;
        this.home++;
        return card;
      }
      case FAN_FAN: {
        const card = fans[a]!.pop()!;
        this.put(card, this.onto(b));
        fans[b]!.push(card);
        return 0;
      }
      case FAN_CELL: {
        const card = fans[a]!.pop()!;
        this.put(card, IN_CELL);
        cells[b] = card;
        return 0;
      }
      case CELL_FAN: {
        const card = cells[a]!;
        this.put(card, this.onto(b));
        fans[b]!.push(card);
        cells[a] = EMPTY;
        return 0;
      }
      case CELL_HOME: {
        const card = cells[a]!;
        this.put(card, HOME);
        this.found[suitOf(card)]!++;
        this.home++;
        cells[a] = EMPTY;
        return card;
      }
      default: {
        const fan = fans.findIndex((cards) => cards.includes(a));
        const cards = fans[fan]!;
        const index = cards.indexOf(a);
        this.put(cards[index + 1]!, under[a]!);
        cards.splice(index, 1);
        if (b === TO_HOME) {
          this.put(a, HOME);
          this.found[suitOf(a)]!++;
          this.home++;
        } else {
          this.put(a, this.onto(b));
          fans[b]!.push(a);
        }
        this.merci = false;
        this.put(52, 0);
        return fan | (index << 8);
      }
    }
  }

  undo(m: number, token: number): void {
    const a = aOf(m);
    const b = bOf(m);
    const { fans, cells } = this;
    const kind = kindOf(m);
    if (kind !== FAN_HOME && kind !== CELL_HOME) this.boundKnown = -1;
    switch (kind) {
      case FAN_HOME:
        this.found[suitOf(token)]!--;
        this.home--;
        this.put(token, this.onto(a));
        fans[a]!.push(token);
        break;
      case FAN_FAN: {
        const card = fans[b]!.pop()!;
        this.put(card, this.onto(a));
        fans[a]!.push(card);
        break;
      }
      case FAN_CELL: {
        const card = cells[b]!;
        this.put(card, this.onto(a));
        fans[a]!.push(card);
        cells[b] = EMPTY;
        break;
      }
      case CELL_FAN: {
        const card = fans[b]!.pop()!;
        this.put(card, IN_CELL);
        cells[a] = card;
        break;
      }
      case CELL_HOME:
        this.found[suitOf(token)]!--;
        this.home--;
        this.put(token, IN_CELL);
        cells[a] = token;
        break;
      default: {
        if (b === TO_HOME) {
          this.found[suitOf(a)]!--;
          this.home--;
        } else fans[b]!.pop();
        const fan = token & 255;
        const index = token >> 8;
        const cards = fans[fan]!;
        this.put(a, index === 0 ? BOTTOM + fan : cards[index - 1]!);
        this.put(cards[index]!, a);
        cards.splice(index, 0, a);
        this.merci = true;
        this.put(52, 1);
      }
    }
  }
}
