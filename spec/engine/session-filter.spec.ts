// The filters beyond the spec (issue 15): the day range, the overview's domain, the sort, the chart's days.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionSummary } from '../../shared/sessions.ts';
import { activityBetween, chartDays, dayNumber, newestFirst, overviewPredicate, RANGE_DAYS_MAX, sessionComparator, startedWithin } from '../../server/engine/session-filter.ts';

const f = suite('session-filter');
const at = (iso: string) => Date.parse(iso);
const s = (id: string, started: string, more: Partial<SessionSummary> = {}) =>
  ({ session_id: id, started_unix_ms: at(started), domain: 'shop', agent: null, mode: 'recorded', tool_calls: 0, llm_turns: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, upstream: null, errors: 0, duration_ms: 0, ...more }) as SessionSummary;

f('a range covers whole UTC days, both ends included', () => {
  const within = startedWithin({ from: '2026-09-01', to: '2026-09-02' });
  assert.ok(within(s('a', '2026-09-01T00:00:00Z')));
  assert.ok(within(s('b', '2026-09-02T23:59:59.999Z')));
  assert.not.ok(within(s('c', '2026-09-03T00:00:00Z')));
  assert.not.ok(within(s('d', '2026-08-31T23:59:59.999Z')));
  assert.ok(startedWithin({})(s('e', '1970-01-01T00:00:00Z')));
});

f('the overview takes the domain and the range together', () => {
  const keep = overviewPredicate({ domain: 'shop', from: '2026-09-01', to: null });
  assert.ok(keep(s('a', '2026-09-05T00:00:00Z')));
  assert.not.ok(keep(s('b', '2026-09-05T00:00:00Z', { domain: 'retail' })));
  assert.not.ok(keep(s('c', '2026-08-05T00:00:00Z')));
});

f('the default order is newest first exactly; a column sorts with ties newest first', () => {
  assert.is(sessionComparator(), newestFirst);
  const list = [s('a', '2026-09-01T00:00:00Z', { tool_calls: 3 }), s('b', '2026-09-02T00:00:00Z', { tool_calls: 3 }), s('c', '2026-09-03T00:00:00Z', { tool_calls: 1 })];
  assert.equal([...list].sort(sessionComparator('calls', 'asc')).map((x) => x.session_id), ['c', 'b', 'a']);
  assert.equal([...list].sort(sessionComparator('calls', 'desc')).map((x) => x.session_id), ['b', 'a', 'c']);
  assert.equal([...list].sort(sessionComparator('started', 'asc')).map((x) => x.session_id), ['a', 'b', 'c']);
});

f('the chart draws the range, at most 92 days ending at `to`; else the last 14', () => {
  const now = at('2026-11-23T12:00:00Z');
  assert.equal(chartDays({}, now), { first: dayNumber('2026-11-10'), last: dayNumber('2026-11-23') });
  assert.equal(chartDays({ from: '2026-09-20', to: '2026-09-29' }, now), { first: dayNumber('2026-09-20'), last: dayNumber('2026-09-29') });
  const long = chartDays({ from: '2020-01-01', to: '2026-09-29' }, now);
  assert.is(long.last - long.first + 1, RANGE_DAYS_MAX);
  assert.equal(chartDays({ to: '2026-09-29' }, now), { first: dayNumber('2026-09-16'), last: dayNumber('2026-09-29') });
  const days = activityBetween([s('a', '2026-09-21T10:00:00Z', { tool_calls: 4, flow_lookups: 1 })], { first: dayNumber('2026-09-20'), last: dayNumber('2026-09-22') });
  assert.equal(days.map((d) => [d.day, d.sessions, d.tool_calls, d.flow_lookups]), [['2026-09-20', 0, 0, 0], ['2026-09-21', 1, 4, 1], ['2026-09-22', 0, 0, 0]]);
});

f.run();
