// A replayed call's verdict from its two answers, the run's counts, and the paths that look volatile. Pure:
// comparing again with other ignored paths uses the answers kept in the run and never calls the server.
import type { ReplayCall, ReplayCounts, ReplayDiff, Verdict, VolatilePath } from '../../shared/replay.ts';
import { ignoring, jsonDiffs } from './diff.ts';

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Why an answer (a JSON-RPC `result` or `error` object, as kept in a call) is an error, or null. */
export function answerError(answer: unknown): string | null {
  if (!isRecord(answer)) return 'no answer';
  if (isRecord(answer.error)) {
    const message = typeof answer.error.message === 'string' ? answer.error.message : '(no message)';
    return `a JSON-RPC error: ${message}`;
  }
  if (isRecord(answer.result) && answer.result.isError === true) return 'the tool answered isError: true';
  return null;
}

export interface Verdicted {
  verdict: Verdict;
  diffs: ReplayDiff[];
  error: string | null;
}

/** `recorded` and `live` as kept in a call: `{result}` or `{error}`; `failure` is why no live answer came. */
export function verdictOf(recorded: unknown, live: unknown, failure: string | null, ignore: readonly string[]): Verdicted {
  const was = answerError(recorded);
  if (was !== null) return { verdict: 'error', diffs: [], error: `recorded: ${was === 'no answer' ? 'the log holds no answer to this call' : was}` };
  if (failure !== null) return { verdict: 'error', diffs: [], error: `live: ${failure}` };
  const now = answerError(live);
  if (now !== null) return { verdict: 'error', diffs: [], error: `live: ${now}` };
  const r = isRecord(recorded) ? recorded.result : undefined;
  const l = isRecord(live) ? live.result : undefined;
  const diffs = ignoring(jsonDiffs(r, l), ignore);
  return { verdict: diffs.length === 0 ? 'same' : 'differs', diffs, error: null };
}

export function countsOf(calls: readonly ReplayCall[]): ReplayCounts {
  const counts: ReplayCounts = { same: 0, differs: 0, error: 0, skipped_write: 0, gone: 0 };
  for (const c of calls) counts[c.verdict]++;
  return counts;
}

/** Paths that differ in every compared call of a tool, for tools compared at least twice. */
export function volatilePaths(calls: readonly ReplayCall[]): VolatilePath[] {
  const byTool = new Map<string, ReplayCall[]>();
  for (const c of calls) {
    if (c.verdict !== 'same' && c.verdict !== 'differs') continue;
    byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  }
  const out: VolatilePath[] = [];
  for (const [tool, compared] of byTool) {
    if (compared.length < 2) continue;
    const [first, ...rest] = compared.map((c) => new Set(c.diffs.map((d) => d.path)));
    for (const path of first ?? []) {
      if (rest.every((s) => s.has(path))) out.push({ tool, path, calls: compared.length });
    }
  }
  return out;
}
