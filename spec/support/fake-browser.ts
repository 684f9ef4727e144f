// Small stand-ins for the browser's EventSource and fetch, for the client's api and data tests under node.
import type { Job } from '../../shared/jobs.ts';

/** An EventSource that opens nothing: the test dispatches its events. Installed as the global. */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.made.push(this);
  }
  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  send(type: 'changed' | 'job', data: unknown): void {
    this.dispatchEvent(new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }
  /** The browser gives up (a 401, the server gone) or only retries. */
  fail(closed: boolean): void {
    if (closed) this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
}

export function installEventSource(): void {
  FakeEventSource.made = [];
  Object.assign(globalThis, { EventSource: FakeEventSource });
}

export interface FetchCall {
  url: string;
  init: RequestInit;
}

/** Replaces the global fetch with one that records each call and answers with `answer`. */
export function installFetch(answer: (call: FetchCall) => Response | Promise<Response>): FetchCall[] {
  const calls: FetchCall[] = [];
  const fake = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const call = { url: String(input), init };
    calls.push(call);
    return answer(call);
  };
  Object.assign(globalThis, { fetch: fake });
  return calls;
}

export const json = (status: number, body: unknown, type = 'application/json'): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A running job as the server announces it in a `job` event. */
export function runningJob(kind: Job['kind']): Job {
  return {
    id: '20260928T020400.548Z-ab12',
    kind,
    title: kind,
    params: {},
    status: 'running',
    created_unix_ms: 1,
    started_unix_ms: 2,
    finished_unix_ms: null,
    exit_code: null,
    alarm: false,
    output: '',
    artifacts: [],
    defaults: [],
    replaced: [],
  };
}
