import type { Card } from '../shared/card.js';
import type { Rules } from '../shared/variant.js';
import { KING_RANK, rankOf, suitOf } from './card-tables.js';

/** The build rule as a number, read on every bound. */
const SAME_SUIT_DOWN = 0;
const SAME_SUIT_UP_OR_DOWN = 1;
const ANY_SUIT_DOWN = 2;

/** The relaxation's marks (0: still buried under a card that has not left). */
const EXPOSED = 1;
const FREED = 2;

/**
 * The relaxation behind DealState.bound, over a deal's fans and foundations (the state's own
 * arrays, which its moves change in place), with its scratch.
 */
export class Relaxation {
  private readonly build: number;
  private readonly kingsInSpaces: boolean;

  constructor(
    rules: Rules,
    private readonly fans: readonly (readonly Card[])[],
    private readonly found: readonly number[],
  ) {
    this.build = rules.build === 'same-suit-down' ? SAME_SUIT_DOWN : rules.build === 'any-suit-down' ? ANY_SUIT_DOWN : SAME_SUIT_UP_OR_DOWN;
    this.kingsInSpaces = rules.kingsInSpaces;
    this.depth = new Int16Array(fans.length);
  }

  /** The bound of a position with these fans and foundations (see DealState.bound). */
  bound(hasCells: boolean, merci: boolean): number {
    if (hasCells) {
      this.reach.fill(13);
      return 52;
    }
    const { fans, found, open, depth, reach } = this;
    open.fill(0);
    for (let suit = 0; suit < 4; suit++) {
      reach[suit] = found[suit]!;
      for (let rank = 0; rank < reach[suit]!; rank++) open[suit * 13 + rank] = FREED;
    }
    for (let f = 0; f < fans.length; f++) {
      const fan = fans[f]!;
      depth[f] = fan.length - 1;
      if (fan.length > 0) open[fan[fan.length - 1]!] = EXPOSED;
    }
    this.settle();
    const count = reach[0]! + reach[1]! + reach[2]! + reach[3]!;
    return merci && count < 52 ? this.boundWithMerci(count) : count;
  }

  /**
   * The relaxation's fixpoint from the marks as they stand. It is the same whatever the order
   * fans are tried in, so they are tried in turn until a whole round of them frees nothing more.
   * (Queueing only the fans whose top card's wait ended was measured slower: most positions
   * settle in a round or two.)
   */
  private settle(): void {
    const { fans, open, depth } = this;
    const fanCount = fans.length;
    for (let f = 0, quiet = 0; quiet < fanCount; f = f + 1 === fanCount ? 0 : f + 1) {
      const fan = fans[f]!;
      let i = depth[f]!;
      // A top card the merci freed is already gone (see boundWithMerci).
      if (i < 0 || (open[fan[i]!] !== FREED && !this.mayLeave(fan[i]!))) {
        quiet++;
        continue;
      }
      quiet = 1;
      do {
        this.free(fan[i]!);
        // So is a buried one: the card under it comes up with it.
        while (--i >= 0 && open[fan[i]!] === FREED);
        if (i >= 0) open[fan[i]!] = EXPOSED;
      } while (i >= 0 && this.mayLeave(fan[i]!));
      depth[f] = i;
    }
  }

  /** Marks `card` freed, extending its suit's freed run if it is the next card of it. */
  private free(card: Card): void {
    const { open, reach } = this;
    open[card] = FREED;
    const suit = suitOf(card);
    if (rankOf(card) === reach[suit]) while (reach[suit]! < 13 && open[suit * 13 + reach[suit]!] === FREED) reach[suit]!++;
  }

  /**
   * The bound when the merci may still be played: it takes one card that is not on top of its
   * fan, home or onto any top card, and every other move obeys the relaxation, so every line
   * stays within the fixpoint reached with that one card freed at once (the fixpoint only grows
   * with what is freed). The bound is the best over the cards the fixpoint `count` came from
   * left in place: a card still on top there may be covered by a builder and then drawn (the
   * card under it comes up), and a buried one changes the fixpoint only if it extends its suit's
   * run or a top card waits to build on it. Each is tried from a copy of that fixpoint;
   * `reachOf` then holds each suit's best over them.
   */
  private boundWithMerci(count: number): number {
    const { open, depth, reach } = this;
    const saved = (this.saved ??= { open: new Uint8Array(52), depth: new Int16Array(depth.length), reach: new Uint8Array(4), best: new Uint8Array(4) });
    saved.open.set(open);
    saved.depth.set(depth);
    saved.reach.set(reach);
    const best = saved.best;
    best.set(reach);
    let most = count;
    for (let card = 0; card < 52 && most < 52; card++) {
      const mark = saved.open[card];
      if (mark === FREED || (mark === 0 && !this.waitedOn(card, saved.open, saved.reach))) continue;
      open.set(saved.open);
      depth.set(saved.depth);
      reach.set(saved.reach);
      this.free(card);
      this.settle();
      most = Math.max(most, reach[0]! + reach[1]! + reach[2]! + reach[3]!);
      for (let suit = 0; suit < 4; suit++) best[suit] = Math.max(best[suit]!, reach[suit]!);
    }
    reach.set(best);
    return most;
  }

  /** Whether freeing `card` would extend its suit's run or let a top card build on it. */
  private waitedOn(card: Card, open: Uint8Array, reach: Uint8Array): boolean {
    const rank = rankOf(card);
    if (rank === reach[suitOf(card)]) return true;
    switch (this.build) {
      case SAME_SUIT_DOWN:
        return rank > 0 && open[card - 1] === EXPOSED;
      case SAME_SUIT_UP_OR_DOWN:
        return (rank > 0 && open[card - 1] === EXPOSED) || (rank < KING_RANK && open[card + 1] === EXPOSED);
      default:
        if (rank > 0) for (let builder = rank - 1; builder < 52; builder += 13) if (open[builder] === EXPOSED) return true;
        return false;
    }
  }

  /**
   * Whether a line from here may pass through the foundation state of these heights (the
   * target), by the relaxation with one more rule: no card of a suit at or above its target
   * height goes home. A line up to the moment the foundations stand at `target` sent no such card home, so it
   * obeys these rules, and every card below the target is freed at their fixpoint; when a suit's
   * freed run stops short of its target, no line gets there. (The bound's own box cannot tell:
   * it may free those cards only by sending higher ones home.) `reachOf` is left as it was.
   */
  mayPass(clubs: number, diamonds: number, hearts: number, spades: number, hasCells: boolean, merci: boolean): boolean {
    if (hasCells || merci) return true;
    const { homeBelow, reach, kept } = this;
    kept.set(reach);
    homeBelow[0] = clubs;
    homeBelow[1] = diamonds;
    homeBelow[2] = hearts;
    homeBelow[3] = spades;
    this.bound(false, false);
    const passes = reach[0]! >= clubs && reach[1]! >= diamonds && reach[2]! >= hearts && reach[3]! >= spades;
    homeBelow.fill(13);
    reach.set(kept);
    return passes;
  }
  /** Per suit, the ranks below which a card may go home in the relaxation (13: all; see mayPass). */
  private readonly homeBelow = new Uint8Array(4).fill(13);
  /** `mayPass`'s copy of `reach`. */
  private readonly kept = new Uint8Array(4);

  /** After `bound`: `suit`'s run of freed cards from the Ace (see DealState.reachOf). */
  reachOf(suit: number): number {
    return this.reach[suit]!;
  }

  /** Whether a card on top of its fan may leave it in `bound`'s relaxation. */
  private mayLeave(card: Card): boolean {
    const rank = rankOf(card);
    const suit = suitOf(card);
    if (rank === this.reach[suit] && rank < this.homeBelow[suit]!) return true;
    const king = rank === KING_RANK;
    if (king && this.kingsInSpaces) return true;
    const { open } = this;
    switch (this.build) {
      case SAME_SUIT_DOWN:
        return !king && open[card + 1] !== 0;
      case SAME_SUIT_UP_OR_DOWN:
        return (!king && open[card + 1] !== 0) || (rank > 0 && open[card - 1] !== 0);
      default:
        if (!king) for (let other = 0; other < 4; other++) if (open[other * 13 + rank + 1] !== 0) return true;
        return false;
    }
  }

  /**
   * Scratch of `bound`: per card whether it may be built on in the relaxation (EXPOSED: on top
   * of what is left of its fan; FREED: gone from it), per fan the top index left, per suit the
   * freed run from the Ace.
   */
  private readonly open = new Uint8Array(52);
  private readonly depth: Int16Array;
  private readonly reach = new Uint8Array(4);
  /** `boundWithMerci`'s copy of the fixpoint without the merci, and its best reach per suit (made when first needed). */
  private saved?: { open: Uint8Array; depth: Int16Array; reach: Uint8Array; best: Uint8Array };
}
