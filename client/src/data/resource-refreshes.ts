// What refreshes a loaded resource (createApiResource.ts): its `changed` topics (for its key), the event
// stream opening after its data was loaded, and `job` events; coalesced over COALESCE_MS.
import type { ChangedWhat } from '../../../shared/events.ts';
import type { Job } from '../../../shared/jobs.ts';
import { onChanged, onJob, onStreamOpen } from '../api/events.ts';
import { isRemoving } from './removing.ts';

export const COALESCE_MS = 250;

export interface RefreshTriggers<S> {
  /** `changed` topics that refresh it. */
  topics?: ChangedWhat[];
  /** Only refresh when the event's keys (non-empty) include this key. */
  key?: (source: S) => string | null;
  /**
   * The item it shows, when `key` does not say it (it follows events of other items too): not refreshed while
   * that item is being moved to the trash (removing.ts).
   */
  about?: (source: S) => string | null;
  /** Refresh on `job` events too (filtered by the predicate when given). */
  jobs?: boolean | ((job: Job, source: S) => boolean);
}

/** Whether the item a resource over `source` shows is being moved to the trash: nothing reloads it meanwhile. */
export function itemRemoving<S>(triggers: RefreshTriggers<S>, source: S | null): boolean {
  const item = source === null ? null : triggers.about ? triggers.about(source) : triggers.key ? triggers.key(source) : null;
  return item !== null && isRemoving(item);
}

/** Whether events refresh it (then the stream's opening matters to it). */
export function followsEvents<S>(triggers: RefreshTriggers<S>): boolean {
  return (triggers.topics?.length ?? 0) > 0 || triggers.jobs !== undefined;
}

/**
 * Calls `refresh` (at most once per COALESCE_MS) when an event concerns the current source; `loadOpens` is
 * the stream's opens when the shown data's load began. Answers the function that stops following.
 */
export function followRefreshes<S>(
  triggers: RefreshTriggers<S>,
  current: () => S | null,
  loadOpens: () => number | null,
  refresh: () => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const removingNow = (): boolean => itemRemoving(triggers, current());
  const schedule = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      // Checked as it fires too: an event just before the delete, or the stream opening during it, would ask for what is gone.
      if (!removingNow()) refresh();
    }, COALESCE_MS);
  };
  const unsubscribe: (() => void)[] = [];
  for (const topic of triggers.topics ?? []) {
    unsubscribe.push(
      onChanged(topic, (keys) => {
        const s = current();
        const key = s !== null && triggers.key ? triggers.key(s) : null;
        if (key !== null && keys.length > 0 && !keys.includes(key)) return;
        if (removingNow()) return;
        schedule();
      }),
    );
  }
  if (followsEvents(triggers)) {
    unsubscribe.push(
      onStreamOpen((opens) => {
        const loaded = loadOpens();
        if (loaded !== null && loaded < opens) schedule();
      }),
    );
  }
  const filter = triggers.jobs;
  if (filter) {
    unsubscribe.push(
      onJob((job) => {
        const s = current();
        if (s === null) return;
        if (typeof filter === 'function' && !filter(job, s)) return;
        schedule();
      }),
    );
  }
  return () => {
    clearTimeout(timer);
    for (const u of unsubscribe) u();
  };
}
