// The live connection test (console-api.md §4.18): `initialize`, then `tools/list` page by page, against a
// registered server, now. Over stdio the server's command is started from an argv array (never a shell) with
// the console's environment, in its own process group, and the whole group is killed afterwards, in every
// case. Over Streamable HTTP the registry's headers are filled from the named environment variables; their
// values are sent and never returned or logged. One time limit covers everything. All of it is asynchronous
// I/O on the main thread: a server that floods, hangs or prints garbage costs the event loop small slices,
// and every buffer is capped.
import { spawn, type ChildProcess } from 'node:child_process';
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PROBE_HTTP_CONNECT_MS, PROBE_MAX_PAGES, PROBE_PROTOCOL, PROBE_TIMEOUT_MS } from '../shared/limits.ts';
import type { ProbeResult, Upstream } from '../shared/servers.ts';
import type { ToolInfo } from '../shared/sessions.ts';
import { isHeaderName } from '../shared/credentials.ts';
import { errorText } from '../shared/error-text.ts';
import { compareText, debugString } from './engine/format.ts';

/** How much of a failed stdio server's stderr a test shows. */
const STDERR_TAIL_BYTES = 4096;
const STDERR_TAIL_LINES = 20;

/** The end of what a server wrote to stderr: at most 20 lines and 4 KiB, whole lines where it can. */
function tailText(bytes: Buffer): string | null {
  let text = bytes.subarray(-STDERR_TAIL_BYTES).toString('utf8').replace(/\r\n?/g, '\n');
  if (bytes.length > STDERR_TAIL_BYTES) text = text.slice(text.indexOf('\n') + 1);
  const lines = text.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const kept = lines.slice(-STDERR_TAIL_LINES).join('\n');
  return kept.trim() === '' ? null : kept;
}

/** A single line or HTTP answer larger than this is not read as a message. */
const MESSAGE_MAX_BYTES = 16 * 1024 * 1024;

export interface ProbeOptions {
  /** The console's version, sent as clientInfo.version. */
  version: string;
  /** Where header values come from (the console's environment). */
  env: Record<string, string | undefined>;
  /** The cap for the whole exchange; tests shorten it. */
  timeoutMs?: number;
}

type Json = Record<string, unknown>;
type Outcome = Omit<ProbeResult, 'ms' | 'flow_warnings'>;

/** A failure whose message is the probe's `error`. */
class ProbeFailure extends Error {}

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const bool = (x: unknown): boolean | null => (typeof x === 'boolean' ? x : null);

/** The CLI's input contract: `name:type!` per property (`!` when required), sorted, joined with ", ". */
export function inputContract(schema: unknown): string {
  if (!isObject(schema)) return '';
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const parts = Object.entries(properties).map(([name, prop]) => {
    const t = isObject(prop) ? prop.type : undefined;
    const type =
      typeof t === 'string' ? t : Array.isArray(t) && t.every((x) => typeof x === 'string') ? t.join('|') : 'any';
    return `${name}:${type}${required.has(name) ? '!' : ''}`;
  });
  return parts.sort(compareText).join(', ');
}

/** One listed tool as the console shows it; its kind comes from annotations.readOnlyHint. */
export function toolInfo(tool: unknown): ToolInfo {
  const t = isObject(tool) ? tool : {};
  const annotations = isObject(t.annotations) ? t.annotations : {};
  const readOnly = bool(annotations.readOnlyHint);
  return {
    name: str(t.name) ?? '',
    kind: readOnly === true ? 'read' : readOnly === false ? 'write' : 'generic',
    description: str(t.description),
    read_only_hint: readOnly,
    destructive_hint: bool(annotations.destructiveHint),
    contract: t.inputSchema === undefined ? null : inputContract(t.inputSchema),
  };
}

function request(id: number, method: string, params: Json): Json {
  return { jsonrpc: '2.0', id, method, params };
}

/** Whether `message` answers request `id`: same numeric id, no method, a result or an error. */
function answers(message: unknown, id: number): message is Json {
  return isObject(message) && message.id === id && !('method' in message) && ('result' in message || 'error' in message);
}

/** The answer's result, or the failure an error answer means. */
function resultOf(answer: Json, method: string): Json {
  if (answer.error !== undefined && answer.error !== null) {
    const message = isObject(answer.error) ? str(answer.error.message) : null;
    throw new ProbeFailure(`the server answered ${method} with an error: ${message ?? '(no message)'}`);
  }
  return isObject(answer.result) ? answer.result : {};
}

/** Sends one request and waits for its answer; the transport differs, the exchange does not. */
interface Transport {
  call(id: number, method: string, params: Json): Promise<Json>;
  notify(method: string): Promise<void>;
  close(): Promise<void>;
}

async function exchange(transport: Transport, version: string): Promise<Outcome> {
  const init = resultOf(
    await transport.call(1, 'initialize', {
      protocolVersion: PROBE_PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'engine-console', version },
    }),
    'initialize',
  );
  await transport.notify('notifications/initialized');
  const tools: unknown[] = [];
  let params: Json = {};
  for (let page = 0; page < PROBE_MAX_PAGES; page++) {
    const result = resultOf(await transport.call(2 + page, 'tools/list', params), 'tools/list');
    if (Array.isArray(result.tools)) tools.push(...result.tools);
    const cursor = str(result.nextCursor);
    if (cursor === null) break;
    params = { cursor };
  }
  const info = isObject(init.serverInfo) ? init.serverInfo : {};
  const listed = tools.map(toolInfo).sort((a, b) => compareText(a.name, b.name));
  return {
    ok: true,
    error: null,
    server_name: str(info.name),
    server_version: str(info.version),
    protocol_version: str(init.protocolVersion),
    instructions: str(init.instructions),
    tools: listed,
  };
}

// ---------------------------------------------------------------------------------------------------------
// stdio
// ---------------------------------------------------------------------------------------------------------

/** Process groups of stdio probes still running; killed on exit so none outlives the console. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) killGroup(pid);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Kills every stdio server a probe started and that still runs (the console's stop calls this). */
export function stopProbes(): void {
  for (const pid of liveGroups) killGroup(pid);
}

const OS_ERRORS: Record<string, string> = {
  ENOENT: 'No such file or directory (os error 2)',
  EACCES: 'Permission denied (os error 13)',
  ENOTDIR: 'Not a directory (os error 20)',
};

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal: ${signal}` : `exit status: ${code}`;
}

class StdioTransport implements Transport {
  private readonly child: ChildProcess;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private ended = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private failure: ProbeFailure | null = null;
  private readonly waiting = new Map<number, { method: string; resolve: (m: Json) => void; reject: (e: Error) => void }>();
  private readonly spawned: Promise<void>;
  private readonly exited: Promise<void>;
  private errTail: Buffer = Buffer.alloc(0);

  /** The last lines the server wrote to stderr, or null when it wrote none. */
  async stderrTail(): Promise<string | null> {
    // What a server that exits at once printed may still be in the pipe.
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 100))]);
    return tailText(this.errTail);
  }

  constructor(command: string[]) {
    const [program = '', ...args] = command;
    this.child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: process.env });
    // Only the tail of stderr is kept, to say why a failed test failed; the rest is read and dropped.
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.errTail = Buffer.concat([this.errTail, chunk]);
      if (this.errTail.length > STDERR_TAIL_BYTES * 2) this.errTail = this.errTail.subarray(-STDERR_TAIL_BYTES);
    });
    this.child.stderr?.on('error', () => undefined);
    const pid = this.child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    this.spawned = new Promise((resolve, reject) => {
      this.child.once('spawn', () => resolve());
      this.child.once('error', (e: NodeJS.ErrnoException) => {
        const why = (e.code && OS_ERRORS[e.code]) ?? e.message;
        reject(new ProbeFailure(`starting ${program}: ${why}`));
      });
    });
    this.spawned.catch(() => undefined);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        if (pid !== undefined) liveGroups.delete(pid);
        resolve();
      }),
    );
    this.child.stdin?.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') this.fail(new ProbeFailure(`writing to the server: ${e.message}`));
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stdout?.on('error', (e) => this.fail(new ProbeFailure(`reading from the server: ${e.message}`)));
    this.child.stdout?.on('end', () => void this.closed());
  }

  private fail(error: ProbeFailure): void {
    if (!this.failure) this.failure = error;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
  }

  private async closed(): Promise<void> {
    this.ended = true;
    // A server that exits at once closes its output just before it exits: give the exit a moment to land.
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 200))]);
    for (const [, w] of this.waiting) {
      const exit = this.exit && (this.exit.code !== 0 || this.exit.signal) ? ` (it exited with ${exitText(this.exit.code, this.exit.signal)})` : '';
      w.reject(new ProbeFailure(`the server closed its output before answering ${w.method}${exit}`));
    }
    this.waiting.clear();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      this.line(line);
    }
    if (start < chunk.length && !this.skipping) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > MESSAGE_MAX_BYTES) {
        // A line this long is not a message we wait for: drop it up to its end.
        this.pending = [];
        this.pendingBytes = 0;
        this.skipping = true;
      } else this.pending.push(Buffer.from(rest));
    }
  }

  private line(bytes: Buffer): void {
    // Only an object can be a message; skipping the rest cheaply keeps a flood of garbage cheap.
    let i = 0;
    while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
    if (bytes[i] !== 0x7b) return;
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      return;
    }
    if (!isObject(message)) return;
    if (typeof message.method === 'string' && 'id' in message) {
      this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    for (const [id, w] of this.waiting) {
      if (answers(message, id)) {
        this.waiting.delete(id);
        w.resolve(message);
        return;
      }
    }
  }

  private write(message: Json): void {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  async call(id: number, method: string, params: Json): Promise<Json> {
    await this.spawned;
    if (this.failure) throw this.failure;
    const answer = new Promise<Json>((resolve, reject) => this.waiting.set(id, { method, resolve, reject }));
    if (this.ended) void this.closed();
    this.write(request(id, method, params));
    return answer;
  }

  async notify(method: string): Promise<void> {
    this.write({ jsonrpc: '2.0', method });
  }

  async close(): Promise<void> {
    this.child.stdin?.end();
    const pid = this.child.pid;
    if (pid !== undefined) killGroup(pid);
    this.child.stdout?.destroy();
    if (pid !== undefined) await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1000))]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Streamable HTTP
// ---------------------------------------------------------------------------------------------------------

const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The registry's headers with their values from the environment, or the reason one cannot be sent. */
function probeHeaders(headers: { name: string; env: string }[], env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    if (!isHeaderName(h.name)) throw new ProbeFailure(`${debugString(h.name)} is not a header name`);
    const value = env[h.env];
    if (value === undefined) {
      throw new ProbeFailure(`${h.env} is not set in the console's environment, so the ${h.name} header cannot be sent`);
    }
    if (!HEADER_VALUE.test(value)) throw new ProbeFailure(`${h.env} does not hold a valid header value`);
    out[h.name] = value;
  }
  return out;
}

/** A transport error as a person reads it: the cause undici wraps in "fetch failed". */
function causeOf(e: unknown): string {
  const cause = e instanceof Error ? e.cause : undefined;
  return cause instanceof Error && cause.message ? cause.message : errorText(e);
}

async function readCapped(body: ReadableStream<Uint8Array>, method: string): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MESSAGE_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ProbeFailure(`reading the answer to ${method}: the answer is larger than ${MESSAGE_MAX_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads server-sent events until one answers `id`. */
async function answerFromEvents(body: ReadableStream<Uint8Array>, id: number, method: string): Promise<Json> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replaceAll('\r', '');
      if (buffer.length > MESSAGE_MAX_BYTES) {
        throw new ProbeFailure(`reading the answer to ${method}: an event is larger than ${MESSAGE_MAX_BYTES} bytes`);
      }
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line === '') {
          if (data.length) {
            const text = data.join('\n');
            data = [];
            try {
              const message: unknown = JSON.parse(text);
              if (answers(message, id)) return message;
            } catch {
              // not a message: the next event may be
            }
          }
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  throw new ProbeFailure(`the server's event stream ended before it answered ${method}`);
}

class HttpTransport implements Transport {
  private sessionId: string | null = null;
  private protocol: string | null = null;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly signal: AbortSignal,
  ) {}

  private requestHeaders(): Record<string, string> {
    const h: Record<string, string> = {
      ...this.headers,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.protocol) h['mcp-protocol-version'] = this.protocol;
    return h;
  }

  private async post(method: string, message: Json): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: this.requestHeaders(),
        body: JSON.stringify(message),
        signal: this.signal,
        redirect: 'manual',
      });
    } catch (e) {
      if (this.signal.aborted) throw e;
      throw new ProbeFailure(`sending ${method}: ${causeOf(e)}`);
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      const reason = STATUS_CODES[response.status];
      throw new ProbeFailure(`the server answered ${method} with HTTP ${response.status}${reason ? ` ${reason}` : ''}`);
    }
    return response;
  }

  async call(id: number, method: string, params: Json): Promise<Json> {
    const response = await this.post(method, request(id, method, params));
    if (method === 'initialize') this.sessionId = response.headers.get('mcp-session-id');
    const type = response.headers.get('content-type') ?? '';
    let answer: Json;
    if (!response.body) throw new ProbeFailure(`the server's answer to ${method} is not its response`);
    if (type.toLowerCase().startsWith('text/event-stream')) {
      answer = await answerFromEvents(response.body, id, method);
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readCapped(response.body, method));
      } catch (e) {
        if (e instanceof ProbeFailure || this.signal.aborted) throw e;
        throw new ProbeFailure(`reading the answer to ${method}: ${causeOf(e)}`);
      }
      const found = (Array.isArray(parsed) ? parsed : [parsed]).find((m) => answers(m, id));
      if (!found) throw new ProbeFailure(`the server's answer to ${method} is not its response`);
      answer = found;
    }
    if (method === 'initialize' && isObject(answer.result)) this.protocol = str(answer.result.protocolVersion);
    return answer;
  }

  async notify(method: string): Promise<void> {
    const response = await this.post(method, { jsonrpc: '2.0', method });
    await response.body?.cancel().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (!this.sessionId) return;
    const headers: Record<string, string> = { ...this.headers, 'mcp-session-id': this.sessionId };
    if (this.protocol) headers['mcp-protocol-version'] = this.protocol;
    // The goodbye is a courtesy: its answer is ignored, and it gets a short time of its own.
    await fetch(this.url, { method: 'DELETE', headers, signal: AbortSignal.timeout(PROBE_HTTP_CONNECT_MS / 5) })
      .then((r) => r.body?.cancel())
      .catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------

function failed(error: string): Outcome {
  return {
    ok: false,
    error,
    server_name: null,
    server_version: null,
    protocol_version: null,
    instructions: null,
    tools: [],
  };
}

/** Runs the test against `upstream`. Never throws: a failure is `ok: false` with its reason. */
export async function probe(upstream: Upstream, options: ProbeOptions): Promise<Omit<ProbeResult, 'flow_warnings'>> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const timeoutText = `the server did not answer within ${Math.round(timeoutMs / 1000)} s`;
  const abort = new AbortController();
  let transport: Transport | null = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new ProbeFailure(timeoutText));
    }, timeoutMs);
  });
  let outcome: Outcome;
  try {
    if (upstream.kind === 'stdio') {
      if (upstream.command.length === 0 || (upstream.command[0] ?? '') === '') throw new ProbeFailure("the server's command is empty");
      transport = new StdioTransport(upstream.command);
    } else {
      transport = new HttpTransport(upstream.url, probeHeaders(upstream.headers, options.env), abort.signal);
    }
    outcome = await Promise.race([exchange(transport, options.version), deadline]);
  } catch (e) {
    outcome = failed(e instanceof ProbeFailure ? e.message : abort.signal.aborted ? timeoutText : `the test failed: ${causeOf(e)}`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  deadline.catch(() => undefined);
  const ms = Math.round(performance.now() - started);
  const stderr = !outcome.ok && transport instanceof StdioTransport ? await transport.stderrTail() : null;
  await transport?.close().catch(() => undefined);
  return {
    ok: outcome.ok,
    ms,
    error: outcome.error,
    server_name: outcome.server_name,
    server_version: outcome.server_version,
    protocol_version: outcome.protocol_version,
    instructions: outcome.instructions,
    tools: outcome.tools,
    ...(stderr === null ? {} : { stderr_tail: stderr }),
  };
}
