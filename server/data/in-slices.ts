// Work over many items in slices, letting the event loop go between them: a registry of tens of thousands of
// entries must not hold up the requests that arrive while it is listed.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Registry entries viewed per turn of the event loop. */
export const VIEW_SLICE = 500;

/** `fn` over `items`, `size` at a time, in order; other callbacks run between slices. */
export async function mapInSlices<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    for (const r of await Promise.all(items.slice(i, i + size).map(fn))) out.push(r);
    if (i + size < items.length) await nextTurn();
  }
  return out;
}
