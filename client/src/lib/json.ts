// JSON helpers for showing values from logs: pretty, one-line compact with a cut, and JSON Lines with line
// numbers (lines that do not parse stay as text, flagged).

export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** A string as is, anything else as JSON; whitespace runs collapse to one space; cut to max with "…". */
export function compact(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, Math.max(0, max - 1))}…` : one;
}

export interface JsonLine {
  n: number;
  text: string;
  value: unknown;
  ok: boolean;
}

export function jsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    try {
      out.push({ n: i + 1, text: line, value: JSON.parse(line) as unknown, ok: true });
    } catch {
      out.push({ n: i + 1, text: line, value: null, ok: false });
    }
  });
  return out;
}

/** "1 item" / "3 keys": what a collapsed JSON node shows. */
export function jsonSummary(value: unknown): string {
  if (Array.isArray(value)) return value.length === 1 ? '1 item' : `${value.length} items`;
  if (value !== null && typeof value === 'object') {
    const n = Object.keys(value).length;
    return n === 1 ? '1 key' : `${n} keys`;
  }
  return '';
}

/**
 * The log line each timeline event came from, by its index in `events` (null when none matches). Events carry
 * no line number: the k-th event with a (t_ms, from) is matched to the k-th line with that (t_ms, from), or to
 * the last such line (a batch line gives several events).
 */
export function eventLines(events: readonly { t_ms: number; from: string }[], lines: readonly JsonLine[]): (JsonLine | null)[] {
  const byKey = new Map<string, JsonLine[]>();
  for (const l of lines) {
    if (!l.ok || l.value === null || typeof l.value !== 'object') continue;
    const v = l.value as { t_ms?: unknown; from?: unknown };
    if (typeof v.t_ms !== 'number' || typeof v.from !== 'string') continue;
    const key = `${v.t_ms}|${v.from}`;
    const list = byKey.get(key) ?? [];
    list.push(l);
    byKey.set(key, list);
  }
  const seen = new Map<string, number>();
  return events.map((e) => {
    const key = `${e.t_ms}|${e.from}`;
    const list = byKey.get(key);
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    return list ? (list[Math.min(k, list.length - 1)] ?? null) : null;
  });
}
