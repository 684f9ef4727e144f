import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  basename,
  formatBytes,
  formatCompact,
  formatCount,
  formatDay,
  formatDuration,
  formatOffset,
  formatPercent,
  formatProb,
  formatRelative,
  plural,
} from '../../client/src/lib/format.ts';

const format = suite('format');

format('counts use en-US grouping and a dash for nothing', () => {
  assert.is(formatCount(1284), '1,284');
  assert.is(formatCount(null), '—');
  assert.is(formatCount(Number.NaN), '—');
});

format('compact counts switch to K, M and B at ten thousand, with one decimal below 100', () => {
  assert.is(formatCompact(9999), '9,999');
  assert.is(formatCompact(12_900), '12.9K');
  assert.is(formatCompact(4_200_000), '4.2M');
  assert.is(formatCompact(123_456), '123K');
  assert.is(formatCompact(20_000), '20K');
  assert.is(formatCompact(3_000_000_000), '3B');
});

format('bytes step by a thousand with 0 decimals at 100 or more', () => {
  assert.is(formatBytes(940), '940 B');
  assert.is(formatBytes(4900), '4.9 KB');
  assert.is(formatBytes(12_300_000), '12.3 MB');
  assert.is(formatBytes(123_000_000), '123 MB');
  assert.is(formatBytes(0), '0 B');
});

format('durations read as ms, seconds, minutes, hours and days', () => {
  assert.is(formatDuration(320), '320 ms');
  assert.is(formatDuration(1240), '1.24 s');
  assert.is(formatDuration(12_400), '12.4 s');
  assert.is(formatDuration(245_000), '4 min 5 s');
  assert.is(formatDuration(120_000), '2 min');
  assert.is(formatDuration(2 * 3_600_000 + 14 * 60_000), '2 h 14 min');
  assert.is(formatDuration(3 * 86_400_000 + 4 * 3_600_000), '3 d 4 h');
  assert.is(formatDuration(-5), '0 ms');
  assert.is(formatOffset(1200), '+1.20 s');
  assert.is(formatOffset(0), '+0 ms');
});

format('probabilities have two decimals and percents none by default', () => {
  assert.is(formatProb(0.873), '0.87');
  assert.is(formatProb(null), '—');
  assert.is(formatPercent(0.876), '88%');
});

format('relative times name minutes, hours, yesterday, days, then the date', () => {
  const now = new Date(2026, 8, 28, 12, 0, 0).getTime();
  assert.is(formatRelative(null, now), 'never');
  assert.is(formatRelative(now - 30_000, now), 'just now');
  assert.is(formatRelative(now + 30_000, now), 'just now');
  assert.is(formatRelative(now - 4 * 60_000, now), '4 min ago');
  assert.is(formatRelative(now - 3 * 3_600_000, now), '3 h ago');
  assert.is(formatRelative(now - 86_400_000 - 1000, now), 'yesterday');
  assert.is(formatRelative(now - 5 * 86_400_000, now), '5 days ago');
  assert.is(formatRelative(new Date(2026, 8, 3, 9).getTime(), now), '3 Sep');
  assert.is(formatRelative(new Date(2025, 8, 3, 9).getTime(), now), '3 Sep 2025');
});

format('a day string reads as a local date, with the weekday when asked', () => {
  assert.is(formatDay('2026-09-28', true), 'Mon 28 Sep');
  assert.is(formatDay('2026-09-28'), '28 Sep');
  assert.is(formatDay('not a day'), 'not a day');
  assert.is(formatDay('2026-02-31'), '2026-02-31');
});

format('plural adds an s unless there is one', () => {
  assert.is(plural(1, 'session'), '1 session');
  assert.is(plural(2, 'session'), '2 sessions');
  assert.is(plural(0, 'match', 'matches'), '0 matches');
  assert.is(basename('logs/shop/a.jsonl'), 'a.jsonl');
  assert.is(basename('C:\\x\\y.json'), 'y.json');
});

format.run();
