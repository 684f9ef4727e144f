// The activity chart's arithmetic (ui.md §7.1.1): a "nice" top for the y axis, ticks, bar geometry and
// which days get an x label. Pure, so the chart component only draws.

export function niceScale(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 4, step: 1 };
  const rough = max / 4;
  const pow = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= rough) ?? 10 * pow;
  step = Math.max(1, step);
  return { top: Math.ceil(max / step) * step, step };
}

export function ticks(top: number, step: number): number[] {
  const out: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

/** Indexes of the days that get a label: every k-th counting back from the last; the last always. */
export function labelledDays(days: number, band: number): Set<number> {
  const k = Math.max(1, Math.ceil(52 / Math.max(1, band)));
  const out = new Set<number>();
  for (let i = days - 1; i >= 0; i -= k) out.add(i);
  return out;
}

export function barWidth(band: number): number {
  return Math.min(24, Math.max(6, band * 0.56));
}

/** Heights of the two stacked segments (bottom: calls, top: lookups), each non-zero one at least 2 px. */
export function stack(calls: number, lookups: number, top: number, plotHeight: number): { calls: number; lookups: number; gap: number } {
  const h = (v: number) => (v > 0 ? Math.max(2, (v / top) * plotHeight) : 0);
  const c = h(calls);
  const l = h(lookups);
  return { calls: c, lookups: l, gap: c > 0 && l > 0 ? 2 : 0 };
}

/** An x label that would reach past either edge ("23 Nov" at the right end) is anchored to that edge instead. */
export function labelPlace(center: number, width: number, half = 24): { x: number; anchor: 'start' | 'middle' | 'end' } {
  if (center + half > width) return { x: width - 1, anchor: 'end' };
  if (center - half < 0) return { x: 1, anchor: 'start' };
  return { x: center, anchor: 'middle' };
}
