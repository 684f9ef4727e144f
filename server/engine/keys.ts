// Keys address sessions and flows in URLs. A key is the file's stem, so links survive restarts while the
// files stay put; stems that clash get `~` and 8 hex digits of the SHA-256 of the relative path
// (console-api.md §3.1).
import { createHash } from 'node:crypto';
import { KEY_HASH_HEX } from '../../shared/limits.ts';

/**
 * Whether a stem is its own key base: ASCII alphanumerics and `. _ -` only, and not all dots (nor empty). A loop
 * over its code units rather than a regular expression: a restart keys a million logs.
 */
function safeStem(stem: string): boolean {
  let notDots = false;
  for (let i = 0; i < stem.length; i++) {
    const c = stem.charCodeAt(i);
    if (c === 0x2e) continue;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d) notDots = true;
    else return false;
  }
  return notDots;
}

/** The stem made URL-safe: anything but ASCII alphanumerics and `. _ -` becomes `_`. */
export function keyBase(stem: string): string {
  // Most stems are already safe (and not all dots): the same string, without a copy.
  if (safeStem(stem)) return stem;
  // Per Unicode scalar, not per UTF-16 unit: an astral character is one `_`.
  const out = stem.replace(/[^A-Za-z0-9._-]/gu, '_');
  return out === '' || /^\.+$/.test(out) ? '_' : out;
}

export function pathHash(rel: string): string {
  return createHash('sha256').update(rel).digest('hex');
}

/** Keys for one list of files, given each file's stem and relative path, in the list's order. */
export function assignKeys(items: readonly { stem: string; rel: string }[], reserved: ReadonlySet<string> = new Set()): string[] {
  const bases = items.map((i) => keyBase(i.stem));
  const counts = new Map<string, number>();
  for (const b of bases) counts.set(b, (counts.get(b) ?? 0) + 1);
  const keys = bases.map((b, i) =>
    (counts.get(b) ?? 0) > 1 || reserved.has(b) ? `${b}~${pathHash(items[i]!.rel).slice(0, KEY_HASH_HEX)}` : b,
  );
  const seen = new Map<string, number>();
  for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  return keys.map((k, i) => ((seen.get(k) ?? 0) > 1 ? `${bases[i]}~${pathHash(items[i]!.rel)}` : k));
}

/** Session keys that would shadow a literal route (`/api/sessions/compare`, `/otlp`, `/download`): such a stem takes a hash. */
export const RESERVED_SESSION_KEYS: ReadonlySet<string> = new Set(['compare', 'otlp', 'download']);
/** Flow keys that would shadow a literal route (`/api/flows/diff`). */
export const RESERVED_FLOW_KEYS: ReadonlySet<string> = new Set(['diff']);
