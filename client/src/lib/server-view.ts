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
