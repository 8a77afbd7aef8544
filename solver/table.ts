/**
 * The set of positions a search has reached: an open-addressing hash table over exact keys.
 * A key is a fixed-length byte string (see DealState.keyBytes) stored whole, so two positions
 * are the same only when every byte matches: the hash only picks the slot, a collision costs a
 * comparison, never a wrong answer. This replaces a Set of strings, whose building and hashing
 * took most of the search's time.
 */
export class PositionSet {
  private slots: Int32Array;
  private hashes: Int32Array;
  private keys: Uint8Array;
  private count = 0;

  constructor(private readonly width: number) {
    this.slots = new Int32Array(1 << 7).fill(-1);
    this.hashes = new Int32Array(1 << 6);
    this.keys = new Uint8Array(width << 6);
  }

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already there. */
  add(hash: number, key: Uint8Array): boolean {
    const { slots, hashes, keys, width } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === -1) break;
      if (hashes[entry] === hash && this.same(entry, key)) return false;
    }
    if (this.count === hashes.length) this.grow();
    const entry = this.count++;
    this.hashes[entry] = hash;
    this.keys.set(key, entry * width);
    this.place(entry);
    return true;
  }

  private same(entry: number, key: Uint8Array): boolean {
    const { keys, width } = this;
    const base = entry * width;
    for (let i = 0; i < width; i++) if (keys[base + i] !== key[i]) return false;
    return true;
  }

  /** Puts an entry in the first free slot from its hash (the table is at most half full). */
  private place(entry: number): void {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = this.hashes[entry]! & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = entry;
  }

  private grow(): void {
    const capacity = this.hashes.length * 2;
    const hashes = new Int32Array(capacity);
    hashes.set(this.hashes);
    const keys = new Uint8Array(capacity * this.width);
    keys.set(this.keys);
    this.hashes = hashes;
    this.keys = keys;
    this.slots = new Int32Array(capacity * 2).fill(-1);
    for (let entry = 0; entry < this.count; entry++) this.place(entry);
  }
}
