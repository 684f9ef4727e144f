// A flow's evidence from the session index (shared/flow-sites.ts): per site, the sessions of the flow's
// domain whose flow log shows the flow acting there. Pure and one pass over the indexed sessions (each carries
// its flow log's per-site counts), so no log is read per request.
import type { FlowSiteEvidence, FlowSites } from '../../shared/flow-sites.ts';
import type { IndexedSession } from './sessions.ts';
import { newestFirst } from './session-list.ts';

/** The flow as the evidence needs it: its key, domain and site names in its own order. */
export interface FlowSitesOf {
  key: string;
  domain: string;
  sites: readonly string[];
}

export function flowSiteEvidence(flow: FlowSitesOf, sessions: readonly IndexedSession[], limit: number): FlowSites {
  const bySite = new Map<string, { evidence: FlowSiteEvidence; sessions: IndexedSession[] }>();
  const entry = (site: string, inFlow: boolean) => {
    let e = bySite.get(site);
    if (!e) {
      e = { evidence: { site, in_flow: inFlow, sessions: 0, lookups: 0, hand_backs: 0, shadow: 0, items: [] }, sessions: [] };
      bySite.set(site, e);
    }
    return e;
  };
  for (const site of flow.sites) entry(site, true);

  // The index is newest first already; sorting once keeps the promise if a caller's is not.
  const order = (a: IndexedSession, b: IndexedSession) => newestFirst(a.summary, b.summary);
  let sorted = true;
  for (let i = 1; i < sessions.length && sorted; i++) sorted = order(sessions[i - 1]!, sessions[i]!) <= 0;
  const inOrder = sorted ? sessions : [...sessions].sort(order);
  const counts = new Map<IndexedSession, Map<string, { lookups: number; hand_backs: number; shadow: number }>>();
  for (const s of inOrder) {
    if (s.summary.domain !== flow.domain || !s.flowSites) continue;
    const mine = new Map<string, { lookups: number; hand_backs: number; shadow: number }>();
    for (const at of s.flowSites) {
      const e = entry(at.site, false);
      e.evidence.sessions++;
      e.evidence.lookups += at.lookups;
      e.evidence.hand_backs += at.hand_backs;
      e.evidence.shadow += at.shadow;
      e.sessions.push(s);
      mine.set(at.site, at);
    }
    counts.set(s, mine);
  }

  const flowOrder = new Map(flow.sites.map((s, i) => [s, i]));
  const ordered = [...bySite.values()].sort((a, b) => {
    const ia = flowOrder.get(a.evidence.site);
    const ib = flowOrder.get(b.evidence.site);
    if (ia !== undefined || ib !== undefined) return (ia ?? Infinity) - (ib ?? Infinity);
    return a.evidence.site < b.evidence.site ? -1 : a.evidence.site > b.evidence.site ? 1 : 0;
  });
  for (const { evidence, sessions } of ordered) {
    evidence.items = sessions.slice(0, limit).map((s) => {
      const c = counts.get(s)!.get(evidence.site)!;
      const { key, session_id, mode, started_unix_ms } = s.summary;
      return { key, session_id, mode, started_unix_ms, lookups: c.lookups, hand_backs: c.hand_backs, shadow: c.shadow };
    });
  }
  return { key: flow.key, domain: flow.domain, sites: ordered.map((o) => o.evidence) };
}
