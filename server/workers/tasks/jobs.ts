// Worker tasks of the settings page: walking the whole data directory is heavy, so it runs here.
import type { Disk } from '../../../shared/settings.ts';
import { diskUsage } from '../../engine/disk.ts';
import { errorText } from '../../../shared/error-text.ts';

/** The data directory's size by kind: a walk of the whole tree, so it runs here. */
export function diskUsageTask(dataDir: string): { ok: true; value: Disk } | { ok: false; message: string } {
  try {
    return { ok: true, value: diskUsage(dataDir) };
  } catch (err) {
    return { ok: false, message: errorText(err) };
  }
}
