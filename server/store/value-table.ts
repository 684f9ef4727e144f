// Ids for values many sessions share (a domain, an agent, a mode, an upstream, a set of tools called, a flow
// log's counts by site): each distinct value is kept once, and a session's row holds its id, 4 bytes, rather
// than a pointer and an object of its own.

/** A value's id in its table; -1 for none. */
export const NONE = -1;
/** Values remembered by identity (idOf). */
const RECENT = 8;

export class ValueTable<T extends NonNullable<unknown>> {
  private readonly ids = new Map<string, number>();
  private readonly values: T[] = [];
  /** Ids of objects already met, by identity: a batch's answers share one copy of each (index-wire.ts). */
  private readonly seen = new WeakMap<object, number>();
  /**
   * The values last asked for and their ids, by identity: sessions read in a row mostly share theirs, and one
   * table serves several fields of a row (domain, agent, mode), so one remembered value would keep missing.
   */
  private readonly recent: (T | null)[] = new Array<T | null>(RECENT).fill(null);
  private readonly recentIds = new Int32Array(RECENT).fill(NONE);
  private nextRecent = 0;

  /**
   * `identify`: the same text for equal values, different for different ones; `keep`: the copy kept of a new
   * value (frozen, say), since every session with it will share it.
   */
  constructor(
    private readonly identify: (value: T) => string,
    private readonly keep: (value: T) => T = (value) => value,
    /** Remember objects met by identity: false for values made afresh for each session (a WeakMap entry each would only cost). */
    private readonly byIdentity = true,
  ) {}

  /** The id of `value` (null: NONE), kept from here on. */
  idOf(value: T | null): number {
    if (value === null) return NONE;
    const recent = this.recent;
    for (let i = 0; i < RECENT; i++) if (recent[i] === value) return this.recentIds[i]!;
    const id = this.lookUp(value);
    recent[this.nextRecent] = value;
    this.recentIds[this.nextRecent] = id;
    this.nextRecent = (this.nextRecent + 1) % RECENT;
    return id;
  }

  private lookUp(value: T): number {
    const known = this.byIdentity && typeof value === 'object' ? this.seen.get(value) : undefined;
    if (known !== undefined) return known;
    const key = this.identify(value);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(this.keep(value));
      this.ids.set(key, id);
    }
    if (this.byIdentity && typeof value === 'object') this.seen.set(value, id);
    return id;
  }

  /** The id of a value already kept, or NONE: a filter by a value no session has matches none. */
  find(value: T): number {
    return this.ids.get(this.identify(value)) ?? NONE;
  }

  at(id: number): T | null {
    return id === NONE ? null : this.values[id]!;
  }
}
