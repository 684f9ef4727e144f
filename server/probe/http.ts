// A Streamable HTTP server for a connection test (rev. 2025-06-18): each message POSTed with the registry's
// headers, filled from the named environment variables (their values are sent, never returned or logged);
// an answer read as JSON or as server-sent events. Every byte of every answer counts against the test's read
// budget, so an answer or an event that never ends costs a bounded amount of memory.
import { STATUS_CODES } from 'node:http';
import { PROBE_HTTP_CONNECT_MS } from '../../shared/limits.ts';
import { isHeaderName } from '../../shared/credentials.ts';
import { errorText } from '../../shared/error-text.ts';
import { debugString } from '../engine/format.ts';
import type { ReadBudget } from './budget.ts';
import { answers, isObject, ProbeFailure, request, str, type JsonObject, type Transport } from './exchange.ts';

const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The registry's headers with their values from the environment, or the reason one cannot be sent. */
export function probeHeaders(headers: { name: string; env: string }[], env: Record<string, string | undefined>): Record<string, string> {
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
export function causeOf(e: unknown): string {
  const cause = e instanceof Error ? e.cause : undefined;
  return cause instanceof Error && cause.message ? cause.message : errorText(e);
}

/** Reads a body chunk by chunk, each counted against the budget; past it, the read is cancelled. */
async function* chunks(body: ReadableStream<Uint8Array>, budget: ReadBudget): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!budget.take(value.length)) throw budget.failure();
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function readAll(body: ReadableStream<Uint8Array>, budget: ReadBudget): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks(body, budget)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/** Reads server-sent events until one answers `id` (CR dropped; an event ends at a blank line). */
async function answerFromEvents(body: ReadableStream<Uint8Array>, budget: ReadBudget, id: number, method: string): Promise<JsonObject> {
  const decoder = new TextDecoder();
  let rest = '';
  let data: string[] = [];
  for await (const chunk of chunks(body, budget)) {
    const text = rest + decoder.decode(chunk, { stream: true }).replaceAll('\r', '');
    let start = 0;
    // `rest` holds no newline: the search starts after it, so a line that never ends is not scanned again.
    for (let nl = text.indexOf('\n', rest.length); nl !== -1; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      start = nl + 1;
      if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      if (line !== '' || data.length === 0) continue;
      const event = data.join('\n');
      data = [];
      try {
        const message: unknown = JSON.parse(event);
        if (answers(message, id)) return message;
      } catch {
        // not a message: the next event may be
      }
    }
    rest = text.slice(start);
  }
  throw new ProbeFailure(`the server's event stream ended before it answered ${method}`);
}

export class HttpTransport implements Transport {
  private sessionId: string | null = null;
  private protocol: string | null = null;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly signal: AbortSignal,
    private readonly budget: ReadBudget,
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

  private async post(method: string, message: JsonObject): Promise<Response> {
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

  async call(id: number, method: string, params: JsonObject): Promise<JsonObject> {
    const response = await this.post(method, request(id, method, params));
    if (method === 'initialize') this.sessionId = response.headers.get('mcp-session-id');
    const type = response.headers.get('content-type') ?? '';
    let answer: JsonObject;
    if (!response.body) throw new ProbeFailure(`the server's answer to ${method} is not its response`);
    if (type.toLowerCase().startsWith('text/event-stream')) {
      answer = await answerFromEvents(response.body, this.budget, id, method);
    } else {
      let text: string;
      try {
        text = await readAll(response.body, this.budget);
      } catch (e) {
        if (e instanceof ProbeFailure || this.signal.aborted) throw e;
        throw new ProbeFailure(`reading the answer to ${method}: ${causeOf(e)}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // JSON.parse's own message quotes the start of the text, which may be an echoed credential, cut.
        throw new ProbeFailure(`reading the answer to ${method}: it is not JSON (${text.length} characters)`);
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
