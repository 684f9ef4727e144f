// The threshold each registered server serves this flow at: its entry's `threshold`, else the proxy's own
// default (--flow-threshold 0.3). A server that only records runs no flow, so it serves none.
import { FLOW_THRESHOLD_DEFAULT } from '../../../../shared/limits.ts';
import type { ServerView } from '../../../../shared/servers.ts';

export interface Serving {
  server: string;
  mode: 'shadow' | 'serve';
  threshold: number;
  /** The entry sets it; else it is the proxy's default. */
  set: boolean;
}

export function servingThresholds(servers: readonly ServerView[], flowKey: string): Serving[] {
  const out: Serving[] = [];
  for (const s of servers) {
    if (s.mode === 'record' || s.flow_summary?.key !== flowKey) continue;
    out.push({ server: s.name, mode: s.mode, threshold: s.threshold ?? FLOW_THRESHOLD_DEFAULT, set: s.threshold !== null });
  }
  return out;
}
