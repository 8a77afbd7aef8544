/**
 * Who races whom: one pure function over the players waiting for one variant. The longest
 * waiting player anchors a group; the others whose ratings are close enough join it, closest
 * first, up to the cap. "Close enough" widens the longer either player has waited, and a player
 * without a rating fits anyone. A group starts once its anchor has waited the gathering window
 * (so those who arrive meanwhile race too), or at once when it is full.
 */

export interface PoolRules {
  /** How long the longest waiting player of a group waits for others to gather before it starts. */
  gatherMs: number;
  /** A group this size starts at once. */
  maxRacers: number;
  /** Two ratings this far apart fit from the first moment... */
  bandBase: number;
  /** ...and this much further for each second the longer waiting of the two has waited. */
  bandPerSecond: number;
  /** A player alone in the pool this long is offered a ghost race (and stays in the pool). */
  ghostAfterMs: number;
  /** Nobody waits longer: the pool lets them go and tells them so. */
  maxWaitMs: number;
}

export const DEFAULT_POOL_RULES: PoolRules = { gatherMs: 5000, maxRacers: 8, bandBase: 100, bandPerSecond: 10, ghostAfterMs: 30_000, maxWaitMs: 600_000 };

/** How often a pool whose waiting players do not fit yet is looked at again (their bands widen meanwhile). */
export const WIDENING_STEP_MS = 1000;

export interface Waiter {
  readonly playerId: number;
  readonly rating: number | null;
  readonly joinedAt: number;
}

/** How far from `waiter`'s rating another may be, at `now`. */
export const bandOf = (waiter: Waiter, now: number, rules: PoolRules): number => rules.bandBase + (rules.bandPerSecond * Math.max(0, now - waiter.joinedAt)) / 1000;

function fits(a: Waiter, b: Waiter, now: number, rules: PoolRules): boolean {
  if (a.rating === null || b.rating === null) return true;
  return Math.abs(a.rating - b.rating) <= Math.max(bandOf(a, now, rules), bandOf(b, now, rules));
}

/** How far `other` is from `anchor`, for "closest first": a player without a rating comes after every rated one. */
const distance = (anchor: Waiter, other: Waiter): number =>
  anchor.rating === null || other.rating === null ? Number.MAX_SAFE_INTEGER : Math.abs(anchor.rating - other.rating);

/** The groups to seat now (the waiters given, the anchor first), from `waiters` in order of arrival. */
export function pairPool<W extends Waiter>(waiters: readonly W[], now: number, rules: PoolRules): W[][] {
  let left = [...waiters].sort((a, b) => a.joinedAt - b.joinedAt || a.playerId - b.playerId);
  const groups: W[][] = [];
  while (left.length > 0) {
    const [anchor, ...others] = left as [W, ...W[]];
    const company = others
      .filter((other) => fits(anchor, other, now, rules))
      .sort((a, b) => distance(anchor, a) - distance(anchor, b) || a.joinedAt - b.joinedAt)
      .slice(0, rules.maxRacers - 1);
    const group = [anchor, ...company];
    const ready = group.length >= rules.maxRacers || (group.length >= 2 && now - anchor.joinedAt >= rules.gatherMs);
    if (!ready) {
      left = others;
      continue;
    }
    groups.push(group);
    left = others.filter((other) => !company.includes(other));
  }
  return groups;
}

/** When the pool of `waiters` (those left after pairing) is next worth a look, or null when nobody waits. */
export function nextLook(waiters: readonly Waiter[], now: number, rules: PoolRules): number | null {
  if (waiters.length === 0) return null;
  const moments = waiters.flatMap((waiter) => [waiter.joinedAt + rules.gatherMs, waiter.joinedAt + rules.ghostAfterMs, waiter.joinedAt + rules.maxWaitMs]);
  // Several who do not fit yet may fit once their bands have widened.
  if (waiters.length >= 2) moments.push(now + WIDENING_STEP_MS);
  const ahead = moments.filter((at) => at > now);
  return ahead.length === 0 ? now : Math.min(...ahead);
}

/** Whether `waiter` is offered a ghost race: alone in the pool for its variant since the ghost delay. */
export const offersGhost = (waiter: Waiter, waiting: number, now: number, rules: PoolRules): boolean => waiting === 1 && now - waiter.joinedAt >= rules.ghostAfterMs;
