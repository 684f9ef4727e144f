// The session list of GET /api/sessions (session-format §6.1): filters in the order domain, mode, q, newest
// first by (started_unix_ms, session_id), `total` counted before paging. The filter `q` also matches the
// tools called in a session, which the wire summary does not carry: the summary task adds them as
// `tools_called` (see IndexedSummary), and the items this answers leave them out again.
import type { SessionList, SessionsQuery, SessionSummary } from '../../shared/sessions.ts';
import { publicSummary } from './sessions.ts';
import { sessionComparator, startedWithin, sumsOf, traitsPredicate } from './session-filter.ts';

/** The tools called in a session, when its summary came from the summary task. */
function toolsCalled(s: SessionSummary): readonly unknown[] {
  const tools = (s as { tools_called?: unknown }).tools_called;
  return Array.isArray(tools) ? tools : [];
}

/** The shadow decisions of a session, when its summary came from the summary task. */
function shadowDecisionsOf(s: SessionSummary): number {
  const n = (s as { shadow_decisions?: unknown }).shadow_decisions;
  return typeof n === 'number' ? n : 0;
}

export function listSessions(summaries: readonly SessionSummary[], query: SessionsQuery): SessionList {
  let found = [...summaries];
  const { domain, mode } = query;
  if (domain) found = found.filter((s) => s.domain === domain);
  if (mode) found = found.filter((s) => s.mode === mode);
  if (query.q) {
    const needle = query.q.toLowerCase();
    const hit = (text: unknown) => typeof text === 'string' && text.toLowerCase().includes(needle);
    found = found.filter(
      (s) =>
        hit(s.session_id) ||
        hit(s.domain) ||
        hit(s.agent) ||
        toolsCalled(s).some(hit),
    );
  }
  if (query.from || query.to) found = found.filter(startedWithin(query));
  const traits = traitsPredicate(query);
  const facts = (s: SessionSummary) => ({ tools: toolsCalled(s).filter((t) => typeof t === 'string'), shadowDecisions: shadowDecisionsOf(s) });
  if (traits) found = found.filter((s) => traits(s, facts(s)));
  found.sort(sessionComparator(query.sort, query.order));
  const offset = Math.max(0, query.offset);
  const page = found.slice(offset, offset + Math.max(0, query.limit));
  return { total: found.length, items: page.map(publicSummary), sums: sumsOf(found.map((s) => [s, facts(s).shadowDecisions])) };
}
