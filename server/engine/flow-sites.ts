// A flow's evidence from the session index (shared/flow-sites.ts): per site, the sessions of the flow's
// domain whose flow log shows the flow acting there. Pure and one pass over the indexed sessions (each carries
// its flow log's per-site counts), so no log is read per request. Each listed session's `line` is left null
// here: finding it reads the log (data/flow-evidence-lines.ts).
import type { FlowSiteEvidence, FlowSites } from '../../shared/flow-sites.ts';
import type { IndexedSession } from './sessions.ts';
import { newestFirst } from './session-filter.ts';

/** The flow as the evidence needs it: its key, domain and site names in its own order. */
export interface FlowSitesOf {
  key: string;
  domain: string;
  sites: readonly string[];
}

export function flowSiteEvidence(flow: FlowSitesOf, sessions: readonly IndexedSession[], limit: number): FlowSites {
  const bySite = new Map<string, FlowSiteEvidence>();
  const entry = (site: string, inFlow: boolean) => {
    let e = bySite.get(site);
    if (!e) {
      e = { site, in_flow: inFlow, sessions: 0, lookups: 0, hand_backs: 0, shadow: 0, items: [] };
      bySite.set(site, e);
    }
    return e;
  };
  for (const site of flow.sites) entry(site, true);

  // The index is newest first already; sorting once keeps the promise if a caller's is not.
  const order = (a: IndexedSession, b: IndexedSession) => {
    if (a.started_unix_ms !== b.started_unix_ms) return b.started_unix_ms - a.started_unix_ms;
    if (a.session_id !== b.session_id) return a.session_id < b.session_id ? 1 : -1;
    return newestFirst(a.summary, b.summary);
  };
  let sorted = true;
  for (let i = 1; i < sessions.length && sorted; i++) sorted = order(sessions[i - 1]!, sessions[i]!) <= 0;
  const inOrder = sorted ? sessions : [...sessions].sort(order);
  // Newest first, so a site's first `limit` sessions are its items; nothing is kept of the others (at 100k,
  // keeping every session's counts until the end cost a map per session).
  for (const s of inOrder) {
    if (!s.flowSites || s.domain !== flow.domain) continue;
    for (const at of s.flowSites) {
      const e = entry(at.site, false);
      e.sessions++;
      e.lookups += at.lookups;
      e.hand_backs += at.hand_backs;
      e.shadow += at.shadow;
      if (e.items.length < limit) {
        const { key, session_id, mode, started_unix_ms } = s.summary;
        e.items.push({ key, session_id, mode, started_unix_ms, lookups: at.lookups, hand_backs: at.hand_backs, shadow: at.shadow, line: null });
      }
    }
  }

  const flowOrder = new Map(flow.sites.map((s, i) => [s, i]));
  const ordered = [...bySite.values()].sort((a, b) => {
    const ia = flowOrder.get(a.site);
    const ib = flowOrder.get(b.site);
    if (ia !== undefined || ib !== undefined) return (ia ?? Infinity) - (ib ?? Infinity);
    return a.site < b.site ? -1 : a.site > b.site ? 1 : 0;
  });
  return { key: flow.key, domain: flow.domain, sites: ordered };
}
