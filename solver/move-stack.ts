/**
 * The moves of every position on a search's path, one flat buffer: each position's moves sit
 * above its parent's, so a search allocates nothing per node (a fresh array per position, and
 * the garbage it left, were a tenth of the search's time).
 */
export class MoveStack {
  private buffer = new Int32Array(256);
  length = 0;

  push(move: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Int32Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = move;
  }

  at(index: number): number {
    return this.buffer[index]!;
  }
}
