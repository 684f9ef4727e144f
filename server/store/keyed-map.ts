// The index's entries by key, in several maps rather than one: a Map grows by doubling its table in one
// step, and at half a million keys that step held the event loop ~30 ms. Split by the key's last characters
// (an engine's log ends in its process id, a hashed key in hex), each map is a sixteenth of the size, and so
// is each of its steps. Iteration goes map by map: nothing reads the entries in the order they were keyed.

const SHARD_BITS = 4;
export const SHARDS = 1 << SHARD_BITS;
/** The key's last characters that choose its map. */
const TAIL = 8;

/** Which of the maps holds `key`. */
export function shardOf(key: string): number {
  let h = key.length;
  for (let i = Math.max(0, key.length - TAIL); i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return (h ^ (h >>> SHARD_BITS) ^ (h >>> (2 * SHARD_BITS))) & (SHARDS - 1);
}

export class KeyedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());

  get size(): number {
    let n = 0;
    for (const s of this.shards) n += s.size;
    return n;
  }

  get(key: string): V | undefined {
    return this.shards[shardOf(key)]!.get(key);
  }

  has(key: string): boolean {
    return this.shards[shardOf(key)]!.has(key);
  }

  set(key: string, value: V): this {
    this.shards[shardOf(key)]!.set(key, value);
    return this;
  }

  delete(key: string): boolean {
    return this.shards[shardOf(key)]!.delete(key);
  }

  /**
   * Every value, in an array of their own: each map spread natively, then joined (a generator over the maps took
   * 60-80 ms for a million, ten times one map's spread).
   */
  valuesArray(): V[] {
    return ([] as V[]).concat(...this.shards.map((s) => [...s.values()]));
  }

  /** Iterators over a snapshot (valuesArray): what is set or deleted meanwhile is not seen. */
  values(): IterableIterator<V> {
    return this.valuesArray().values();
  }

  keys(): IterableIterator<string> {
    return ([] as string[]).concat(...this.shards.map((s) => [...s.keys()])).values();
  }

  entries(): IterableIterator<[string, V]> {
    return ([] as [string, V][]).concat(...this.shards.map((s) => [...s.entries()])).values();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  forEach(each: (value: V, key: string) => void): void {
    for (const [k, v] of this.entries()) each(v, k);
  }
}
