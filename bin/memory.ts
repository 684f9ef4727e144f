// Imported first by the launcher. The console holds the index of every session for as long as it runs (some
// 130 MB live at 100k sessions). While the index is built, V8's default heuristics apply: optimizing for size
// from the start kept the young generation tiny and let the old one grow a few MB at a time, so the heap was
// collected some 300 times while it filled (the main thread's CPU for a cold index at 100k: 15 s, against
// 5.5 s). Once it is built, optimizing for size keeps the heap near what is live.
//
// Building leaves the old generation fragmented, and V8's memory reducer compacts it at the first quiet
// moment it finds: at 100k sessions that was several memory-reducing collections of 60–120 ms pauses each
// (copying what is live off fragmented pages), and the first quiet moment was often a session's detail being
// built in the pool, so /api/health waited 50–140 ms then. So after a cold index that read its logs the heap is
// compacted once, on purpose, as soon as the index is in: one full collection at that moment, after which the
// reducer's collections find little to move. A restart that took its summaries from the saved index is not
// collected so (settleHeap).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full garbage collection, or null where V8 will not give one (the flag cannot be set). */
function fullCollection(): (() => void) | null {
  try {
    // `gc` is installed in contexts made while --expose-gc is on; this one is made only to take it.
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * From here on the heap is kept near what is live. `collect`: compact it now, with one full collection. A
 * restart that took its summaries from the saved index made them one at a time, each garbage young, and
 * leaves little to move: there the forced collection is one long pause for what a memory-reducing collection
 * (incremental, in short pauses) does a few seconds later.
 */
export function settleHeap({ collect = true }: { collect?: boolean } = {}): void {
  setFlagsFromString('--optimize-for-size');
  if (collect) fullCollection()?.();
}
