// GET /api/flows/:key/whatif: the newest sessions of the flow's domain whose flow logs show the flow deciding
// (picked from the index, which keeps each log's per-site counts), each flow log's outline (read in the pool
// and kept by its stamp, so a person dragging the threshold re-reads nothing), and the counts at T.
import type { WhatIf } from '../../shared/whatif.ts';
import { whatIfAt, type OutlinedDecision } from '../engine/whatif.ts';
import type { DataContext } from './data-context.ts';
import type { FlowFile } from './catalog.ts';
import { loadedOrThrow, loadFlowEntry } from './flows.ts';
import { sessionSummaries } from './sessions.ts';

/** Flow logs read per pool task when outlines are missing. */
const OUTLINE_BATCH = 200;

export async function flowWhatIf(state: DataContext, file: FlowFile, threshold: number, sessions: number): Promise<WhatIf> {
  const flow = loadedOrThrow(await loadFlowEntry(state, file));
  const { entries } = await sessionSummaries(state);
  const picked: { key: string; flowLog: string; stamp: string }[] = [];
  // A flow log does not name its flow: the sessions are those of the flow's domain, as its evidence's are.
  // The index's stamps (current as of this request) say whether a kept outline still holds: no stat per log.
  for (const e of entries) {
    if (picked.length >= sessions) break;
    if (e.domain !== flow.domain || e.flowLog === null || e.flowSites === null || e.stamp === null) continue;
    picked.push({ key: e.key, flowLog: e.flowLog, stamp: e.stamp });
  }

  const cache = state.caches.whatIfOutlines;
  const missing = picked.filter((p) => cache.get(p.flowLog, p.stamp) === undefined);
  for (let i = 0; i < missing.length; i += OUTLINE_BATCH) {
    const batch = missing.slice(i, i + OUTLINE_BATCH);
    const outlines = await state.pool.run('flowLogOutlinesTask', { paths: batch.map((p) => p.flowLog) });
    batch.forEach((p, j) => cache.set(p.flowLog, p.stamp, outlines[j] ?? null));
  }
  if (missing.length > 0) cache.retain(new Set(entries.flatMap((e) => e.flowLog ?? [])));

  const read: { key: string; decisions: readonly OutlinedDecision[] }[] = [];
  for (const p of picked) {
    const decisions = cache.get(p.flowLog, p.stamp);
    if (decisions && decisions.length > 0) read.push({ key: p.key, decisions });
  }
  return whatIfAt(read, threshold);
}
