// What a replay takes from a session log: each `tools/call` request (the agent's or the proxy's) with its
// line and the server's recorded answer, and what the recording's latest `tools/list` said of each tool.
// Read line by line from a stream, so a big log costs one line of memory at a time; it runs in the worker
// pool (workers/tasks/replay.ts), never on the event loop.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isObject, str, type JsonObject } from '../probe/exchange.ts';

export interface RecordedCall {
  session: string;
  line: number;
  tool: string;
  arguments: unknown;
  /** The server's answer message (with `result` or `error`), or null when the log holds none. */
  answer: JsonObject | null;
  /** The length of the answer's line, what keeping it costs about (0 without one). */
  answerBytes: number;
}

export interface Recording {
  calls: RecordedCall[];
  /** Tools the recording's latest `tools/list` marked as not read-only (readOnlyHint false or destructive). */
  writes: Set<string>;
}

/** Whether a listed tool says it may write: only an explicit hint counts. */
function saysWrite(tool: JsonObject): boolean {
  const a = isObject(tool.annotations) ? tool.annotations : {};
  return a.readOnlyHint === false || a.destructiveHint === true;
}

/** A request or answer id as a map key (numbers and strings kept apart). */
const idKey = (id: unknown): string | null => (typeof id === 'number' || typeof id === 'string' ? JSON.stringify(id) : null);

/** Reads the session log at `path` (its key `session`), stopping once `maxCalls` calls are in. */
export async function readRecording(path: string, session: string, maxCalls: number): Promise<Recording> {
  const calls: RecordedCall[] = [];
  const pending = new Map<string, RecordedCall>();
  const listRequests = new Set<string>();
  let writes = new Set<string>();
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n++;
    // Only lines that can matter are parsed: requests of the two methods, and answers.
    if (n === 1 || (!text.includes('"tools/') && !text.includes('"result"') && !text.includes('"error"'))) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(entry) || !isObject(entry.message)) continue;
    const m = entry.message;
    const key = idKey(m.id);
    if (key === null) continue;
    if (entry.from === 'client' || entry.from === 'proxy') {
      if (m.method === 'tools/list') listRequests.add(key);
      if (m.method !== 'tools/call' || calls.length >= maxCalls) continue;
      const params = isObject(m.params) ? m.params : {};
      const call: RecordedCall = { session, line: n, tool: str(params.name) ?? '', arguments: params.arguments ?? {}, answer: null, answerBytes: 0 };
      calls.push(call);
      pending.set(key, call);
    } else if (entry.from === 'server' && !('method' in m)) {
      const call = pending.get(key);
      if (call) {
        call.answer = m;
        call.answerBytes = text.length;
        pending.delete(key);
      } else if (listRequests.delete(key) && isObject(m.result) && Array.isArray(m.result.tools)) {
        writes = new Set(m.result.tools.filter(isObject).filter(saysWrite).map((t) => str(t.name) ?? ''));
      }
    }
  }
  return { calls, writes };
}

/** The recorded calls of several logs, in their order, and the tools each log's recording marked as writing. */
export interface Recordings {
  calls: RecordedCall[];
  /** `[session key, tool]` of each tool a session's recording marked as writing. */
  writes: [string, string][];
}

/** Reads the logs in order until `maxCalls` calls are in. */
export async function readRecordings(logs: readonly { key: string; path: string }[], maxCalls: number): Promise<Recordings> {
  const calls: RecordedCall[] = [];
  const writes: [string, string][] = [];
  for (const log of logs) {
    if (calls.length >= maxCalls) break;
    const r = await readRecording(log.path, log.key, maxCalls - calls.length);
    calls.push(...r.calls);
    for (const w of r.writes) writes.push([log.key, w]);
  }
  return { calls, writes };
}
