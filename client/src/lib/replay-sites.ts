// A replay run's calls counted per flow site they feed (the tool, ` (error)` after a failed answer): by the
// recorded answers and by the live ones, the server's flow's sites first in its order, then others by name.
import type { ReplayRun } from '../../../shared/replay.ts';

export interface SiteCount {
  site: string;
  /** Whether the server's flow has this site (false also when the server has no flow that loads). */
  in_flow: boolean;
  /** Calls whose recorded answer feeds it. */
  recorded: number;
  /** Calls whose live answer feeds it. */
  live: number;
}

export function countsBySite(run: Pick<ReplayRun, 'calls' | 'flow_sites'>): SiteCount[] {
  const flow = run.flow_sites ?? [];
  const by = new Map<string, SiteCount>();
  const row = (site: string) => {
    let r = by.get(site);
    if (!r) by.set(site, (r = { site, in_flow: flow.includes(site), recorded: 0, live: 0 }));
    return r;
  };
  for (const c of run.calls) {
    if (c.site !== null) row(c.site).recorded++;
    if (c.live_site !== null) row(c.live_site).live++;
  }
  const order = new Map(flow.map((s, i) => [s, i]));
  return [...by.values()].sort((a, b) => {
    const ia = order.get(a.site);
    const ib = order.get(b.site);
    if (ia !== undefined || ib !== undefined) return (ia ?? Infinity) - (ib ?? Infinity);
    return a.site < b.site ? -1 : a.site > b.site ? 1 : 0;
  });
}

/** The flow's sites no replayed call fed, by either answer. */
export function sitesNotFed(run: Pick<ReplayRun, 'calls' | 'flow_sites'>): string[] {
  const fed = new Set(run.calls.flatMap((c) => [c.site, c.live_site]));
  return (run.flow_sites ?? []).filter((s) => !fed.has(s));
}
