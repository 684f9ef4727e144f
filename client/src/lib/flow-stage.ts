// The staged tab's words and numbers, without a DOM: a flow's counts in a cell, the delta of the staged flow
// against the committed one, and which version a commit would make. Mirrors the stage report's arithmetic
// (init-doctor-stage.md §3.4–3.5) so the table and the report agree.

export interface ShareLike {
  share: number;
  lower: number;
  upper: number;
}

export interface CountsLike {
  lookups: number;
  used: number;
  served: number;
  detours: number;
  used_share: ShareLike | null;
}

/** `n word` with `s` unless n is 1. */
export function counted(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The share of lookups used and its interval: "67%, 30–90%", or null when nothing is known. */
export function shareText(share: ShareLike | null): string | null {
  if (share === null) return null;
  return `${pct(share.share)}, ${Math.round(share.lower * 100)}–${Math.round(share.upper * 100)}%`;
}

/** Signed staged − committed, as "+1 used, −2 detours" (U+2212 minus), or "as many used and detours". */
export function stageDelta(committed: CountsLike, staged: CountsLike): string {
  const parts: string[] = [];
  const signed = (n: number) => (n > 0 ? `+${n}` : `\u2212${Math.abs(n)}`);
  const used = staged.used - committed.used;
  const detours = staged.detours - committed.detours;
  if (used !== 0) parts.push(`${signed(used)} used`);
  if (detours !== 0) parts.push(`${signed(detours)} ${Math.abs(detours) === 1 ? 'detour' : 'detours'}`);
  return parts.length === 0 ? 'as many used and detours' : parts.join(', ');
}

/** The version number a commit would make: the next one, or the one after when the current flow is kept first. */
export function nextVersion(versions: readonly { version: number }[], unrecorded: boolean): number {
  const latest = versions.reduce((m, v) => Math.max(m, v.version), 0);
  return latest + (unrecorded ? 2 : 1);
}

/** Where an interval sits on a bar of `width` px: the band and the point. */
export function intervalBar(share: ShareLike, width: number): { left: number; band: number; point: number } {
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const left = Math.round(clamp(share.lower) * width);
  const right = Math.round(clamp(share.upper) * width);
  return { left, band: Math.max(2, right - left), point: Math.round(clamp(share.share) * width) };
}

/** What a version was, in words. */
export function versionWhat(kind: 'found' | 'commit' | 'rollback', restored: number | null): string {
  if (kind === 'found') return 'found in place';
  if (kind === 'commit') return 'committed';
  return restored === null ? 'rolled back' : `rolled back to version ${restored}`;
}

/** Whether a refusal means "nothing to commit" (the staged flow is the committed one). */
export function nothingToCommit(refused: string | null): boolean {
  return refused !== null && refused.includes('nothing to commit');
}
