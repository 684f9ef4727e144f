import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { barWidth, labelledDays, niceScale, stack, ticks } from '../../client/src/lib/chart.ts';
import { backoffMs, matches, sequenceTarget } from '../../client/src/lib/keys.ts';
import { matchesQuery, mergeDomainNames, paletteResults, type PaletteEntry } from '../../client/src/lib/palette.ts';

const chart = suite('chart');

chart('the y scale rounds the largest day up to a nice step', () => {
  assert.equal(niceScale(0), { top: 4, step: 1 });
  assert.equal(niceScale(3), { top: 3, step: 1 });
  assert.equal(niceScale(37), { top: 40, step: 10 });
  assert.equal(niceScale(90), { top: 100, step: 25 });
  assert.equal(niceScale(1234), { top: 1500, step: 500 });
  assert.equal(niceScale(9), { top: 10, step: 2.5 });
  assert.equal(ticks(40, 10), [0, 10, 20, 30, 40]);
});

chart('bars are 56% of their band within 6 and 24 px, and the last day always has a label', () => {
  assert.is(barWidth(100), 24);
  assert.is(barWidth(5), 6);
  assert.ok(Math.abs(barWidth(25) - 14) < 1e-9);
  assert.equal([...labelledDays(14, 20)].sort((a, b) => a - b), [1, 4, 7, 10, 13]);
  assert.ok(labelledDays(14, 100).has(13));
  assert.equal(stack(1, 0, 100, 200), { calls: 2, lookups: 0, gap: 0 });
  assert.equal(stack(50, 50, 100, 200), { calls: 100, lookups: 100, gap: 2 });
});

const keys = suite('keys');

keys('a shortcut with mod needs Ctrl or Meta, one without refuses them, and inputs are off limits unless allowed', () => {
  const e = (key: string, mods: Partial<{ metaKey: boolean; ctrlKey: boolean; altKey: boolean }> = {}) => ({ key, metaKey: false, ctrlKey: false, altKey: false, ...mods });
  assert.ok(matches(e('K', { ctrlKey: true }), { key: 'k', mod: true, inInputs: true }, true));
  assert.ok(matches(e('k', { metaKey: true }), { key: 'k', mod: true }, false));
  assert.not.ok(matches(e('k'), { key: 'k', mod: true }, false));
  assert.not.ok(matches(e('/', { altKey: true }), { key: '/' }, false));
  assert.not.ok(matches(e('/'), { key: '/' }, true));
  assert.ok(matches(e('/'), { key: '/' }, false));
});

keys('g then a letter goes to a page within a second and a half', () => {
  assert.is(sequenceTarget({ key: 'g', at: 1000 }, 's', 1500), '/sessions');
  assert.is(sequenceTarget({ key: 'g', at: 1000 }, 'o', 1500), '/');
  assert.is(sequenceTarget({ key: 'g', at: 1000 }, 'j', 3000), null);
  assert.is(sequenceTarget({ key: 'x', at: 1000 }, 's', 1100), null);
  assert.is(sequenceTarget(null, 's', 1100), null);
});

keys('the stream reopens after 2 s, 4 s … and never waits more than 30 s', () => {
  assert.equal([1, 2, 3, 4, 5, 6, 9].map(backoffMs), [2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
});

const palette = suite('palette');

palette('entries match on label and detail, case-insensitively; actions are capped at 3, or 6 with a query', () => {
  assert.ok(matchesQuery({ label: 'shop', detail: 'domain Retail' }, 'RETAIL'));
  assert.not.ok(matchesQuery({ label: 'shop' }, 'x'));
  const mk = (group: PaletteEntry['group'], n: number): PaletteEntry[] => Array.from({ length: n }, (_, i) => ({ id: `${group}${i}`, group, label: `${group} ${i}` }));
  const groups = { pages: mk('Pages', 6), actions: mk('Actions', 8), servers: mk('Servers', 7), flows: mk('Flows', 7), sessions: mk('Sessions', 2) };
  const none = paletteResults(groups, '');
  assert.is(none.filter((e) => e.group === 'Actions').length, 3);
  assert.is(none.filter((e) => e.group === 'Servers').length, 5);
  const some = paletteResults(groups, 'actions');
  assert.is(some.filter((e) => e.group === 'Actions').length, 6);
  assert.is(some.filter((e) => e.group === 'Sessions').length, 2, 'sessions come from the server search, unfiltered');
  assert.equal(mergeDomainNames(['shop', '', 'retail'], ['shop', 'notes']), ['notes', 'retail', 'shop']);
});

chart.run();
keys.run();
palette.run();
