// The arithmetic of a virtual list (components/ui/VirtualList.tsx): rows' tops as prefix sums of their
// heights, and binary searches over them for the rows within a band of the page.

/** offsets[i] is the top of row i, offsets[count] the total: measured heights where known, else estimates. */
export function rowOffsets(count: number, height: (i: number) => number): Float64Array {
  const out = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) out[i + 1] = out[i]! + height(i);
  return out;
}

/** The first row whose bottom is below `y` (count when there is none). */
function firstEndingBelow(offsets: ArrayLike<number>, count: number, y: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows to render for the band from..to (in the list's own coordinates), at most `maxRows` of them. */
export function visibleRange(offsets: ArrayLike<number>, count: number, from: number, to: number, maxRows: number): { start: number; end: number } {
  const start = firstEndingBelow(offsets, count, from);
  // The first row whose top is at or below `to`.
  let lo = start;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < to) lo = mid + 1;
    else hi = mid;
  }
  return { start, end: Math.min(Math.max(start, lo), start + maxRows) };
}

/** The row at `y`, the last one when `y` is past the end. */
export function rowAt(offsets: ArrayLike<number>, count: number, y: number): number {
  return Math.min(firstEndingBelow(offsets, count, y), Math.max(0, count - 1));
}

/** start, start + 1, …, end - 1. */
export function indicesFrom(start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
}
