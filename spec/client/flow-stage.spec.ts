// The staged tab's arithmetic and words.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { counted, intervalBar, nextVersion, nothingToCommit, shareText, stageDelta, versionWhat } from '../../client/src/lib/flow-stage.ts';

const flowStage = suite('flow-stage');

const counts = (used: number, detours: number) => ({ lookups: used + detours, used, served: 0, detours, used_share: null });

flowStage('the delta is signed staged minus committed with a true minus sign', () => {
  assert.is(stageDelta(counts(2, 3), counts(3, 1)), '+1 used, \u22122 detours');
  assert.is(stageDelta(counts(2, 3), counts(2, 3)), 'as many used and detours');
  assert.is(stageDelta(counts(2, 3), counts(1, 3)), '\u22121 used');
  assert.is(stageDelta(counts(2, 3), counts(2, 4)), '+1 detour');
});

flowStage('a share reads as a percentage with its interval', () => {
  assert.is(shareText({ share: 2 / 3, lower: 0.3, upper: 0.9 }), '67%, 30–90%');
  assert.is(shareText(null), null);
});

flowStage('a commit makes the next version, or the one after when the current flow is kept first', () => {
  assert.is(nextVersion([], false), 1);
  assert.is(nextVersion([], true), 2);
  assert.is(nextVersion([{ version: 3 }, { version: 2 }], false), 4);
  assert.is(nextVersion([{ version: 3 }], true), 5);
});

flowStage('versions, counts and refusals in words', () => {
  assert.is(versionWhat('rollback', 2), 'rolled back to version 2');
  assert.is(versionWhat('found', null), 'found in place');
  assert.is(counted(1, 'lookup'), '1 lookup');
  assert.is(counted(12, 'lookup'), '12 lookups');
  assert.ok(nothingToCommit('the staged flow is the committed one: nothing to commit'));
  assert.not.ok(nothingToCommit(null));
});

flowStage('the interval bar places the band and the point within the width', () => {
  assert.equal(intervalBar({ share: 0.5, lower: 0.25, upper: 0.75 }, 140), { left: 35, band: 70, point: 70 });
  assert.equal(intervalBar({ share: 1, lower: 1, upper: 1 }, 140), { left: 140, band: 2, point: 140 });
});

flowStage.run();
