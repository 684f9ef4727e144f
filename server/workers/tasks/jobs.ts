// Worker tasks of the overview and settings: walking the whole data directory and reading every flow log are
// heavy, so they run here instead of on the event loop.
import { readFileSync } from 'node:fs';
import type { Disk } from '../../../shared/settings.ts';
import { diskUsage } from '../../engine/disk.ts';
import { shadowDecisionsIn } from '../../engine/overview.ts';

/** The data directory's size by kind: a walk of the whole tree, so it runs here. */
export function diskUsageTask(dataDir: string): { ok: true; value: Disk } | { ok: false; message: string } {
  try {
    return { ok: true, value: diskUsage(dataDir) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** Shadow decisions over these flow logs (missing or unreadable files count 0). */
export function shadowDecisionsTask(paths: string[]): { ok: true; value: number } | { ok: false; message: string } {
  let n = 0;
  for (const path of paths) {
    try {
      n += shadowDecisionsIn(readFileSync(path, 'utf8'));
    } catch {
      // gone since the scan
    }
  }
  return { ok: true, value: n };
}
