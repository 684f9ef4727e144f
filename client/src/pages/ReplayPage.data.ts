// What the replay page loads and does: the run, loaded again as its events say it moved on; cancel; compare
// again with more paths ignored (the server is not called again).
import { onCleanup, type Accessor } from 'solid-js';
import type { ReplayRun } from '../../../shared/replay.ts';
import { cancelReplay, compareReplayAgain, getReplay } from '../api/endpoints.ts';
import { onReplay } from '../api/events.ts';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';

export const replayRunning = (run: ReplayRun | undefined) => run?.status === 'queued' || run?.status === 'running';

export function createReplayPageData(id: Accessor<string>) {
  const run = createApiResource(id, (x, signal) => getReplay(x, { signal }));
  const stop = onReplay((s) => {
    if (s.id !== id()) return;
    const cur = run.data();
    if (!cur || cur.progress.done !== s.progress.done || cur.status !== s.status || cur.answers_dropped_unix_ms !== s.answers_dropped_unix_ms) run.refresh();
  });
  onCleanup(stop);
  const cancel = createAction(() => cancelReplay(id()), { failure: 'Could not cancel the replay', after: () => run.refresh() });
  const ignore = createAction((paths: string[]) => compareReplayAgain(id(), paths), {
    failure: 'Could not compare again',
    after: (r) => run.mutate(r),
  });
  return { run, cancel, ignore };
}
