// The `changed` events of flows, jobs and the registry (console-api.md §6), from what the tree sees of their
// files: a flow file or the stage file beside it stands for the flow's key, a job record for its id,
// servers.json for the registry. What is noted between two ticks goes out as one event per kind, keys
// sorted, in the order flows, jobs, servers. A file of a polled directory counts when its stamp moved.
import type { ChangedEvent } from '../../shared/events.ts';
import type { Hub } from '../events/hub.ts';
import { AUDIT_RECORD, FLOW_FILE, JSON_FILE, REGISTRY_FILE, STAGE_FILE, STAGED_FLOW_FILE } from './log-names.ts';
import { fileStamp } from './stamp.ts';
import type { TreeChanges, TreeFile } from './tree.ts';

/** The flow keys by the flow file's path relative to the data directory. */
export type FlowKeyOf = (rel: string) => string | undefined;

const WATCHED = new Set(['flow', 'stage', 'registry', 'job']);

/** A job record's id: `{id}.json`, not a temporary dot file nor an audit's companion record. */
function jobId(name: string): string | null {
  if (name.startsWith('.') || !name.endsWith(JSON_FILE) || name.endsWith(AUDIT_RECORD)) return null;
  return name.slice(0, -JSON_FILE.length);
}

/** The flow files a stage file belongs to: `{stem}.flow.json` and `{stem}.staged.flow.json`. */
function flowsOfStage(rel: string): string[] {
  const stem = rel.slice(0, -STAGE_FILE.length);
  return [stem + FLOW_FILE, stem + STAGED_FLOW_FILE];
}

export class FileEvents {
  private readonly flows = new Set<string>();
  private readonly jobs = new Set<string>();
  private servers = false;
  /** Files of polled directories, by rel: their last stamps. */
  private readonly polledStamps = new Map<string, string>();

  constructor(
    private readonly hub: Hub,
    private readonly pathOf: (rel: string) => string,
  ) {}

  /** Note the files that went, while their flows still have their keys (before the keys are rebuilt). */
  noteRemoved(changes: TreeChanges, keyOf: FlowKeyOf): void {
    for (const f of changes.removed) {
      if (!WATCHED.has(f.kind)) continue;
      this.polledStamps.delete(f.rel);
      this.note(f, keyOf);
    }
  }

  /** Note the files that came or changed (after the keys are rebuilt). */
  noteChanged(changes: TreeChanges, keyOf: FlowKeyOf): void {
    for (const f of [...changes.added, ...changes.touched]) if (WATCHED.has(f.kind)) this.note(f, keyOf);
    for (const f of changes.polled) {
      if (!WATCHED.has(f.kind)) continue;
      const stamp = fileStamp(this.pathOf(f.rel)).stamp;
      const before = this.polledStamps.get(f.rel);
      this.polledStamps.set(f.rel, stamp);
      if (before !== undefined && before !== stamp) this.note(f, keyOf);
    }
  }

  /** Send what was noted since the last call. */
  publish(): void {
    const out: ChangedEvent[] = [];
    if (this.flows.size) out.push({ what: 'flows', keys: sorted(this.flows) });
    if (this.jobs.size) out.push({ what: 'jobs', keys: sorted(this.jobs) });
    if (this.servers) out.push({ what: 'servers', keys: [REGISTRY_FILE] });
    this.flows.clear();
    this.jobs.clear();
    this.servers = false;
    for (const c of out) this.hub.publish('changed', c);
  }

  private note(f: TreeFile, keyOf: FlowKeyOf): void {
    if (f.kind === 'registry') this.servers = true;
    else if (f.kind === 'job') {
      const id = jobId(f.name);
      if (id !== null) this.jobs.add(id);
    } else {
      for (const rel of f.kind === 'stage' ? flowsOfStage(f.rel) : [f.rel]) {
        const key = keyOf(rel);
        if (key !== undefined) this.flows.add(key);
      }
    }
  }
}

const sorted = (keys: Set<string>): string[] => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
