// Flows as the console serves them: each file loaded in the worker pool and cached by path + size + mtime
// (a flow rewritten on disk is read again), the list summaries (with the registry servers that serve each
// file and the staged-learning link), the review at a threshold, the warnings against the latest recorded
// tools/list of the flow's domain, and the diff. A file that does not load is a value here (its error);
// the routes decide what that means (an `error` field in the list, 422 on detail and diff).
import type { DriftCheck } from '../../shared/drift.ts';
import { driftChecks } from './drift-checks.ts';
import { readFile, stat } from 'node:fs/promises';
import { lstatSync, realpathSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { basename, dirname, join } from 'node:path';
import type { FlowDetail, FlowDiffView, FlowSummary, StageLink, VersionOf } from '../../shared/flows.ts';
import { compareText } from '../engine/format.ts';
import {
  hasArbiter,
  hasReach,
  lookups,
  promotionCounts,
  servedDecider,
  siteKeys,
  type Flow,
} from '../engine/flows.ts';
import { flowWarnings } from '../engine/warnings.ts';
import type { DataContext } from './data-context.ts';
import type { LoadedFlow } from '../workers/tasks/flows.ts';
import type { Catalog, FlowFile, SessionFile } from './catalog.ts';
import type { ListedTools } from './data-caches.ts';
import { canonicalPath, pathsSeen, resolveRequestPath, type PathsSeen } from './paths.ts';
import { statStamp } from '../store/stamp.ts';
import { readRegistry } from './registry.ts';
import { VIEW_SLICE } from './in-slices.ts';
import { sessionDetail, sessionsOfDomainNewestFirst, sessionSummaries } from './sessions.ts';
import type { Result } from '../result.ts';
import { errorText } from '../../shared/error-text.ts';
import { FLOW_FILE, STAGED_FLOW_FILE } from '../store/log-names.ts';

/** A flow file, loaded or not, with its stamps. */
export interface FlowEntry extends LoadedFlow {
  file: FlowFile;
  size_bytes: number;
  modified_unix_ms: number;
}

/** The flow does not load: the routes answer 422 with this message. */
export class FlowUnreadable extends Error {}


/** Loads a flow file through the cache; a file that cannot be read or parsed carries its error. */
export async function loadFlowEntry(state: DataContext, file: FlowFile): Promise<FlowEntry> {
  let size_bytes = 0;
  let modified_unix_ms = 0;
  let stamp = '-';
  try {
    const st = await stat(file.path);
    size_bytes = st.size;
    modified_unix_ms = Math.floor(st.mtimeMs);
    stamp = statStamp(st);
  } catch {
    // the read below reports why
  }
  const cache = state.caches.flows;
  let loaded = stamp === '-' ? undefined : cache.get(file.path, stamp);
  if (!loaded) {
    try {
      const r = await state.pool.run('loadFlowTask', { path: file.path });
      loaded = r.ok ? r.value : { format_version: 0, flow: null, error: r.message };
      if (stamp !== '-') cache.set(file.path, stamp, loaded);
    } catch (err) {
      // A worker that died on this file (say, out of memory) fails this flow only, and is retried next time.
      loaded = { format_version: 0, flow: null, error: `reading it: ${errorText(err)}` };
    }
  }
  return { ...loaded, file, size_bytes, modified_unix_ms };
}

/** The loaded flow, or FlowUnreadable with `{rel} does not load: {error}`. */
export function loadedOrThrow(entry: FlowEntry): Flow {
  if (entry.flow) return entry.flow;
  throw new FlowUnreadable(`${entry.file.rel} does not load: ${entry.error ?? 'unknown error'}`);
}

// ---------------------------------------------------------------------------------------------------------
// The summary's links: served_by and stage
// ---------------------------------------------------------------------------------------------------------

function canonical(path: string): string | null {
  try {
    // A path that is not there answers null without an error (and its stack) made: many flows named may be missing.
    return lstatSync(path, { throwIfNoEntry: false }) === undefined ? null : realpathSync(path);
  } catch {
    return null;
  }
}

/** The registry's entries that serve a flow: their name, the flow's path and its canonical path. */
export type ServedFlows = { name: string; path: string; canonical: string | null }[];

/**
 * The registry's servers with a flow, as resolved paths; an unreadable registry counts as empty. `seen`: what
 * the caller's own resolutions looked at already (the servers list resolves the same flows).
 */
export async function servedFlows(state: DataContext, seen: PathsSeen = pathsSeen()): Promise<ServedFlows> {
  let servers;
  try {
    servers = (await readRegistry(state.config.dataDir, state.pool)).servers;
  } catch {
    return [];
  }
  const out: ServedFlows = [];
  // Many entries name the same flow: each distinct one is resolved once.
  const resolved = new Map<string, { path: string; canonical: string | null } | null>();
  const pathCtx = { dataDir: state.config.dataDir, home: state.config.home, seen };
  const resolve = (flow: string) => {
    try {
      const path = resolveRequestPath(flow, pathCtx);
      // The resolution looked at this path already: its answer is taken, not asked again.
      return { path, canonical: canonicalPath(path, pathCtx.seen) };
    } catch {
      return null; // a flow path the registry cannot resolve serves nothing
    }
  };
  for (const [i, s] of servers.entries()) {
    // A registry of tens of thousands of entries lets other requests in between slices.
    if (i > 0 && i % VIEW_SLICE === 0) await nextTurn();
    if (!s.flow) continue;
    let r = resolved.get(s.flow);
    if (r === undefined) resolved.set(s.flow, (r = resolve(s.flow)));
    if (r !== null) out.push({ name: s.name, ...r });
  }
  return out;
}

function servedBy(file: FlowFile, served: ServedFlows): string[] {
  const own = canonical(file.path);
  return served.filter((s) => s.path === file.path || (own !== null && s.canonical === own)).map((s) => s.name);
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([readFile(a), readFile(b)]);
    return x.equals(y);
  } catch {
    return false;
  }
}

/** The staged-learning link of a flow file (flow-review.md §7.1). */
async function stageLink(file: FlowFile, catalog: Catalog): Promise<StageLink | null> {
  const name = basename(file.path);
  const stem = name.endsWith(STAGED_FLOW_FILE) ? name.slice(0, -STAGED_FLOW_FILE.length) : '';
  const staged = stem !== '';
  const counterpart = staged
    ? join(dirname(file.path), `${stem}${FLOW_FILE}`)
    : join(dirname(file.path), `${name.slice(0, -FLOW_FILE.length)}${STAGED_FLOW_FILE}`);
  const other = catalog.flows.find((f) => f.path === counterpart) ?? null;
  if (!staged && other === null) return null;
  const pending = other === null || !(await sameBytes(file.path, other.path));
  return { staged, other: other?.key ?? null, pending };
}

/** A committed version, `<name>.history/<N>.flow.json`: which flow and which N (null for any other file). */
export function versionOf(file: FlowFile, catalog: Catalog): VersionOf | null {
  const m = /^(\d+)\.flow\.json$/.exec(basename(file.path));
  const dir = dirname(file.path);
  const folder = basename(dir);
  if (!m || !folder.endsWith('.history') || folder.length === '.history'.length) return null;
  const name = folder.slice(0, -'.history'.length);
  const committed = join(dirname(dir), `${name}${FLOW_FILE}`);
  return { flow: catalog.flows.find((f) => f.path === committed)?.key ?? null, name, version: Number(m[1]) };
}

// ---------------------------------------------------------------------------------------------------------
// Summaries
// ---------------------------------------------------------------------------------------------------------

function summaryOf(entry: FlowEntry, served_by: string[], stage: StageLink | null, version: VersionOf | null): FlowSummary {
  const { file, flow } = entry;
  const tools = { read: 0, write: 0, generic: 0 };
  for (const kind of Object.values(flow?.manifest.tools ?? {})) tools[kind] += 1;
  const p = flow?.provenance;
  // Field for field in FlowSummary's order; a flow that does not load keeps only the file's own facts.
  return {
    key: file.key,
    path: file.rel,
    name: basename(file.path).slice(0, -FLOW_FILE.length),
    domain: flow?.domain ?? '',
    format_version: entry.format_version,
    engine_version: p?.engine ?? '',
    sources: p ? [...p.sources] : [],
    habit_episodes: p?.habit_episodes ?? 0,
    arbiter_cases: p?.arbiter_cases ?? 0,
    compiled_unix_ms: p?.compiled_unix_ms ?? 0,
    modified_unix_ms: entry.modified_unix_ms,
    size_bytes: entry.size_bytes,
    decider: flow ? servedDecider(flow) : 'habit',
    has_arbiter: flow ? hasArbiter(flow) : false,
    has_reach: flow ? hasReach(flow) : false,
    tools,
    sites: flow ? siteKeys(flow).length : 0,
    lookups: flow ? lookups(flow).length : 0,
    lookup_tools: flow ? lookups(flow) : [],
    promoted: flow ? promotionCounts(flow) : null,
    served_by,
    stage,
    error: flow ? null : (entry.error ?? 'unknown error'),
    surprise: flow?.surprise ?? null,
    ...(version ? { version_of: version } : {}),
  };
}

/** The summary with its last drift check, when one ran. */
function withDrift(summary: FlowSummary, checks: ReadonlyMap<string, DriftCheck>): FlowSummary {
  const check = checks.get(summary.key);
  if (check) summary.drift = check;
  return summary;
}

/** Every flow the catalog finds, loaded or not: most recently modified first, then by path. */
export async function flowSummaries(state: DataContext, catalog?: Catalog): Promise<FlowSummary[]> {
  const cat = catalog ?? (await state.catalog());
  const [entries, served] = await Promise.all([Promise.all(cat.flows.map((f) => loadFlowEntry(state, f))), servedFlows(state)]);
  state.caches.flows.retain(new Set(cat.flows.map((f) => f.path)));
  const [items, checks] = await Promise.all([
    Promise.all(entries.map(async (e) => summaryOf(e, servedBy(e.file, served), await stageLink(e.file, cat), versionOf(e.file, cat)))),
    driftChecks(state),
  ]);
  for (const item of items) withDrift(item, checks);
  return items.sort((a, b) => b.modified_unix_ms - a.modified_unix_ms || compareText(a.path, b.path));
}

/** One flow's list summary, and its loaded entry; `served` when the caller has it (many summaries, one registry read). */
export async function flowSummary(
  state: DataContext,
  file: FlowFile,
  catalog?: Catalog,
  served?: Promise<ServedFlows>,
): Promise<{ summary: FlowSummary; entry: FlowEntry }> {
  const cat = catalog ?? (await state.catalog());
  const [entry, servedNow, stage, checks] = await Promise.all([loadFlowEntry(state, file), served ?? servedFlows(state), stageLink(file, cat), driftChecks(state)]);
  return { summary: withDrift(summaryOf(entry, servedBy(file, servedNow), stage, versionOf(file, cat)), checks), entry };
}

// ---------------------------------------------------------------------------------------------------------
// Detail, warnings, diff
// ---------------------------------------------------------------------------------------------------------


async function listedTools(state: DataContext, file: SessionFile): Promise<ListedTools | null> {
  const cache = state.caches.listings;
  let stamp: string;
  try {
    const st = await stat(file.path);
    stamp = statStamp(st);
  } catch {
    return null;
  }
  const hit = cache.get(file.path, stamp);
  if (hit) return hit;
  try {
    const tools = (await sessionDetail(state, file)).tools.map((t) => ({
      name: t.name,
      read_only_hint: t.read_only_hint,
      contract: t.contract,
    }));
    cache.set(file.path, stamp, tools);
    return tools;
  } catch {
    // a log that no longer reads is skipped, as the list skips it
    return null;
  }
}

/** The tools of the newest readable session of the domain that listed any, or null (flow-review.md §6). */
export async function latestListing(state: DataContext, domain: string): Promise<{ sessionId: string; tools: ListedTools } | null> {
  if (domain === '') return null;
  const catalog = await state.catalog();
  const { entries } = await sessionSummaries(state);
  for (const summary of sessionsOfDomainNewestFirst(entries, domain)) {
    const file = catalog.session(summary.key);
    if (!file) continue;
    const tools = await listedTools(state, file);
    if (tools && tools.length > 0) return { sessionId: summary.session_id, tools };
  }
  return null;
}

/** The warnings of a loaded flow at detail time (flow-review.md §6). */
async function warningsFor(state: DataContext, flow: Flow): Promise<string[]> {
  const listing = await latestListing(state, flow.domain);
  return flowWarnings(flow, listing, state.config.keySet || state.config.keyFileSet);
}

function taskValue<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

/** The reviewer's view of a flow file at a threshold. Throws FlowUnreadable when it does not load. */
export async function flowDetail(state: DataContext, file: FlowFile, threshold: number): Promise<FlowDetail> {
  const { summary, entry } = await flowSummary(state, file);
  const flow = loadedOrThrow(entry);
  const [review, warnings] = await Promise.all([
    state.pool.run('flowReviewTask', { flow, threshold }).then(taskValue),
    warningsFor(state, flow),
  ]);
  return { summary, ...review.view, review_markdown: review.markdown, warnings };
}

/** flow-diff of two flow files, keys as given. Throws FlowUnreadable (old first) when one does not load. */
export async function flowDiffView(
  state: DataContext,
  from: { key: string; file: FlowFile },
  to: { key: string; file: FlowFile },
  threshold: number,
  tolerance: number,
): Promise<FlowDiffView> {
  const [a, b] = await Promise.all([loadFlowEntry(state, from.file), loadFlowEntry(state, to.file)]);
  const old = loadedOrThrow(a);
  const next = loadedOrThrow(b);
  const d = taskValue(await state.pool.run('flowDiffTask', { from: old, to: next, tolerance, threshold }));
  return { from: from.key, to: to.key, review: d.review, changes: d.changes, sections: d.sections, markdown: d.markdown };
}
