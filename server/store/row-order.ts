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

  /** Insert `rows`, each before the row now at `at` (non-decreasing): the rows after the first place move once. */
  insertMany(at: readonly number[], rows: readonly number[]): void {
    const count = this.count + rows.length;
    if (count > this.rows.length) {
      const grown = new Int32Array(Math.ceil(count * 1.5));
      grown.set(this.rows.subarray(0, this.count));
      this.rows = grown;
    }
    let i = this.count - 1;
    for (let j = rows.length - 1, w = count - 1; j >= 0; j--) {
      while (i >= at[j]!) this.rows[w--] = this.rows[i--]!;
      this.rows[w--] = rows[j]!;
    }
    this.count = count;
  }

  remove(at: number): void {
    this.rows.copyWithin(at, at + 1, this.count);
    this.count--;
  }
}
