// The rows of the list's entries, in the list's order, as one typed array kept in step with the entries: a
// filter over every session reads row numbers in a run instead of reaching each entry through a pointer.

export class RowOrder {
  private rows = new Int32Array(1_024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The rows, in order, up to `length` (the array itself: read it before the next change). */
  get view(): Int32Array {
    return this.rows;
  }

  insert(at: number, row: number): void {
    if (this.count === this.rows.length) {
      const rows = new Int32Array(Math.ceil(this.rows.length * 1.5));
      rows.set(this.rows);
      this.rows = rows;
    }
    this.rows.copyWithin(at + 1, at, this.count);
    this.rows[at] = row;
    this.count++;
  }

  /** The rows of a whole new order: `count` of them, the `i`th being `rowAt(i)`. */
  setAll(count: number, rowAt: (i: number) => number): void {
    if (count > this.rows.length) this.rows = new Int32Array(Math.ceil(count * 1.5));
    for (let i = 0; i < count; i++) this.rows[i] = rowAt(i);
    this.count = count;
  }

  remove(at: number): void {
    this.rows.copyWithin(at, at + 1, this.count);
    this.count--;
  }
}
