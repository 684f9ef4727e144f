// What a flow would meet when served, checked against the tools a server last listed (flow-review.md §6):
// a read tool the server now marks writable, a lookup it no longer lists, a lookup whose input changed
// since the flow pinned it; and, independent of sessions, an arbiter with no model key here. The caller
// picks the listing (the newest readable session of the flow's domain that listed tools).
import { compareText } from './format.ts';
import { hasArbiter, lookups, type Flow } from './flows.ts';

/** A tool as a session listed it: its readOnlyHint, if boolean, and its input contract, if it had a schema. */
export interface ListedTool {
  name: string;
  read_only_hint: boolean | null;
  contract: string | null;
}

/** How the warnings name the listing they were checked against. */
export function listingSource(sessionId: string): string {
  return `the latest recorded tools/list (session ${sessionId})`;
}

export const ARBITER_KEY_WARNING =
  "the flow has an arbiter, which asks TypeSafe's Jev when served: TYPESAFE_API_KEY is not set here, so give the proxy one, or serve it with the habit or reach decider";

/** The tool warnings (§6 items 1–3), in order; none for an empty listing. */
export function toolWarnings(flow: Flow, tools: readonly ListedTool[], source: string): string[] {
  if (tools.length === 0) return [];
  const listed = new Map<string, ListedTool>();
  for (const t of tools) listed.set(t.name, t);
  const looked = lookups(flow);
  const reads = [
    ...new Set([...Object.keys(flow.manifest.tools).filter((t) => flow.manifest.tools[t] === 'read'), ...looked]),
  ].sort(compareText);
  const out: string[] = [];
  for (const t of reads) {
    if (listed.get(t)?.read_only_hint === false) {
      out.push(`\`${t}\` is read-only in the flow, but ${source} marks it readOnlyHint: false, so the proxy will not look it up`);
    }
  }
  for (const t of looked) {
    if (!listed.has(t)) out.push(`the flow looks up \`${t}\`, which ${source} does not list`);
  }
  const pinned = Object.entries(flow.contracts ?? {}).sort(([a], [b]) => compareText(a, b));
  for (const [t, contract] of pinned) {
    if (!looked.includes(t)) continue;
    const now = listed.get(t)?.contract;
    if (now !== undefined && now !== null && now !== contract) {
      out.push(`\`${t}\`'s input changed since the flow was learned (${contract} → ${now} in ${source}), so the proxy no longer looks it up`);
    }
  }
  return out;
}

/**
 * Every warning of a flow's detail: the tool warnings against the listing (null when no session of the
 * domain listed tools), then the arbiter-key warning when the flow has an arbiter and no key is set.
 */
export function flowWarnings(
  flow: Flow,
  listing: { sessionId: string; tools: readonly ListedTool[] } | null,
  keySet: boolean,
): string[] {
  const out = listing ? toolWarnings(flow, listing.tools, listingSource(listing.sessionId)) : [];
  if (hasArbiter(flow) && !keySet) out.push(ARBITER_KEY_WARNING);
  return out;
}
