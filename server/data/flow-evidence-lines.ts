// A flow's evidence with the line of each listed session's log that shows the flow's first decision at the
// site, so a row links to that decision (`/sessions/<key>?line=<N>`). Finding it asks the session's outline
// (data/session-views.ts) and a count of lines in the pool; the answers are kept by the log's stamps.
import type { FlowSites } from '../../shared/flow-sites.ts';
import { decisionCall } from '../engine/session/decision-line.ts';
import type { DataContext } from './data-context.ts';
import { stampNow } from '../store/stamp.ts';
import { sessionIndex } from './session-views.ts';
import { UnreadableSession } from './sessions.ts';

export async function withDecisionLines(state: DataContext, evidence: FlowSites): Promise<FlowSites> {
  const catalog = await state.catalog();
  const cache = state.caches.decisionLines;
  const wanted = new Map<string, Set<string>>();
  for (const e of evidence.sites) for (const i of e.items) wanted.set(i.key, (wanted.get(i.key) ?? new Set()).add(e.site));

  const found = new Map<string, Map<string, number | null>>();
  // One session at a time: its outline is parsed once for all its sites, and the outline memo is not churned.
  for (const [key, sites] of wanted) {
    const file = catalog.session(key);
    if (!file) continue;
    const stamp = stampNow(file);
    const lines = cache.get(file.path, stamp) ?? new Map<string, number | null>();
    const missing = [...sites].filter((s) => !lines.has(s));
    if (missing.length > 0) {
      try {
        const index = await sessionIndex(state, file);
        for (const site of missing) {
          const n = decisionCall(index.outline, site);
          const place = n === null ? null : (index.places[n]?.request ?? null);
          const r = place ? await state.pool.run('sessionLineAtTask', { path: file.path, offset: place.offset }) : null;
          lines.set(site, r?.ok ? r.value : null);
        }
      } catch (err) {
        // A log that no longer reads as a session has no line to link to; the row still links to the session.
        if (!(err instanceof UnreadableSession)) throw err;
        for (const site of missing) lines.set(site, null);
      }
      cache.set(file.path, stamp, lines);
    }
    found.set(key, lines);
  }
  cache.retain(new Set([...wanted.keys()].flatMap((k) => catalog.session(k)?.path ?? [])));
  return {
    ...evidence,
    sites: evidence.sites.map((e) => ({ ...e, items: e.items.map((i) => ({ ...i, line: found.get(i.key)?.get(e.site) ?? null })) })),
  };
}
