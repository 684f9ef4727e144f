// Which slots of the search filters' file are free. A search hands its workers slots to read; a slot freed
// while a search holds the arena (its session removed, or given a new filter in another slot) is taken again
// only once every hold made before it was freed is let go, so a worker never reads another session's filter
// as the one it was sent for.

export class FilterSlots {
  private used = 0;
  private readonly free: number[] = [];
  /** Slots freed while holds were open: pairs of the holds made by then and the slot, oldest first. */
  private readonly waiting: number[] = [];
  /** Holds made so far: a hold is named by its count when made. */
  private made = 0;
  /** The holds not let go, oldest first (a Set keeps its order). */
  private readonly open = new Set<number>();

  /** A free slot: one given back, else the next never used. */
  take(): number {
    return this.free.pop() ?? this.used++;
  }

  /** Slots ever taken (the file's length in slots). */
  get size(): number {
    return this.used;
  }

  give(slot: number): void {
    if (slot < 0) return;
    if (this.open.size === 0) this.free.push(slot);
    else this.waiting.push(this.made, slot);
  }

  /** A hold: until it is let go, no slot given back from now on is taken again. Answers the letting go. */
  hold(): () => void {
    const id = ++this.made;
    this.open.add(id);
    return () => {
      if (this.open.delete(id)) this.admit();
    };
  }

  /** Slots held in memory (free and waiting), for the figures. */
  get count(): number {
    return this.free.length + this.waiting.length / 2;
  }

  /** Frees the waiting slots given back before the oldest open hold was made. */
  private admit(): void {
    const oldest = this.open.values().next().value ?? Infinity;
    let i = 0;
    while (i < this.waiting.length && this.waiting[i]! < oldest) {
      this.free.push(this.waiting[i + 1]!);
      i += 2;
    }
    if (i > 0) this.waiting.splice(0, i);
  }
}
