// The 1-second poll behind the `changed` events of flows, jobs and the registry (console-api.md §6); the
// sessions' events come from the store (store/store.ts), which sees the logs through the same notifications
// as its index. A snapshot is stat data only (size and mtime), never contents; `changes` is a pure diff of
// two snapshots. The poll runs only while somebody listens. Its baseline is taken when the first listener
// arrives, before that listener's stream is answered, so a file written in the first second is announced.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WATCH_POLL_MS } from '../../shared/limits.ts';
import type { Catalog } from '../data/catalog.ts';
import type { ChangedEvent } from '../../shared/events.ts';
import type { Hub } from './hub.ts';

/** `size:mtimeMs`, or '' when the file is missing. */
export type Stamp = string;

export interface Snapshot {
  flows: Map<string, Stamp>;
  jobs: Map<string, Stamp>;
  servers: Stamp;
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

export function snapshot(dataDir: string, catalog: Catalog): Snapshot {
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
  return { flows, jobs, servers: stamp(join(dataDir, 'servers.json')) };
}

function changedKeys(before: Map<string, Stamp>, now: Map<string, Stamp>): string[] {
  const keys: string[] = [];
  for (const [k, s] of now) if (before.get(k) !== s) keys.push(k);
  for (const k of before.keys()) if (!now.has(k)) keys.push(k);
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What moved between two snapshots, in the order events are sent: flows, jobs, servers. */
export function changes(before: Snapshot, now: Snapshot): ChangedEvent[] {
  const out: ChangedEvent[] = [];
  for (const what of ['flows', 'jobs'] as const) {
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
  const take = (): Snapshot | null => {
    try {
      return snapshot(dataDir, catalog());
    } catch {
      return null;
    }
  };
  const unhook = hub.onFirstListener(() => {
    previous = take();
  });
  const tick = () => {
    if (stopped) return;
    if (hub.listening === 0) {
      previous = null;
    } else {
      const now = take();
      if (previous && now) for (const c of changes(previous, now)) hub.publish('changed', c);
      previous = now;
    }
    timer = setTimeout(tick, WATCH_POLL_MS);
    timer.unref();
  };
  tick();
  return () => {
    stopped = true;
    unhook();
    if (timer) clearTimeout(timer);
  };
}
