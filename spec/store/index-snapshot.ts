// Everything a reader can see of a store's session index, as plain data: every list page (newest first, and
// in pages of three), the keys, the unreadable logs with why, each session's tools, shadow decisions, flow
// sites and search filter, and the tallies the overview, savings and servers add up. Two stores over the
// same files must give equal snapshots, however each came by its index. Not a spec itself.
import type { Store } from '../../server/store/store.ts';
import { upstreamId } from '../../server/engine/tallies.ts';
import { sessionsQuery } from '../support/sessions-query.ts';

const PAGE = 3;

/** A slot's filter in base64; null for none, 'unreadable' for one its arena cannot read. */
function filterText(store: Store, slot: number): string | null {
  if (slot < 0) return null;
  const bytes = store.sessions.filters.copy(slot);
  return bytes === null ? 'unreadable' : Buffer.from(bytes).toString('base64');
}

export function indexSnapshot(store: Store): unknown {
  const idx = store.sessions;
  const all = idx.list(sessionsQuery({ limit: 1_000_000, offset: 0 }));
  const pages = [];
  for (let offset = 0; offset < all.total; offset += PAGE) pages.push(idx.list(sessionsQuery({ limit: PAGE, offset })));
  const byRel = [...idx.byRel.values()].sort((a, b) => (a.rel < b.rel ? -1 : 1));
  return {
    size: idx.size,
    summarized: idx.summarizedCount,
    all,
    pages,
    byDomain: idx.list(sessionsQuery({ limit: 1_000_000, offset: 0, domain: 'shop' })),
    byQuery: idx.list(sessionsQuery({ limit: 1_000_000, offset: 0, q: 'read' })),
    keys: [...idx.byKey.entries()].map(([key, e]) => [key, e.rel]).sort(),
    unreadable: idx.unreadable().map((e) => [e.rel, e.error]),
    entries: byRel.map((e) => ({ rel: e.rel, key: e.key, tools: e.tools, shadow: e.shadowDecisions, sites: e.flowSites, flowLog: e.hasFlowLog, confirmLog: e.hasConfirmLog, filter: filterText(store, e.filterSlot) })),
    tallies: [...idx.tallies.cells()].map((c) => ({ ...c, upstream: upstreamId(c.upstream) })).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    shadowDecisions: idx.tallies.shadowDecisions(),
  };
}
