// Worker task of the settings page: the data directory's size by kind is a walk of the whole tree, so it
// runs here, off the event loop.
import type { Disk } from '../../../shared/settings.ts';
import { diskUsage } from '../../engine/disk.ts';
import { type Result, attempt } from '../../result.ts';

/** The data directory's size by kind, or why it could not be walked. */
export function diskUsageTask(dataDir: string): Result<Disk> {
  return attempt(() => diskUsage(dataDir));
}
