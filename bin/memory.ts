// Imported first by the launcher. The console holds the index of every session for as long as it runs (some
// 150 MB live at 100k sessions). While the index is built, V8's default heuristics apply: optimizing for size
// from the start kept the young generation tiny and let the old one grow a few MB at a time, so the heap was
// collected some 300 times while it filled (the main thread's CPU for a cold index at 100k: 15 s, against
// 5.5 s). Once it is built, optimizing for size keeps the heap near what is live: V8's memory reducer then
// gives back what building left over within seconds, incrementally (RSS at 100k: 335 MB at its peak, 220 MB
// five seconds after; a forced full collection held the event loop and gave back less).
import { setFlagsFromString } from 'node:v8';

export function settleHeap(): void {
  setFlagsFromString('--optimize-for-size');
}
