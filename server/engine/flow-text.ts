// Pieces of a flow in words that flow-show and flow-diff both print (flow-review.md §4, §5): the decider it
// is weighed with, the arbiter's weights, code-feature fields, the order of sources at a site, constants.
// Written once so the two texts never drift apart.
import { compareText, sortedJson } from './format.ts';
import { servedDecider, type Flow } from './flows.ts';
import type { CodeField, Fold } from './flow-schema.ts';

/** `reach` or the habit alone: what the review weighs with. */
export function weighedName(flow: Flow): string {
  return servedDecider(flow) === 'reach' ? '`reach`' : 'the habit alone';
}

export function fieldText(field: CodeField): string {
  if ('Scalar' in field) return field.Scalar;
  return field.Len === '' ? 'len(output)' : `len(${field.Len})`;
}

/** The arbiter's weight names, in order (§1.3.8). */
export function weightNames(flow: Flow): string[] {
  return [
    'ln the habit\'s probability',
    'ln the one-question probability',
    'ln the split question\'s probability',
    'handing back',
    ...flow.weighed.map((p) => `predicate \`${p.id}\``),
    'the model\'s record at the site, on its pick',
  ];
}

/** The mean weights over folds: the sum, in file order, of each weight divided by the number of folds. */
export function meanWeights(folds: Fold[]): number[] {
  const first = folds[0];
  if (!first) return [];
  return first.weights.map((_, i) => folds.reduce((sum, f) => sum + (f.weights[i] ?? 0) / folds.length, 0));
}

/** Pairs of (name, mean weight), stopping at the shorter list. */
export function namedWeights(flow: Flow): [string, number][] {
  const names = weightNames(flow);
  const means = meanWeights(flow.folds);
  return names.slice(0, Math.min(names.length, means.length)).map((n, i) => [n, means[i]!]);
}

/** A fold as comparable text: folds with equal keys are one fit. */
export function foldKey(fold: Fold): string {
  const sites = [...fold.rates.sites].sort(([a], [b]) => compareText(a, b));
  return sortedJson({ ...fold, rates: { ...fold.rates, sites } });
}

/** For each (tool, arg, site) of `site_sources` whose order matters, its usable sources, most used first (§4.5). */
export function siteOrders(flow: Flow): { tool: string; arg: string; site: string; order: { tool: string; path: string; n: number }[] }[] {
  const triples = new Map<string, [string, string, string]>();
  for (const s of flow.bindings.site_sources) triples.set(JSON.stringify([s.tool, s.arg, s.site]), [s.tool, s.arg, s.site]);
  const sorted = [...triples.values()].sort(
    (a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]) || compareText(a[2], b[2]),
  );
  const out: ReturnType<typeof siteOrders> = [];
  for (const [tool, arg, site] of sorted) {
    const entry = flow.bindings.sources.find(([[t, a]]) => t === tool && a === arg);
    if (!entry) continue;
    const stats = entry[1];
    const rules = stats.found
      .filter(([, count]) => count >= 2 && count >= 0.1 * stats.values)
      .map(([[t, p]]) => [t, p] as [string, string])
      .sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
    const counted = rules.map(([t, p]) => ({
      tool: t,
      path: p,
      n: flow.bindings.site_sources
        .filter((s) => s.tool === tool && s.arg === arg && s.site === site && s.source[0] === t && s.source[1] === p)
        .reduce((sum, s) => sum + s.values, 0),
    }));
    if (counted.reduce((sum, r) => sum + r.n, 0) < 5) continue;
    counted.sort((a, b) => b.n - a.n);
    if (counted.length > 1) out.push({ tool, arg, site, order: counted });
  }
  return out;
}

/** The compact JSON of a constant. */
export function constantJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
