// The only EventSource of the client: /api/events, opened once signed in and closed when signed out.
// Pages subscribe to `changed` topics and to `job` events, and unsubscribe in onCleanup. When the browser
// gives up on the stream (a 401, the server gone), the shell re-checks /api/meta and the stream reopens
// after a growing delay (2 s, 4 s … 30 s). Each time the stream opens, every subscribed resource refreshes.
import { createSignal } from 'solid-js';
import * as v from 'valibot';
import { ChangedEventSchema, type ChangedWhat } from '../../../shared/events.ts';
import { JobSchema, type Job } from '../../../shared/jobs.ts';
import { backoffMs } from '../lib/keys.ts';

export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting';
const [status, setStatus] = createSignal<LiveStatus>('off');
export const liveStatus = status;

type ChangedListener = (keys: string[]) => void;
type JobListener = (job: Job) => void;
const changedListeners = new Map<ChangedWhat, Set<ChangedListener>>();
const jobListeners = new Set<JobListener>();

let source: EventSource | null = null;
let attempts = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let recheck: () => void = () => {};

export function onChanged(what: ChangedWhat, fn: ChangedListener): () => void {
  let set = changedListeners.get(what);
  if (!set) changedListeners.set(what, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

export function onJob(fn: JobListener): () => void {
  jobListeners.add(fn);
  return () => jobListeners.delete(fn);
}

function handleChanged(e: MessageEvent<string>): void {
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch {
    return;
  }
  const withKeys = data !== null && typeof data === 'object' && !('keys' in data) ? { ...data, keys: [] } : data;
  const parsed = v.safeParse(ChangedEventSchema, withKeys);
  if (!parsed.success) return;
  for (const fn of changedListeners.get(parsed.output.what) ?? []) fn(parsed.output.keys);
}

function handleJob(e: MessageEvent<string>): void {
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch {
    return;
  }
  const parsed = v.safeParse(JobSchema, data);
  if (!parsed.success) return;
  for (const fn of jobListeners) fn(parsed.output);
}

/** Opens the stream; `onGiveUp` re-checks the sign-in when the browser closes it for good. */
export function openEvents(onGiveUp: () => void): void {
  recheck = onGiveUp;
  if (source) return;
  clearTimeout(timer);
  setStatus(attempts === 0 ? 'connecting' : 'reconnecting');
  const es = new EventSource('/api/events', { withCredentials: true });
  source = es;
  es.addEventListener('open', () => {
    attempts = 0;
    setStatus('live');
    // Whatever changed while this page had no open stream was announced to nobody: every open resource
    // loads again, so nothing written around a (re)connect is missed.
    for (const set of changedListeners.values()) for (const fn of [...set]) fn([]);
  });
  es.addEventListener('changed', handleChanged as EventListener);
  es.addEventListener('job', handleJob as EventListener);
  es.addEventListener('error', () => {
    if (source !== es) return;
    setStatus('reconnecting');
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      source = null;
      attempts++;
      recheck();
      timer = setTimeout(() => openEvents(recheck), backoffMs(attempts));
    }
  });
}

export function closeEvents(): void {
  clearTimeout(timer);
  source?.close();
  source = null;
  attempts = 0;
  setStatus('off');
}
