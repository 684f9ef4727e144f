// Worker tasks of the servers area: reading and loading a server's flow happens here, off the event loop
// (a flow can be large). Each returns plain data, `{ ok: true, value }` or `{ ok: false, message }`.
import { readFileSync, statSync } from 'node:fs';
import type { ToolInfo } from '../../../shared/sessions.ts';
import { hasArbiter, hasReach, loadFlow, lookups, type Flow } from '../../engine/flows.ts';

type TaskResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** What the registry needs to know of a server's flow. */
export interface ServerFlowFacts {
  /** The path names a regular file (links followed). */
  file: boolean;
  /** Why the flow does not load; null when it loads (or is not a file). */
  error: string | null;
  /** manifest.domain when it loads. */
  domain: string | null;
  arbiter: boolean;
  reach: boolean;
}

function readFlow(path: string): Flow {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`reading it: ${(e as Error).message}`);
  }
  return loadFlow(text);
}

export function serverFlowTask(input: { path: string }): TaskResult<ServerFlowFacts> {
  const st = statSync(input.path, { throwIfNoEntry: false });
  if (!st?.isFile()) return { ok: true, value: { file: false, error: null, domain: null, arbiter: false, reach: false } };
  try {
    const flow = readFlow(input.path);
    return { ok: true, value: { file: true, error: null, domain: flow.manifest.domain, arbiter: hasArbiter(flow), reach: hasReach(flow) } };
  } catch (e) {
    return { ok: true, value: { file: true, error: (e as Error).message, domain: null, arbiter: false, reach: false } };
  }
}

const backticked = (t: string) => `\`${t}\``;

/**
 * What a tools/list says against a flow (flow-review.md §6, items 1–3): read tools the server marks as
 * writes, lookups it does not list, and pinned inputs that changed. `source` names the listing.
 */
export function toolWarnings(flow: Flow, tools: readonly ToolInfo[], source: string): string[] {
  const listed = new Map(tools.map((t) => [t.name, t]));
  const looks = lookups(flow);
  const reads = [...new Set([...Object.entries(flow.manifest.tools).filter(([, k]) => k === 'read').map(([t]) => t), ...looks])].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  const out: string[] = [];
  for (const t of reads) {
    if (listed.get(t)?.read_only_hint === false) {
      out.push(`${backticked(t)} is read-only in the flow, but ${source} marks it readOnlyHint: false, so the proxy will not look it up`);
    }
  }
  if (listed.size > 0) {
    for (const t of looks) if (!listed.has(t)) out.push(`the flow looks up ${backticked(t)}, which ${source} does not list`);
  }
  const contracts = Object.entries(flow.contracts ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [t, pinned] of contracts) {
    if (!looks.includes(t)) continue;
    const now = listed.get(t)?.contract;
    if (now !== undefined && now !== null && now !== pinned) {
      out.push(`${backticked(t)}'s input changed since the flow was learned (${pinned} → ${now} in ${source}), so the proxy no longer looks it up`);
    }
  }
  return out;
}

/** The probe's flow_warnings: the listed tools against the flow at `path`; none when it does not load. */
export function probeWarningsTask(input: { path: string; tools: ToolInfo[] }): TaskResult<string[]> {
  try {
    return { ok: true, value: toolWarnings(readFlow(input.path), input.tools, 'the server') };
  } catch {
    return { ok: true, value: [] };
  }
}
