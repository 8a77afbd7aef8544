// The pool's pairing rules (server/pool/pairing.ts), as a pure function of who waits since when.
import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_RULES, nextLook, offersGhost, pairPool, type Waiter } from '../../server/pool/pairing.js';

const rules = { ...DEFAULT_POOL_RULES, gatherMs: 5000, maxRacers: 8, bandBase: 100, bandPerSecond: 10 };
const waiter = (playerId: number, rating: number | null, joinedAt: number): Waiter => ({ playerId, rating, joinedAt });
/** The groups `pairPool` seats, as player ids. */
const pairedIds = (...args: Parameters<typeof pairPool<Waiter>>): number[][] => pairPool(...args).map((group) => group.map((seated) => seated.playerId));

describe('pairPool', () => {
  it('waits for the gathering window, then seats the longest waiting with everyone who arrived meanwhile', () => {
    const waiters = [waiter(1, null, 0), waiter(2, null, 3000), waiter(3, null, 4900)];
    expect(pairedIds(waiters, 4999, rules)).toEqual([]);
    expect(pairedIds(waiters, 5000, rules)).toEqual([[1, 2, 3]]);
    // Alone, nobody is seated however long they wait.
    expect(pairedIds([waiter(1, null, 0)], 60_000, rules)).toEqual([]);
  });

  it('seats the closest ratings first, up to the cap of 8, and a full group at once', () => {
    const anchor = waiter(1, 1500, 0);
    const others = [1580, 1400, 1510, 1450, 1490, 1530, 1470, 1560, 1505].map((rating, i) => waiter(i + 2, rating, 100 + i));
    // At 1 s every band is at most 110 wide: 1400 (100 away) fits, and every other one.
    const [group] = pairedIds([anchor, ...others], 1000, rules);
    // The seven closest to 1500: 1505, 1510, 1490, 1530, 1470, 1450, 1560 (not 1580, not 1400).
    expect(group).toEqual([1, 10, 4, 6, 7, 8, 5, 9]);
    // Full: no window waited (the anchor joined 1 s ago).
    expect(pairedIds([anchor, ...others.slice(0, 7)], 1000, rules)).toHaveLength(1);
  });

  it('widens the band the longer someone waits, so far ratings meet in the end', () => {
    const waiters = [waiter(1, 1200, 0), waiter(2, 1500, 0)];
    // 300 apart: the band is 100 + 10 per second waited, so they fit from 20 s on.
    expect(pairedIds(waiters, 19_999, rules)).toEqual([]);
    expect(pairedIds(waiters, 20_000, rules)).toEqual([[1, 2]]);
    // A player without a rating fits anyone.
    expect(pairedIds([waiter(1, 1200, 0), waiter(2, null, 0)], 5000, rules)).toEqual([[1, 2]]);
  });

  it('lets a group of later players form when the one waiting longest fits none of them', () => {
    const waiters = [waiter(1, 2500, 0), waiter(2, 1500, 100), waiter(3, 1520, 200)];
    expect(pairedIds(waiters, 6000, rules)).toEqual([[2, 3]]);
  });

  it('looks again when the window closes, the ghost is due or the bands may meet; offers a ghost to one alone', () => {
    expect(nextLook([], 0, rules)).toBeNull();
    expect(nextLook([waiter(1, null, 0)], 100, rules)).toBe(5000);
    expect(nextLook([waiter(1, null, 0)], 6000, rules)).toBe(rules.ghostAfterMs);
    expect(nextLook([waiter(1, 1000, 0), waiter(2, 2000, 0)], 6000, rules)).toBe(7000);
    expect(offersGhost(waiter(1, null, 0), 1, rules.ghostAfterMs, rules)).toBe(true);
    expect(offersGhost(waiter(1, null, 0), 1, rules.ghostAfterMs - 1, rules)).toBe(false);
    expect(offersGhost(waiter(1, null, 0), 2, rules.ghostAfterMs, rules)).toBe(false);
  });
});
