/**
 * Which moves a search plays alone where a position has one (see DealState.pushMoves), as bits.
 * Each keeps what its search needs and no more. A safe move home (DealState.safeHome) keeps the
 * best count but not every foundation state on the way; a safe build (DealState.safeBuild) keeps
 * every sequence of moves home, so every foundation state a line can pass through, but not which
 * safe moves home a position has, on which par's policy depends.
 */
export type Forcing = number;
export const FORCE_NOTHING: Forcing = 0;
export const FORCE_HOME: Forcing = 1;
export const FORCE_BUILDS: Forcing = 2;
