// What a threshold would change, from the decisions flow logs recorded with their probabilities. A decision
// the threshold governed (a lookup, or a hand-back for a probability below the bar) is judged again as the
// proxy judges it: a lookup when prob ≥ T and prob × binding ≥ T. Any other hand-back (site not promoted,
// the surprise gate, nothing to bind) stays one. Each decision is judged on its own: what a run would have
// decided after a lookup it did not make, or made only at T, is not in any log.
import type { FlowDecision } from '../../shared/sessions.ts';
import type { WhatIf, WhatIfCounts, WhatIfSession } from '../../shared/whatif.ts';
import { compareText } from './format.ts';

/** What one recorded decision keeps for the what-if: small, so a thousand sessions' worth stays in memory. */
export interface OutlinedDecision {
  site: string;
  /** The flow looked up (served, or logged in shadow), as recorded. */
  served: boolean;
  /** The probability compared with the threshold; null when the threshold did not decide this. */
  prob: number | null;
  /** The chance the bound arguments are the agent's own (1 when the line has none). */
  binding: number;
}

/** `<tool> at <p:.2>, below <T>` or `<tool> at <p:.2>, times <c:.2> for its arguments, below <T>` (flow.rs). */
const BELOW_THRESHOLD = / at \d+\.\d+, (?:times (\d+\.\d+) for its arguments, )?below [^ ]+$/;

/** The decision as the what-if reads it. */
export function outlineDecision(d: FlowDecision): OutlinedDecision {
  if (d.action === 'lookup') return { site: d.site, served: true, prob: d.prob, binding: d.binding ?? 1 };
  const m = d.reason === null ? null : BELOW_THRESHOLD.exec(d.reason);
  if (!m) return { site: d.site, served: false, prob: null, binding: 1 };
  // A hand-back line carries no binding; its reason does, to two decimals.
  const binding = d.binding ?? (m[1] === undefined ? 1 : Number(m[1]));
  return { site: d.site, served: false, prob: d.prob, binding };
}

/** Whether the decision would look up at threshold `t`. */
export function servedAt(d: OutlinedDecision, t: number): boolean {
  if (d.prob === null) return d.served;
  return d.prob >= t && d.prob * d.binding >= t;
}

const zero = (): WhatIfCounts => ({ served_then: 0, handed_back_then: 0, served_at: 0, handed_back_at: 0 });

function add(c: WhatIfCounts, then: boolean, at: boolean): void {
  if (then) c.served_then++;
  else c.handed_back_then++;
  if (at) c.served_at++;
  else c.handed_back_at++;
}

/** The what-if at `threshold` over sessions given newest first, each with its outlined decisions. */
export function whatIfAt(sessions: readonly { key: string; decisions: readonly OutlinedDecision[] }[], threshold: number): WhatIf {
  const total = zero();
  const sites = new Map<string, WhatIfCounts>();
  const changed: (WhatIfSession & { flips: number; order: number })[] = [];
  sessions.forEach((s, order) => {
    const mine = { key: s.key, served_then: 0, served_at: 0, flips: 0, order };
    for (const d of s.decisions) {
      const at = servedAt(d, threshold);
      add(total, d.served, at);
      let c = sites.get(d.site);
      if (!c) sites.set(d.site, (c = zero()));
      add(c, d.served, at);
      if (d.served) mine.served_then++;
      if (at) mine.served_at++;
      if (at !== d.served) mine.flips++;
    }
    if (mine.flips > 0) changed.push(mine);
  });
  changed.sort((a, b) => b.flips - a.flips || a.order - b.order);
  return {
    threshold,
    sessions: sessions.length,
    total,
    sites: [...sites].sort(([a], [b]) => compareText(a, b)).map(([site, c]) => ({ site, ...c })),
    changed: changed.map(({ key, served_then, served_at }) => ({ key, served_then, served_at })),
  };
}
