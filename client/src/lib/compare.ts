// Pure helpers of the compare page: its address, the words for each kind of row, a signed difference, and
// which two ticked sessions go on which side.
import type { CompareKind } from '../../../shared/compare.ts';
import { formatDuration } from './format.ts';

export const compareHref = (a: string, b: string) => `/sessions/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;

export const KIND_LABEL: Record<CompareKind, string> = {
  agent: 'agent’s call',
  lookup: 'flow lookup',
  hand_back: 'hand-back',
  shadow: 'shadow decision',
};

/** b minus a in words: "3 fewer", "2 more", "the same"; durations as "1.80 s less". */
export function differenceText(delta: number, unit: 'count' | 'ms'): string {
  if (delta === 0) return 'the same';
  if (unit === 'ms') return `${formatDuration(Math.abs(delta))} ${delta < 0 ? 'less' : 'more'}`;
  return `${Math.abs(delta)} ${delta < 0 ? 'fewer' : 'more'}`;
}

/** Whether a difference is good news for b: fewer turns, calls, errors or less time. */
export const better = (delta: number) => (delta < 0 ? 'better' : delta > 0 ? 'worse' : 'same');

/** JSON arguments in one line, cut for a table cell. */
export function argumentsText(args: unknown, max = 120): string {
  if (args === null || args === undefined) return '';
  const text = JSON.stringify(args);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The two ticked sessions in compare order: the one started first is a (usually the session without the
 * flow), the other b. Keys whose start is unknown keep the order they were ticked in.
 */
export function compareOrder(ticked: readonly string[], started: (key: string) => number | undefined): [string, string] | null {
  if (ticked.length !== 2) return null;
  const [x, y] = ticked as [string, string];
  const sx = started(x);
  const sy = started(y);
  if (sx !== undefined && sy !== undefined && sy < sx) return [y, x];
  return [x, y];
}

/** Ticks in the order given, each once (bulk actions take them all; Compare takes exactly two). */
export function tick(ticked: readonly string[], key: string, on: boolean): string[] {
  const rest = ticked.filter((k) => k !== key);
  return on ? [...rest, key] : rest;
}

/** Where a site's evidence is: the flow page's Evidence tab, opened at that site. */
export const siteEvidenceHref = (flowKey: string, site: string) => `/flows/${encodeURIComponent(flowKey)}?tab=evidence&site=${encodeURIComponent(site)}`;

/** A site's name as an element id (ids may not hold spaces; `(error)` sites keep apart from the others). */
export const siteAnchor = (site: string) => `evidence-${site.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
