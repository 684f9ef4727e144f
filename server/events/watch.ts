// The 1-second poll behind `changed` events (console-api.md §6). A snapshot is stat data only (size and
// mtime), never contents; `changes` is a pure diff of two snapshots. The timer runs only while somebody
// listens, and the first snapshot after a quiet spell is a baseline that emits nothing.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WATCH_POLL_MS } from '../../shared/limits.ts';
import type { Catalog } from '../data/catalog.ts';
import { sessionStamps } from '../data/stamps.ts';
import type { Hub } from './hub.ts';

/** `size:mtimeMs`, or '' when the file is missing. */
export type Stamp = string;

export interface Snapshot {
  sessions: Map<string, Stamp>;
  flows: Map<string, Stamp>;
  jobs: Map<string, Stamp>;
  servers: Stamp;
}

export type ChangedWhat = 'sessions' | 'flows' | 'jobs' | 'servers';
export interface Changed {
  what: ChangedWhat;
  keys: string[];
}

export function stamp(path: string | null): Stamp {
  if (path === null) return '';
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeMs}` : '';
}

/** The staged-learning state file beside a flow: `{dir}/{name without .staged}.stage.json`. */
function stageFileOf(flowPath: string): string {
  const name = basename(flowPath).slice(0, -'.flow.json'.length).replace(/\.staged$/, '');
  return join(dirname(flowPath), `${name}.stage.json`);
}

export function snapshot(dataDir: string, catalog: Catalog, now = Date.now()): Snapshot {
  const sessions = new Map<string, Stamp>();
  for (const s of catalog.sessions) {
    // Companions the scan did not attach are missing: no stat needed for them.
    const log = sessionStamps.stamp(s.path, now);
    const flowLog = s.flowLog ? sessionStamps.stamp(s.flowLog, now) : '';
    const confirmLog = s.confirmLog ? sessionStamps.stamp(s.confirmLog, now) : '';
    sessions.set(s.key, `${log}|${flowLog}|${confirmLog}`);
  }
  const flows = new Map<string, Stamp>();
  for (const f of catalog.flows) flows.set(f.key, `${stamp(f.path)}|${stamp(stageFileOf(f.path))}`);
  const jobs = new Map<string, Stamp>();
  const jobsDir = join(dataDir, 'console', 'jobs');
  let names: string[] = [];
  try {
    names = readdirSync(jobsDir);
  } catch {
    names = [];
  }
  for (const name of names) {
    if (name.startsWith('.') || !name.endsWith('.json')) continue;
    const id = name.slice(0, -'.json'.length);
    if (id.endsWith('.audit')) continue;
    jobs.set(id, stamp(join(jobsDir, name)));
  }
  return { sessions, flows, jobs, servers: stamp(join(dataDir, 'servers.json')) };
}

function changedKeys(before: Map<string, Stamp>, now: Map<string, Stamp>): string[] {
  const keys: string[] = [];
  for (const [k, s] of now) if (before.get(k) !== s) keys.push(k);
  for (const k of before.keys()) if (!now.has(k)) keys.push(k);
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What moved between two snapshots, in the order events are sent: sessions, flows, jobs, servers. */
export function changes(before: Snapshot, now: Snapshot): Changed[] {
  const out: Changed[] = [];
  for (const what of ['sessions', 'flows', 'jobs'] as const) {
    const keys = changedKeys(before[what], now[what]);
    if (keys.length) out.push({ what, keys });
  }
  if (before.servers !== now.servers) out.push({ what: 'servers', keys: ['servers.json'] });
  return out;
}

/** Poll while anybody listens; returns a stop function. */
export function startWatch(dataDir: string, catalog: () => Catalog, hub: Hub): () => void {
  let previous: Snapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (hub.listening === 0) {
      previous = null;
    } else {
      try {
        const now = snapshot(dataDir, catalog());
        if (previous) for (const c of changes(previous, now)) hub.publish('changed', c);
        previous = now;
      } catch {
        previous = null;
      }
    }
    timer = setTimeout(tick, WATCH_POLL_MS);
    timer.unref();
  };
  tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
