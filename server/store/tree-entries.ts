// One directory's entries as the tree keeps them: name → what it is. Taken from a walk or a saved index as its
// sorted names, kept as they are (a million logs' directories hold 1.6M names: a map of them cost the start
// seconds and its memory), with what changed since in a small map and set beside them.
import type { EntryKind } from './listing.ts';
import { sortedHas } from './saved-tree.ts';

export class TreeEntries {
  /** Come or changed kind since the sorted names were taken. */
  private readonly added = new Map<string, EntryKind>();
  /** Of the sorted names, those gone (or changed kind: then in `added` too). */
  private readonly gone = new Set<string>();

  /** `sorted`: names by code unit; `dirs`: the directories among them. */
  constructor(
    private readonly sorted: readonly string[] = [],
    private readonly dirs: ReadonlySet<string> = new Set(),
  ) {}

  get(name: string): EntryKind | undefined {
    const kind = this.added.get(name);
    if (kind !== undefined) return kind;
    if (this.gone.has(name) || !this.inSorted(name)) return undefined;
    return this.dirs.has(name) ? 'dir' : 'file';
  }

  set(name: string, kind: EntryKind): void {
    if (this.inSorted(name) && !this.gone.has(name) && (this.dirs.has(name) ? 'dir' : 'file') === kind) return;
    if (this.inSorted(name)) this.gone.add(name);
    this.added.set(name, kind);
  }

  delete(name: string): void {
    this.added.delete(name);
    if (this.inSorted(name)) this.gone.add(name);
  }

  /** The names sorted by code unit, and the directories among them (the sorted names as they are, when nothing changed). */
  sortedNames(): { names: string[]; dirs: string[] } {
    if (this.added.size === 0 && this.gone.size === 0) return { names: [...this.sorted], dirs: [...this.dirs].sort() };
    // The few added merged into the sorted names in one pass: sorting half a million names again took ~0.5 s.
    const added = [...this.added.keys()].sort();
    const gone = this.gone.size > 0 ? this.gone : null;
    const names: string[] = [];
    let a = 0;
    for (const name of this.sorted) {
      if (gone?.has(name) === true) continue;
      while (a < added.length && added[a]! < name) names.push(added[a++]!);
      names.push(name);
    }
    while (a < added.length) names.push(added[a++]!);
    const dirs = [...this.dirs].filter((name) => gone?.has(name) !== true);
    for (const [name, kind] of this.added) if (kind === 'dir') dirs.push(name);
    return { names, dirs: dirs.sort() };
  }

  /** Each name ending with `suffix`, with its kind (a loop over the sorted names, not a generator: the tree holds 1.6M at a million logs). */
  endingWith(suffix: string, each: (name: string, kind: EntryKind) => void): void {
    const gone = this.gone.size > 0 ? this.gone : null;
    for (const name of this.sorted) if (name.endsWith(suffix) && gone?.has(name) !== true) each(name, this.dirs.has(name) ? 'dir' : 'file');
    for (const [name, kind] of this.added) if (name.endsWith(suffix)) each(name, kind);
  }

  *[Symbol.iterator](): Generator<[string, EntryKind]> {
    for (const name of this.sorted) if (!this.gone.has(name)) yield [name, this.dirs.has(name) ? 'dir' : 'file'];
    yield* this.added;
  }

  *keys(): Generator<string> {
    for (const [name] of this) yield name;
  }

  private inSorted(name: string): boolean {
    return sortedHas(this.sorted, name);
  }
}
