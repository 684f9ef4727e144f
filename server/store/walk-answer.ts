// The first walk's answer as it crosses the spool from the index lane's worker: its figures in one record, then
// each directory's names in a record of its own, so the event loop reads it back a directory per turn. At a
// million sessions the directories' names are ~50 MB: deserialized at once they held the loop ~50 ms.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deserialize, serialize } from 'node:v8';
import type { FirstWalk } from './first-walk.ts';

/** The answer's records, each its length (4 bytes, big-endian) and its V8-serialized value. */
export function walkRecords(walk: FirstWalk): Buffer[] {
  const figures: FirstWalk = { ...walk, dirs: walk.dirs.map((d) => ({ ...d, names: '' })) };
  const out: Buffer[] = [];
  for (const value of [figures, ...walk.dirs.map((d) => d.names)]) {
    const body = serialize(value);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    out.push(length, body);
  }
  return out;
}

/** The walk read back from its records, a directory's names per turn; throws on bytes that are not its records. */
export async function walkFromRecords(bytes: Buffer): Promise<FirstWalk> {
  let at = 0;
  const next = (): unknown => {
    const end = at + 4 <= bytes.length ? at + 4 + bytes.readUInt32BE(at) : Infinity;
    if (end > bytes.length) throw new Error('the walk answer is cut short');
    const value = deserialize(bytes.subarray(at + 4, end));
    at = end;
    return value;
  };
  const walk = next() as FirstWalk;
  for (const d of walk.dirs) {
    await nextTurn();
    const names = next();
    if (typeof names !== 'string') throw new Error('the walk answer holds no names where a directory has them');
    d.names = names;
  }
  if (at !== bytes.length) throw new Error('the walk answer holds more than its directories');
  return walk;
}
