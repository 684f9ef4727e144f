// How the console writes numbers, sizes, durations and times (ui.md §6). Pure functions over plain values,
// with "now" passed in where it matters, so they are unit-tested in Node.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const countFormat = new Intl.NumberFormat('en-US');

/** 1,284; null or NaN → "—". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  return countFormat.format(n);
}

function trimZero(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** 9,999 · 12.9K · 4.2M · 123K. */
export function formatCompact(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  const a = Math.abs(n);
  if (a < 10_000) return formatCount(n);
  const steps: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, unit] of steps) {
    if (a >= size) {
      const v = n / size;
      return `${trimZero(Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1))}${unit}`;
    }
  }
  return formatCount(n);
}

/** 940 B · 4.9 KB · 12.3 MB · 123 MB. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

/** 320 ms · 1.24 s · 12.4 s · 4 min 5 s · 2 h 14 min · 3 d 4 h. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  const m = Math.max(0, ms);
  if (m < 1000) return `${Math.round(m)} ms`;
  if (m < 10_000) return `${(m / 1000).toFixed(2)} s`;
  if (m < 60_000) return `${(m / 1000).toFixed(1)} s`;
  const total = Math.round(m / 1000);
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small > 0 ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`;
  if (total < 3600) return pair(Math.floor(total / 60), 'min', total % 60, 's');
  if (total < 86_400) return pair(Math.floor(total / 3600), 'h', Math.floor((total % 3600) / 60), 'min');
  return pair(Math.floor(total / 86_400), 'd', Math.floor((total % 86_400) / 3600), 'h');
}

/** +0 ms · +1.20 s. */
export function formatOffset(ms: number): string {
  return `+${formatDuration(ms)}`;
}

/** 0.87 */
export function formatProb(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return '—';
  return p.toFixed(2);
}

/** 88% */
export function formatPercent(p: number, decimals = 0): string {
  return `${(p * 100).toFixed(decimals)}%`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 28 Sep 2026, 01:56 (local time). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${formatDate(ms)}, ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** 28 Sep 2026 (local). */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
}

/** 4 min ago · 3 h ago · yesterday · 5 days ago · 3 Sep · 3 Sep 2025. */
export function formatRelative(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined) return 'never';
  const diff = now - ms;
  if (diff < 0) return -diff <= 60_000 ? 'just now' : formatDateTime(ms);
  if (diff < 60_000) return 'just now';
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)} min ago`;
  if (diff < 86_400_000) return `${Math.floor(diff / 3_600_000)} h ago`;
  const days = Math.floor(diff / 86_400_000);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  const d = new Date(ms);
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return sameYear ? `${d.getDate()} ${MONTHS[d.getMonth()]}` : formatDate(ms);
}

/** "2026-09-28" → "Mon 28 Sep" (with weekday) or "28 Sep"; anything else as given. */
export function formatDay(day: string, withWeekday = false): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(d.getTime()) || d.getMonth() !== Number(m[2]) - 1) return day;
  const base = `${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return withWeekday ? `${WEEKDAYS[d.getDay()]} ${base}` : base;
}

/** 1 session · 2 sessions. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

/** The last segment of a path, with / or \ as separators. */
export function basename(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** A share as the CLI's review prints it: whole percent, an exact half to the even one (0.125 → "12%"). */
export function sharePercent(share: number): string {
  const y = 100 * share;
  const floor = Math.floor(y);
  const whole = y - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(y);
  return `${whole}%`;
}
