/**
 * How much work a solve may do. The solver reads no clock of its own: a time limit needs a
 * clock handed in (any millisecond clock of Node or a Web Worker), so tests and the package stay
 * pure. When the budget runs out every search stops and reports what it proved so far.
 */
export interface Limits {
  /** Search nodes (positions first reached) for the whole solve. */
  readonly nodes?: number;
  /** Milliseconds for the whole solve, measured with `clock`. */
  readonly ms?: number;
  /** Milliseconds from some fixed origin; needed for `ms`. */
  readonly clock?: () => number;
}

/** Default limits: generous enough that almost every strict seed is solved exactly. */
export const DEFAULT_NODES = 2_000_000;

const CLOCK_EVERY = 1024;

export class Budget {
  nodes = 0;
  exhausted = false;
  /** The node count at which the budget runs out: its own limit, or a tighter cap of `within`. */
  private nodeLimit: number;
  private timedOut = false;
  private readonly deadline: number;

  constructor(private readonly limits: Limits = {}) {
    this.nodeLimit = limits.nodes ?? DEFAULT_NODES;
    this.deadline = limits.ms !== undefined && limits.clock ? limits.clock() + limits.ms : Infinity;
  }

  /** Counts one node; false once the budget is spent (and from then on). */
  spend(): boolean {
    if (this.exhausted) return false;
    this.nodes++;
    if (this.nodes > this.nodeLimit) this.exhausted = true;
    else if (this.deadline !== Infinity && this.nodes % CLOCK_EVERY === 0 && this.limits.clock!() > this.deadline) {
      this.exhausted = this.timedOut = true;
    }
    return !this.exhausted;
  }

  /**
   * Runs `work` as if the budget ended `nodes` nodes from now (or where it ends, if sooner):
   * a search that reaches the cap stops and reports itself cut short, like one that ran out of
   * budget, but once `work` returns the rest of the budget can still be spent.
   */
  within<T>(nodes: number, work: () => T): T {
    const limit = this.nodeLimit;
    this.nodeLimit = Math.min(limit, this.nodes + nodes);
    try {
      return work();
    } finally {
      this.nodeLimit = limit;
      this.exhausted = this.timedOut || this.nodes > limit;
    }
  }
}
