// Where a flow lives in the UI and what it is called there. A committed version's file key is its stem, a
// number that turns into `1~…` once another flow has versions too, so a version is addressed under its
// flow (/flows/<key>/versions/<n>) and named after it, never by its bare number.
import type { FlowSummary } from '../../../shared/flows.ts';

/** The page of a flow: a version with a known flow under that flow, anything else by its key. */
export function flowHref(f: Pick<FlowSummary, 'key' | 'version_of'>): string {
  const v = f.version_of;
  if (v?.flow) return versionHref(v.flow, v.version);
  return `/flows/${encodeURIComponent(f.key)}`;
}

export function versionHref(flowKey: string, version: number): string {
  return `/flows/${encodeURIComponent(flowKey)}/versions/${version}`;
}

/** A flow's name as the UI shows it: a version is "<flow> v<n>", never its file's stem. */
export function flowLabel(f: Pick<FlowSummary, 'key' | 'version_of'>): string {
  const v = f.version_of;
  return v ? `${v.flow ?? v.name} v${v.version}` : f.key;
}

/** The file key of version `version` of the flow `flowKey`, or null when the list has no such version. */
export function versionKey(items: readonly FlowSummary[], flowKey: string, version: number): string | null {
  return items.find((f) => f.version_of?.flow === flowKey && f.version_of.version === version)?.key ?? null;
}

/** A version number from the address: a whole number, else null. */
export function versionFromParam(param: string | undefined): number | null {
  return param !== undefined && /^\d{1,9}$/.test(param) ? Number(param) : null;
}
