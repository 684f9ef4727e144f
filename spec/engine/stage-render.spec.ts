import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compare, usedShare, wilsonLower, type VersionRecord, type Comparison } from '../../server/engine/stage.ts';
import {
  renderFlowLog,
  renderFlowLogOutput,
  renderStageReport,
  shareText,
  when,
} from '../../server/engine/stage-render.ts';
import { count, exampleState, referenceBlock } from '../support/stage-fixtures.ts';
import { expectedText } from '../support/fixtures.ts';

const render = suite('stage-render');

render('the Wilson interval gives the reference checks at z = 1.6448536', () => {
  assert.is(shareText(count(2, 2, 0)), '2 (100%, 43–100%)');
  assert.is(shareText(count(3, 1, 0)), '1 (33%, 8–75%)');
  assert.is(shareText(count(1, 0, 0)), '0 (0%, 0–73%)');
  assert.is(shareText(count(4, 1, 0)), '1 (25%, 6–64%)');
  assert.is(wilsonLower(3, 3), 0.5258044340133321);
  assert.is(wilsonLower(0, 0), 0);
});

render('a count whose lookups were all served has no share and prints a dash', () => {
  assert.is(usedShare(count(2, 0, 2)), null);
  assert.is(shareText(count(2, 0, 2)), '—');
  const s = usedShare(count(3, 1, 1));
  assert.ok(s);
  assert.is(s.share, 0.5);
});

render('a share of exactly 12.5% rounds to even in the report', () => {
  // 1 used of 8 known: 12.5 % prints 12, as the CLI's ties-to-even formatting does.
  assert.match(shareText(count(8, 1, 0)), /^1 \(12%, /);
});

render('the comparison takes the last sessions both flows were scored on', () => {
  const cmp = compare(exampleState(), 50, true);
  assert.is(cmp.compared, 2);
  assert.is(cmp.sessions, 4);
  assert.equal(cmp.total.committed, { decisions: 5, lookups: 3, used: 2, served: 1 });
  assert.equal(cmp.unanswered, [2, 1]);
  assert.equal(cmp.sites.b?.committed, { decisions: 0, lookups: 0, used: 0, served: 0 });
  assert.equal(Object.keys(cmp.sites), ['a', 'b']);
  assert.is(compare(exampleState(), 1, true).compared, 1);
  assert.is(compare(exampleState(), 50, false).compared, 2);
});

render('the stage report equals the reference worked example byte for byte', () => {
  const cmp = compare(exampleState(), 50, true);
  cmp.new = 1;
  const expected = referenceBlock('init-doctor-stage.md', 'Example: four sessions');
  assert.match(expected, /^# The staged shop flow\n/);
  assert.fixture(renderStageReport(cmp, 'shop.flow.json'), expected);
});

render('the report of the staged flow alone has its own table and no changes section', () => {
  const cmp = compare(exampleState(), 50, false);
  const md = renderStageReport(cmp, 'shop.flow.json');
  // The expected texts in spec/fixtures/stage-report are our output, checked against the template of
  // init-doctor-stage.md §3.5 (its one worked example is the test above).
  assert.fixture(md, expectedText('stage-report/staged-alone.md'));
  assert.match(md, '| After | Staged: lookups | used | detours |\n|---|---|---|---|\n');
  assert.not.match(md, 'What committing it would change');
});

render('a report before any scoring keeps what it carried and lists the changes that need review', () => {
  const cmp: Comparison = { ...compare(exampleState(), 0, true), new: 1, carried: ['its arbiter', 'its thresholds at 2 sites'] };
  assert.fixture(renderStageReport(cmp, '/d/shop.flow.json'), expectedText('stage-report/before-scoring.md'));
  cmp.changes = [{ title: 'Lookups', changes: ['after `a`: may look up `b`', 'another'] }];
  cmp.needs_review = ['after `a`: may look up `b`'];
  assert.fixture(renderStageReport(cmp, '/d/shop.flow.json'), expectedText('stage-report/before-scoring-with-changes.md'));
});

const record = (version: number, kind: VersionRecord['kind'], restored: number | null, evidence: Comparison | null): VersionRecord => ({
  version,
  kind,
  unix_ms: 1_790_000_000_000,
  restored,
  note: null,
  changes: ['a change'],
  evidence,
});

render('the flow log says what each version was, the latest first', () => {
  const evidence = (committed: boolean): Comparison => ({
    ...compare(exampleState(), 0, committed),
    compared: 4,
    total: { committed: count(4, 3, 0), staged: count(5, 5, 0) },
  });
  const versions = [
    { ...record(1, 'found', null, null), note: 'first line\nsecond line' },
    record(2, 'commit', null, evidence(false)),
    record(3, 'commit', null, evidence(true)),
    record(4, 'rollback', 2, null),
  ];
  const md = renderFlowLog('f.flow.json', versions);
  // Our output, checked against init-doctor-stage.md §3.8's log_markdown template; its example fragment:
  assert.match(md, /^# f\.flow\.json\n\n## Version 4 \(committed now\)\n\nrolled back to version 2, 2026-09-21 14:13 UTC\n/);
  assert.fixture(md, expectedText('flow-log/four-versions.md'));
});

render('an empty flow log says nothing was committed, and the unrecorded line follows the list', () => {
  assert.is(renderFlowLog('f.flow.json', []), '# f.flow.json\n\nNo version has been committed: `engine flow-commit` keeps each.\n');
  assert.is(
    renderFlowLogOutput('f.flow.json', [], true),
    '# f.flow.json\n\nNo version has been committed: `engine flow-commit` keeps each.\nThe committed flow is not the latest version: it has changed since, by other means than a commit. The next commit or rollback keeps it as a version first.\n',
  );
});

render('times print as UTC minutes', () => {
  assert.is(when(0), '1970-01-01 00:00 UTC');
  assert.is(when(1_790_000_000_000), '2026-09-21 14:13 UTC');
  assert.is(when(951_782_400_000 + 61_000), '2000-02-29 00:01 UTC');
});

render.run();
