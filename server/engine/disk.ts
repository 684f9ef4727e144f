// The data directory's size by kind (console-api.md §4.4), for the settings page: the whole tree, with no
// depth limit and `console/` included; links are neither followed nor counted; unreadable entries are
// skipped. And the retention note, word for word.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Disk } from '../../shared/settings.ts';

export const RETENTION_NOTE =
  'engine-proxy --retain-days N deletes, when it starts, the session logs (with the flow and confirmation logs beside them) and the cached answers older than N days in its --record and --oracle-cache directories. The console deletes nothing: a session or flow deleted here is moved to console/trash/ in the data directory, to empty when you choose. docs/privacy.md lists what each file holds.';

/** Which bucket a file goes in, by its path relative to the data directory (`/`-joined). */
export function diskKind(rel: string): 'cache' | 'other' | 'flows' | 'logs' {
  if (rel.startsWith('oracle-cache/')) return 'cache';
  if (rel.startsWith('console/')) return 'other';
  if (rel.endsWith('.flow.json')) return 'flows';
  if (rel.endsWith('.jsonl')) return 'logs';
  return 'other';
}

export function diskUsage(dataDir: string): Disk {
  const disk: Disk = { logs_bytes: 0, flows_bytes: 0, cache_bytes: 0, other_bytes: 0, total_bytes: 0 };
  const walk = (dir: string, relDir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(path, rel);
      else if (st.isFile()) disk[`${diskKind(rel)}_bytes`] += st.size;
    }
  };
  walk(dataDir, '');
  disk.total_bytes = disk.logs_bytes + disk.flows_bytes + disk.cache_bytes + disk.other_bytes;
  return disk;
}
