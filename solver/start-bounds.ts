import type { Card } from '../shared/card.js';
import type { Layout } from '../shared/layout.js';
import type { Rules } from '../shared/variant.js';
import { Relaxation } from './relaxation.js';
import { unpackHeights, type Heights } from './state.js';

/**
 * DealState.bound of a deal's first position, from its layout and foundations alone. The
 * clairvoyant solver asks it of dozens of last deals a seed (the foundation states a search may
 * still reach, see its `settled`) and searches few of them: making each one's state (its key, hash
 * and scratch) cost more than the bound, so one relaxation is pointed at each layout in turn.
 */
export class StartBounds {
  private readonly fans: (readonly Card[])[] = [];
  private readonly found = [0, 0, 0, 0];
  private relaxation: Relaxation | null = null;
  /** The most fans `relaxation` has room for (its scratch is sized at its making). */
  private room = 0;

  constructor(private readonly rules: Rules) {}

  /** The bound of the deal dealt as `layout` with the foundations at `heights`, `merci` whether it may be played there. */
  bound(layout: Layout, heights: Heights, merci: boolean): number {
    const { fans, found } = this;
    fans.length = 0;
    for (const fan of layout) fans.push(fan);
    if (this.relaxation === null || layout.length > this.room) {
      this.relaxation = new Relaxation(this.rules, fans, found);
      this.room = layout.length;
    }
    const heightsOf = unpackHeights(heights);
    for (let suit = 0; suit < 4; suit++) found[suit] = heightsOf[suit]!;
    return this.relaxation.bound(this.rules.cells > 0, merci);
  }
}
