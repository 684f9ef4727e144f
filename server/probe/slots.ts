// How many connection tests run at once: each may hold a server process tree and its read budget, so one
// more than the most is refused (the route answers 429) rather than queued behind tests of up to 15 s each.
import { PROBE_RUNNING_MAX, PROBE_TIMEOUT_MS } from '../../shared/limits.ts';

let running = 0;

export const busyText = `${PROBE_RUNNING_MAX} connection tests are running, the most the console runs at once: test again when one has ended (each ends within ${PROBE_TIMEOUT_MS / 1000} s)`;

/** A slot's release, or null when every slot is taken. */
export function takeProbeSlot(): (() => void) | null {
  if (running >= PROBE_RUNNING_MAX) return null;
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
  };
}
