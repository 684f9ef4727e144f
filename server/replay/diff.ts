// Two answers compared as JSON: each difference at its JSON Pointer (RFC 6901). A string that parses as a JSON
// object or array on both sides (a tool's text content) is compared as JSON, its inner pointer after `#`.
import type { ReplayDiff } from '../../shared/replay.ts';

const escape = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A text holding a JSON object or array, parsed; anything else is null. */
function jsonText(x: unknown): unknown {
  if (typeof x !== 'string') return null;
  const t = x.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return null;
  try {
    return JSON.parse(x);
  } catch {
    return null;
  }
}

function walk(recorded: unknown, live: unknown, path: string, inText: boolean, out: ReplayDiff[]): void {
  if (Array.isArray(recorded) && Array.isArray(live)) {
    const n = Math.max(recorded.length, live.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}/${i}`;
      if (i >= recorded.length) out.push({ path: p, live: live[i] });
      else if (i >= live.length) out.push({ path: p, recorded: recorded[i] });
      else walk(recorded[i], live[i], p, inText, out);
    }
    return;
  }
  if (isRecord(recorded) && isRecord(live)) {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(live)]);
    for (const k of keys) {
      const p = `${path}/${escape(k)}`;
      if (!Object.hasOwn(live, k)) out.push({ path: p, recorded: recorded[k] });
      else if (!Object.hasOwn(recorded, k)) out.push({ path: p, live: live[k] });
      else walk(recorded[k], live[k], p, inText, out);
    }
    return;
  }
  if (Object.is(recorded, live) || (typeof recorded === 'number' && recorded === live)) return;
  if (!inText) {
    const a = jsonText(recorded);
    const b = jsonText(live);
    if (a !== null && b !== null) return walk(a, b, `${path}#`, true, out);
  }
  out.push({ path, recorded, live });
}

/** Every difference between the two values, in document order. */
export function jsonDiffs(recorded: unknown, live: unknown): ReplayDiff[] {
  const out: ReplayDiff[] = [];
  walk(recorded, live, '', false, out);
  return out;
}

/** Whether `path` is `pointer` or lies under it (inside its value, or inside its text's JSON). */
export function under(path: string, pointer: string): boolean {
  if (path === pointer) return true;
  if (!path.startsWith(pointer)) return false;
  const next = path[pointer.length];
  return next === '/' || (next === '#' && !pointer.includes('#'));
}

export function ignoring(diffs: ReplayDiff[], pointers: readonly string[]): ReplayDiff[] {
  return pointers.length === 0 ? diffs : diffs.filter((d) => !pointers.some((p) => under(d.path, p)));
}
