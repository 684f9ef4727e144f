// The live server of a replay, started and authenticated exactly as the connection test does (probe/): the
// registry's command or URL and headers, the same `initialize` and `tools/list`, one read budget for every
// byte read, its texts masked, and everything it started killed at the end. Each call has its own cap.
import type { Upstream } from '../../shared/servers.ts';
import { REPLAY_CALL_TIMEOUT_MS, REPLAY_READ_MAX_BYTES } from '../../shared/replay.ts';
import type { ToolInfo } from '../../shared/sessions.ts';
import { errorText } from '../../shared/error-text.ts';
import { ReadBudget } from '../probe/budget.ts';
import { exchange, isObject, ProbeFailure, type Transport } from '../probe/exchange.ts';
import { causeOf, HttpTransport, probeHeaders } from '../probe/http.ts';
import { Masker } from '../probe/mask.ts';
import { secretValues } from '../probe/secrets.ts';
import { StdioTransport } from '../probe/stdio.ts';

/** What a live call came back with: the answer's `result` or `error` object, or why none came. */
export type LiveAnswer = { ok: true; answer: unknown; bytes: number } | { ok: false; failure: string };

/** Every string in `value` with the secrets masked (a server may echo its environment in any field). */
function maskedJson(value: unknown, masker: Masker): unknown {
  if (typeof value === 'string') return masker.text(value);
  if (Array.isArray(value)) return value.map((x) => maskedJson(x, masker));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, x]) => [masker.text(k), maskedJson(x, masker)]));
  return value;
}

export class LiveServer {
  private nextId = 1000;

  private constructor(
    private readonly transport: Transport,
    private readonly budget: ReadBudget,
    private readonly masker: Masker,
    private readonly abort: AbortController,
    /** The live `tools/list`, as the connection test reads it. */
    readonly tools: ToolInfo[],
  ) {}

  /** Starts the server and lists its tools; throws ProbeFailure with the reason it could not. */
  static async open(upstream: Upstream, version: string, signal: AbortSignal): Promise<LiveServer> {
    const env = process.env;
    const masker = new Masker(await secretValues(upstream, env, {}));
    const budget = new ReadBudget(REPLAY_READ_MAX_BYTES);
    const abort = new AbortController();
    const stop = () => abort.abort();
    signal.addEventListener('abort', stop, { once: true });
    let transport: Transport | null = null;
    try {
      if (upstream.kind === 'stdio') {
        if ((upstream.command[0] ?? '') === '') throw new ProbeFailure("the server's command is empty");
        transport = new StdioTransport(upstream.command, budget, masker);
      } else {
        transport = new HttpTransport(upstream.url, probeHeaders(upstream.headers, env), abort.signal, budget);
      }
      const outcome = await capped(exchange(transport, version), budget, abort.signal, 'initialize and tools/list');
      if (!outcome.ok) throw new ProbeFailure(outcome.error ?? 'the server could not be tested');
      return new LiveServer(transport, budget, masker, abort, outcome.tools);
    } catch (e) {
      await transport?.close().catch(() => undefined);
      abort.abort();
      throw new ProbeFailure(masker.text(e instanceof ProbeFailure ? e.message : `starting the server: ${causeOf(e)}`));
    }
  }

  /** Sends one `tools/call`; never throws. */
  async call(tool: string, args: unknown): Promise<LiveAnswer> {
    const id = this.nextId++;
    const before = this.budget.used;
    try {
      const message = await capped(this.transport.call(id, 'tools/call', { name: tool, arguments: args }), this.budget, this.abort.signal, `tools/call ${tool}`);
      const answer = 'error' in message && message.error !== undefined ? { error: message.error } : { result: message.result ?? null };
      return { ok: true, answer: maskedJson(answer, this.masker), bytes: this.budget.used - before };
    } catch (e) {
      return { ok: false, failure: this.masker.text(e instanceof ProbeFailure ? e.message : causeOf(e)) };
    }
  }

  /** Kills the server's process group and all it left (stdio), or ends the HTTP session. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.transport.close().catch(() => undefined);
  }
}

/** `work` within the call cap, the read budget and the run's abort. */
async function capped<T>(work: Promise<T>, budget: ReadBudget, signal: AbortSignal, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => undefined as void;
  const limits = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeFailure(`${what}: no answer within ${REPLAY_CALL_TIMEOUT_MS / 1000} s`)), REPLAY_CALL_TIMEOUT_MS);
    onAbort = () => reject(new ProbeFailure('the run was stopped'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // Lost the race: its later failure (the server killed at the end) is nobody's to handle.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, limits, budget.spent]);
  } catch (e) {
    throw e instanceof ProbeFailure ? e : new ProbeFailure(errorText(e));
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
