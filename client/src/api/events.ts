// The only EventSource of the client: /api/events, opened once signed in and closed when signed out.
// Pages subscribe to `changed` topics and to `job` events, and unsubscribe in onCleanup. When the browser
// gives up on the stream (a 401, the server gone), the shell re-checks /api/meta and the stream reopens
// after a growing delay (2 s, 4 s … 30 s). The server announces every change made after a stream is
// answered, so a load begun once the stream is open misses nothing; a load begun before an open (a page's
// first loads race the stream's first answer; a reconnect) is done again when it opens (`onStreamOpen`).
// A first load waits for the stream's first answer a little (`streamReady`) rather than load twice.
import { createSignal } from 'solid-js';
import * as v from 'valibot';
import { ChangedEventSchema, type ChangedWhat } from '../../../shared/events.ts';
import { JobSchema, type Job } from '../../../shared/jobs.ts';
import { ReplaySummarySchema, type ReplaySummary } from '../../../shared/replay.ts';
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
/** How many times the stream has opened. */
let opens = 0;
const openListeners = new Set<(opens: number) => void>();
let readyWaiters: (() => void)[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let recheck: () => void = () => {};

export function onChanged(what: ChangedWhat, fn: ChangedListener): () => void {
  let set = changedListeners.get(what);
  if (!set) changedListeners.set(what, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

const replayListeners = new Set<(run: ReplaySummary) => void>();

/** `fn` hears each replay run as it moves on (without its calls). */
export function onReplay(fn: (run: ReplaySummary) => void): () => void {
  replayListeners.add(fn);
  return () => replayListeners.delete(fn);
}

function handleReplay(e: MessageEvent<string>): void {
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch {
    return;
  }
  const parsed = v.safeParse(ReplaySummarySchema, data);
  if (parsed.success) for (const fn of replayListeners) fn(parsed.output);
}

export function onJob(fn: JobListener): () => void {
  jobListeners.add(fn);
  return () => jobListeners.delete(fn);
}

/** How many times the stream has opened: a load begun when this was `n` misses nothing announced on open `n`. */
export const streamOpens = (): number => opens;

/** `fn` runs each time the stream opens (the first time and every reconnect), with the new count. */
export function onStreamOpen(fn: (opens: number) => void): () => void {
  openListeners.add(fn);
  return () => openListeners.delete(fn);
}

/** Whether a load begun now misses nothing the stream would announce: it is open, or none is being opened. */
export const streamIsReady = (): boolean => status() === 'live' || status() === 'off';

/** How long a first load waits for the stream's first answer. */
export const STREAM_READY_CAP_MS = 1_000;

/**
 * Resolves when the stream is open, at once when none is being opened, or after `capMs` (a first load waits
 * for the stream so as not to be done again when it opens; not for long).
 */
export function streamReady(capMs = STREAM_READY_CAP_MS): Promise<void> {
  if (streamIsReady()) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, capMs);
    function done(): void {
      clearTimeout(t);
      readyWaiters = readyWaiters.filter((w) => w !== done);
      resolve();
    }
    readyWaiters.push(done);
  });
}

/**
 * A load that follows the stream: run once the stream is ready, and again when it reopens after the last run
 * began. `run` also loads at once (a `changed` event's reload); `stop` ends it.
 */
export function followStream(load: () => void): { run: () => void; stop: () => void } {
  let began: number | null = null;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    began = opens;
    load();
  };
  if (streamIsReady()) run();
  else void streamReady().then(run);
  const off = onStreamOpen((n) => {
    if (began !== null && began < n) run();
  });
  return {
    run,
    stop: () => {
      stopped = true;
      off();
    },
  };
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
    opens++;
    setStatus('live');
    for (const w of readyWaiters.splice(0)) w();
    // Whatever changed while this page had no open stream was announced to nobody: what was loaded before
    // this open loads again, so nothing written around a (re)connect is missed.
    for (const fn of [...openListeners]) fn(opens);
  });
  es.addEventListener('changed', handleChanged as EventListener);
  es.addEventListener('job', handleJob as EventListener);
  es.addEventListener('replay', handleReplay as EventListener);
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
  for (const w of readyWaiters.splice(0)) w();
}
