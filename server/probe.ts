// The live connection test (console-api.md §4.18): `initialize`, then `tools/list` page by page, against a
// registered server, now. One time limit covers everything, and one read budget covers every byte read from
// the server; at the end everything a stdio server started is killed, in every case (probe/stdio.ts,
// probe/processes.ts). Values of the entry's variables, the model key and the one-off values are masked in
// every text of the answer, since the server wrote those texts, not the console (probe/mask.ts).
import { performance } from 'node:perf_hooks';
import { PROBE_TIMEOUT_MS } from '../shared/limits.ts';
import type { ProbeResult, Upstream } from '../shared/servers.ts';
import { ReadBudget } from './probe/budget.ts';
import { exchange, failed, ProbeFailure, type Outcome, type Transport } from './probe/exchange.ts';
import { causeOf, HttpTransport, probeHeaders } from './probe/http.ts';
import { Masker } from './probe/mask.ts';
import { StdioTransport, stopStdioProbes } from './probe/stdio.ts';

export interface ProbeOptions {
  /** The console's version, sent as clientInfo.version. */
  version: string;
  /** Where header values come from (the console's environment, one-off values on top). */
  env: Record<string, string | undefined>;
  /** Values never shown back: masked in every text of the answer. */
  secrets?: readonly string[];
  /** The cap for the whole exchange; tests shorten it. */
  timeoutMs?: number;
  /** The read budget; tests shorten it. */
  readMaxBytes?: number;
}

/** Kills every stdio server a test started and that still runs (the console's stop calls this). */
export function stopProbes(): void {
  stopStdioProbes();
}

/** A test's answer before the route adds the flow's warnings. */
export type ProbeAnswer = Omit<ProbeResult, 'flow_warnings'>;

/** Every text of the answer with the secrets masked. */
function masked(answer: ProbeAnswer, masker: Masker): ProbeAnswer {
  const m = (s: string | null) => (s === null ? null : masker.text(s));
  return {
    ...answer,
    error: m(answer.error),
    server_name: m(answer.server_name),
    server_version: m(answer.server_version),
    protocol_version: m(answer.protocol_version),
    instructions: m(answer.instructions),
    tools: answer.tools.map((t) => ({ ...t, name: masker.text(t.name), description: m(t.description), contract: m(t.contract) })),
    ...(answer.stderr_tail === undefined ? {} : { stderr_tail: masker.text(answer.stderr_tail) }),
  };
}

/** Runs the test against `upstream`. Never throws: a failure is `ok: false` with its reason. */
export async function probe(upstream: Upstream, options: ProbeOptions): Promise<ProbeAnswer> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const timeoutText = `the server did not answer within ${Math.round(timeoutMs / 1000)} s`;
  const masker = new Masker(options.secrets ?? []);
  const budget = new ReadBudget(options.readMaxBytes);
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
      transport = new StdioTransport(upstream.command, budget, masker);
    } else {
      transport = new HttpTransport(upstream.url, probeHeaders(upstream.headers, options.env), abort.signal, budget);
    }
    outcome = await Promise.race([exchange(transport, options.version), deadline, budget.spent]);
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
  const { ok, ...rest } = outcome;
  return masked({ ok, ms, ...rest, ...(stderr === null ? {} : { stderr_tail: stderr }) }, masker);
}
