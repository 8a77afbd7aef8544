/**
 * The set of positions a search has reached: an open-addressing hash table over exact keys.
 * A key is a fixed number of 32-bit words (see DealState.keyWords) stored whole, so two
 * positions are the same only when every word matches: the hash only picks the slot, a collision
 * costs a comparison, never a wrong answer. (Bytes compared one at a time, as keys were, cost
 * four times the reads.) This replaces a Set of strings, whose building and hashing
 * took most of the search's time.
 *
 * A set is emptied and used again by the next search (see `clear`): the clairvoyant solver runs
 * thousands of small searches, and making and growing a table for each was a twentieth of its
 * time. Its arrays keep the largest size reached (up to KEPT_ENTRIES), but a search uses only
 * as much of them as it needs (from 64 entries, doubling), so a small search stays in a small,
 * cached part.
 */
const FIRST_ENTRIES = 1 << 6;
/**
 * The most entries a set keeps room for once emptied (about 3.7 MB of keys): a larger search
 * costs far more than making its arrays again, and holding them would keep its memory for good.
 */
const KEPT_ENTRIES = 1 << 16;

export class PositionSet {
  private slots = new Int32Array(FIRST_ENTRIES * 2).fill(-1);
  private hashes = new Int32Array(FIRST_ENTRIES);
  private keys: Int32Array;
  /** Entries in use until the next growth, and so slots in use (twice as many). */
  private capacity = FIRST_ENTRIES;
  private count = 0;

  constructor(readonly width: number) {
    this.keys = new Int32Array(width * FIRST_ENTRIES);
  }

  get size(): number {
    return this.count;
  }

  /** Empties the set, back to its first capacity. */
  clear(): void {
    this.count = 0;
    this.capacity = FIRST_ENTRIES;
    if (this.hashes.length > KEPT_ENTRIES) {
      this.slots = new Int32Array(FIRST_ENTRIES * 2);
      this.hashes = new Int32Array(FIRST_ENTRIES);
      this.keys = new Int32Array(this.width * FIRST_ENTRIES);
    }
    this.slots.fill(-1, 0, FIRST_ENTRIES * 2);
  }

  /** Adds the key; false when it was already there. */
  add(hash: number, key: Int32Array): boolean {
    const { slots, hashes, width } = this;
    const mask = this.capacity * 2 - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === -1) break;
      if (hashes[entry] === hash && this.same(entry, key)) return false;
    }
    if (this.count === this.capacity) this.grow();
    const entry = this.count++;
    this.hashes[entry] = hash;
    this.keys.set(key, entry * width);
    this.place(entry);
    return true;
  }

  private same(entry: number, key: Int32Array): boolean {
    const { keys, width } = this;
    const base = entry * width;
    for (let i = 0; i < width; i++) if (keys[base + i] !== key[i]) return false;
    return true;
  }

  /** Puts an entry in the first free slot from its hash (the slots in use are at most half full). */
  private place(entry: number): void {
    const { slots } = this;
    const mask = this.capacity * 2 - 1;
    let slot = this.hashes[entry]! & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = entry;
  }

  /** Doubles the capacity, making the arrays larger only when they have not been before. */
  private grow(): void {
    const capacity = this.capacity * 2;
    if (this.hashes.length < capacity) {
      const hashes = new Int32Array(capacity);
      hashes.set(this.hashes);
      const keys = new Int32Array(capacity * this.width);
      keys.set(this.keys);
      this.hashes = hashes;
      this.keys = keys;
      this.slots = new Int32Array(capacity * 2);
    }
    this.capacity = capacity;
    this.slots.fill(-1, 0, capacity * 2);
    for (let entry = 0; entry < this.count; entry++) this.place(entry);
  }
}
