// Parsed results by path, valid while the file's stamp (size + mtime, and its companions') is unchanged,
// so a warm list reads nothing. The cache keeps only what the latest scan still has.

export class StampCache<T> {
  private readonly entries = new Map<string, { stamp: string; value: T }>();

  get(path: string, stamp: string): T | undefined {
    const e = this.entries.get(path);
    return e && e.stamp === stamp ? e.value : undefined;
  }

  set(path: string, stamp: string, value: T): void {
    this.entries.set(path, { stamp, value });
  }

  /** Forget every path the latest scan no longer has. */
  retain(paths: ReadonlySet<string>): void {
    for (const p of this.entries.keys()) if (!paths.has(p)) this.entries.delete(p);
  }

  get size(): number {
    return this.entries.size;
  }
}
