// Which flow the Compare tab diffs this one with, and in which direction, as pure functions of the flow list:
// by default the other flow is one of the same domain (not a version in a .history/), and a flow derived from
// this one (<name>.promoted, <name>.staged) is the newer side, so the diff reads forwards.
import type { FlowSummary } from '../../../shared/flows.ts';

/** The two flows of a diff and the threshold and tolerance it is read at, as GET /api/flows/diff takes them. */
export interface DiffPair {
  from: string;
  to: string;
  threshold: number;
  tolerance: number;
}

/** Whether `a` is made from `b`: `b.promoted`, `b.staged`, or a committed version of `b` made later. */
export function derivedFrom(a: FlowSummary, b: FlowSummary): boolean {
  return a.name.startsWith(`${b.name}.`) && !a.version_of;
}

/** The default direction: this flow is the newer one, unless the other is made from it. */
export function thisIsNewerByDefault(self: FlowSummary | undefined, other: FlowSummary | null): boolean {
  if (!self || !other) return true;
  if (derivedFrom(other, self)) return false;
  if (derivedFrom(self, other)) return true;
  if (other.version_of && other.version_of.flow === self.key) return true;
  if (self.version_of && self.version_of.flow === other.key) return false;
  return true;
}

/** The flows this one can be compared with: every other flow that loads. */
export function comparableFlows(flows: readonly FlowSummary[], flowKey: string): FlowSummary[] {
  return flows.filter((f) => f.key !== flowKey && f.error === null);
}

/** The one picked (`compare`), else one of the same domain, preferring a flow over a version. */
export function otherFlow(others: readonly FlowSummary[], domain: string, compare: string | null): FlowSummary | null {
  return (
    others.find((f) => f.key === compare) ??
    others.find((f) => f.domain === domain && !f.version_of) ??
    others.find((f) => f.domain === domain) ??
    others[0] ??
    null
  );
}

export function diffPair(other: FlowSummary | null, flowKey: string, thisIsNewer: boolean, at: { threshold: number; tolerance: number }): DiffPair | null {
  if (other === null) return null;
  return thisIsNewer ? { from: other.key, to: flowKey, ...at } : { from: flowKey, to: other.key, ...at };
}

/** "3 of 4 sites scored" is the CLI's wording; say why 4 when the flow has 3 sites. */
export function promotionNotes(flows: readonly (FlowSummary | null | undefined)[]): string[] {
  const lines: string[] = [];
  for (const f of flows) {
    const p = f?.promoted;
    if (!f || !p || p.sites_scored <= f.sites) continue;
    const extra = p.sites_scored - f.sites;
    lines.push(
      `${f.key} has ${f.sites} ${f.sites === 1 ? 'site' : 'sites'}; engine promote scored ${p.sites_scored} calls: every call the flow decided after, also ${extra === 1 ? 'one' : extra} it never looks anything up after, which ${extra === 1 ? 'is' : 'are'} never promoted.`,
    );
  }
  return lines;
}
