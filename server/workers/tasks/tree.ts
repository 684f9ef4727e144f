// The first walk of the data directory, in the pool: listing some 160k files of a big directory takes a
// second, which the event loop must not spend (the store adopts the result, store.ts).
import { statSync } from 'node:fs';
import { fileKind } from '../../store/tree.ts';
import { NAME_SEP, type WalkedDir, walkTree } from '../../store/listing.ts';

export interface FirstWalk {
  dirs: WalkedDir[];
  /** The session logs' paths relative to the data directory, newest session first, joined by NUL. */
  logs: string;
  /** Per log: 1 when its flow log is beside it, 2 its confirmation log (console-api.md §3.2 companions). */
  companions: Uint8Array;
}

/** 1 when a flow log is there, 2 a confirmation log. */
export const HAS_FLOW_LOG = 1;
export const HAS_CONFIRM_LOG = 2;

// The proxy names a log by its session id, the UTC start to the millisecond (session-format.md: ids sort by
// start time). The list shows newest starts first, so the cold index reads in that order, known from the
// name alone; a log named otherwise is placed by its modification time, the one stat it costs.
const SESSION_ID = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z/;

function startOf(name: string, path: string): number {
  const m = SESSION_ID.exec(name);
  if (m) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

export function walkTreeTask(root: string): FirstWalk {
  const logs: { rel: string; at: number; companions: number }[] = [];
  const dirs = walkTree(root, (dir, entries) => {
    for (const [name, kind] of entries) {
      if (kind !== 'file' || fileKind(name) !== 'session') continue;
      const stem = name.slice(0, -'.jsonl'.length);
      const companions = (entries.get(`${stem}.flow.jsonl`) === 'file' ? HAS_FLOW_LOG : 0) | (entries.get(`${stem}.confirm.jsonl`) === 'file' ? HAS_CONFIRM_LOG : 0);
      logs.push({ rel: dir.rel ? `${dir.rel}/${name}` : name, at: startOf(name, `${dir.path}/${name}`), companions });
    }
  });
  logs.sort((a, b) => b.at - a.at);
  return { dirs, logs: logs.map((l) => l.rel).join(NAME_SEP), companions: Uint8Array.from(logs, (l) => l.companions) };
}
