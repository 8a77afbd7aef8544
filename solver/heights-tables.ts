import type { Heights } from './state.js';

/** Every foundation state has a 16-bit number (see Heights), so a table over all of them. */
const HEIGHTS = 1 << 16;
/** Stamps are renewed before they could wrap; the tables are then cleared once. */
const LAST_STAMP = 1 << 30;

/**
 * The clairvoyant solver's tables over foundation states, one set per deal, kept from one solve
 * to the next: making and clearing them anew took about 0.14 ms a solve, a fifteenth of the
 * median seed. An entry counts only when its stamp is the current one, so nothing is cleared
 * between solves, and a stale entry can never be read as a current one.
 */
export class HeightsTables {
  /** Per deal: a proved upper bound on the final count from that deal's start, and the solve it belongs to. */
  private readonly ceilings: Uint8Array[] = [];
  private readonly ceilingStamps: Int32Array[] = [];
  /** Per deal: the search (a stamp) that last judged each foundation state. */
  private readonly judged: Int32Array[] = [];
  private stamp = 0;
  private solve = 0;

  /** Starts a solve over `deals` deals: every ceiling is unknown again. */
  begin(deals: number): void {
    while (this.ceilings.length < deals) {
      this.ceilings.push(new Uint8Array(HEIGHTS));
      this.ceilingStamps.push(new Int32Array(HEIGHTS));
      this.judged.push(new Int32Array(HEIGHTS));
    }
    if (this.stamp >= LAST_STAMP) {
      for (const stamps of [...this.ceilingStamps, ...this.judged]) stamps.fill(0);
      this.stamp = 0;
    }
    this.solve = ++this.stamp;
  }

  /** A new search's stamp for `judge` and `judgedBy`. */
  newSearch(): number {
    return ++this.stamp;
  }

  /** The ceiling known in this solve for `heights` at `deal`'s start, or -1. */
  ceiling(deal: number, heights: Heights): number {
    return this.ceilingStamps[deal]![heights] === this.solve ? this.ceilings[deal]![heights]! : -1;
  }

  setCeiling(deal: number, heights: Heights, value: number): void {
    this.ceilingStamps[deal]![heights] = this.solve;
    this.ceilings[deal]![heights] = value;
  }

  /** Whether `search` has judged `heights` in `deal`; marks it judged. */
  judge(deal: number, heights: Heights, search: number): boolean {
    const judged = this.judged[deal]!;
    if (judged[heights] === search) return true;
    judged[heights] = search;
    return false;
  }

  judgedBy(deal: number, heights: Heights, search: number): boolean {
    return this.judged[deal]![heights] === search;
  }
}
