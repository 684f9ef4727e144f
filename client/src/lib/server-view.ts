// Reading a server view for the pages: its flow summary (the list carries it as plain JSON), the flow in
// words, and the defaults the proxy applies when the entry leaves a field unset.
import * as v from 'valibot';
import { FlowSummarySchema, type FlowSummary } from '../../../shared/flows.ts';

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
export interface PolicyLike {
  flow: string | null;
  mode: string;
  surprise?: { kind: 'off' } | { kind: 'threshold'; nats: number } | null;
  flow_tools?: string[];
  guards?: boolean;
  judge?: { mode: 'log' | 'enforce'; context: string } | null;
  commit?: boolean;
  retain_days?: number | null;
  listen?: { addr: string; token_file?: string | null } | null;
}

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
