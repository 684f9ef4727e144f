// Reading a server view for the pages: its flow summary (the list carries it as plain JSON), the flow in
// words, and the defaults the proxy applies when the entry leaves a field unset.
import * as v from 'valibot';
import { FlowSummarySchema, type FlowSummary } from '../../../shared/flows.ts';
import type { JobKind } from '../../../shared/jobs.ts';
import type { PolicyFields } from '../../../shared/servers.ts';

/** The list's flow_summary, when it has the summary's shape. */
export function flowSummaryOf(value: unknown): FlowSummary | null {
  if (value === null || value === undefined) return null;
  const parsed = v.safeParse(FlowSummarySchema, value);
  return parsed.success ? parsed.output : null;
}

/** The decider as the proxy will run it: the entry's, else the flow's default. */
export function deciderText(decider: string | null, flow: FlowSummary | null): string {
  if (decider !== null) return decider;
  if (flow === null) return 'the flow’s default';
  const name = flow.has_arbiter ? 'arbiter' : flow.has_reach ? 'reach' : 'habit';
  return `${name} (the flow’s default)`;
}

export function thresholdText(threshold: number | null): string {
  return threshold === null ? '0.3 (the proxy’s default)' : String(threshold);
}

/** The proxy's argv as one shell line: `engine-proxy` and the server's arguments. */
export function proxyCommand(args: readonly string[], quote: (w: string) => string): string {
  return ['engine-proxy', ...args.map(quote)].join(' ');
}

/** The policy fields a server view may carry (a later engine's registry fields). */
export type PolicyLike = PolicyFields & { flow: string | null; mode: string };

/** The proxy's policy in words, one [label, value] per field that is set; empty when none is. */
export function policyRows(s: PolicyLike): [string, string][] {
  const rows: [string, string][] = [];
  const runsFlow = s.flow !== null && s.mode !== 'record';
  if (runsFlow && s.surprise) {
    rows.push(['Surprise gate', s.surprise.kind === 'off' ? 'off: the flow never hands back on surprise' : `hands back above ${s.surprise.nats} nats`]);
  }
  if (runsFlow && s.flow_tools && s.flow_tools.length > 0) rows.push(['Tools the flow may call', s.flow_tools.join(', ')]);
  if (s.guards) rows.push(['Policy guards', 'on: calls that break the domain’s policy are refused']);
  if (s.judge) {
    rows.push(['Confirmation judge', `${s.judge.mode === 'enforce' ? 'refuses the writes it fails' : 'logs its judgments'}; reads ${s.judge.context}`]);
  }
  if (s.commit) rows.push(['engine_commit', 'offered: several calls in one']);
  if (s.retain_days != null) rows.push(['Keeps sessions', `${s.retain_days} ${s.retain_days === 1 ? 'day' : 'days'}`]);
  if (s.listen) rows.push(['Listens at', s.listen.token_file ? `${s.listen.addr}, token in ${s.listen.token_file}` : s.listen.addr]);
  return rows;
}

/** A next step that is a job kind, to run here over the console's own data directory. */
export interface StepJob {
  kind: Extract<JobKind, 'learn' | 'promote'>;
  label: string;
  href: string;
}

/** Where a server records, relative to the data directory when it lies inside it (a job's `--sessions`). */
export function recordDirInData(s: { name: string; mode: string; record_dir: string | null }, dataDir: string, dataDirShown: string): string {
  if (s.record_dir === null) return `${s.mode === 'shadow' ? 'shadow' : 'logs'}/${s.name}`;
  const dir = s.record_dir.replace(/\/+$/, '');
  for (const base of [dataDir.replace(/\/+$/, ''), dataDirShown.replace(/\/+$/, '')]) {
    if (dir.startsWith(`${base}/`)) return dir.slice(base.length + 1);
  }
  return dir;
}

/**
 * The next steps that are job kinds, as jobs over the console's data directory: learn a flow from the
 * server's sessions and later promote it (recording), promote its shadow flow, or learn again (serving).
 */
export function stepJobs(
  s: { name: string; mode: string; flow: string | null; record_dir: string | null; flow_key: string | null },
  dataDir: string,
  dataDirShown: string,
): StepJob[] {
  const sessions = recordDirInData(s, dataDir, dataDirShown);
  const q = (params: Record<string, string>) => `/jobs/new?${new URLSearchParams(params).toString()}`;
  const learn: StepJob = {
    kind: 'learn',
    label: `Learn a flow from ${s.name}’s sessions`,
    href: q({ kind: 'learn', domain: s.name, sessions }),
  };
  if (s.flow === null || s.mode === 'record') {
    // The steps go on to promote the learned flow on the sessions of its shadow run.
    const promote: StepJob = {
      kind: 'promote',
      label: 'Promote it, once it has run in shadow',
      href: q({ kind: 'promote', flow: s.name, sessions: `shadow/${s.name}` }),
    };
    return [learn, promote];
  }
  if (s.mode === 'shadow') {
    return [{ kind: 'promote', label: 'Promote the shadow flow', href: q({ kind: 'promote', ...(s.flow_key ? { flow: s.flow_key } : {}), sessions }) }];
  }
  return [{ ...learn, label: `Learn again from ${s.name}’s sessions` }];
}
