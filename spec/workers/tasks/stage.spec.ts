// The stage area's worker tasks called directly (no pool, no HTTP): the file part of the stage view, and
// commit and rollback answering refusals apart from failures.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, comparisonView } from '../../../server/engine/stage.ts';
import { renderStageReport } from '../../../server/engine/stage-render.ts';
import { stageCommit, stageRollback, stageView } from '../../../server/workers/tasks/stage.ts';
import { copyHome, fixturesDir } from '../../support/fixtures.ts';
import { SHOP_LEARNED, exampleState, stageShop, writeState } from '../../support/stage-fixtures.ts';
import { startsWith } from '../../support/assert.ts';

const view = suite('stage tasks');

let home = '';
let cleanup = () => {};
let committed = '';
view.before.each(() => {
  ({ dir: home, cleanup } = copyHome());
  committed = join(home, 'shop.flow.json');
});
view.after.each(() => cleanup());

const lastOf = (learned: number) => ({ ...compare(exampleState(), 50, true), new: 1, learned_unix_ms: learned });

async function value<T>(p: Promise<{ ok: true; value: T } | { ok: false; message: string; refused: boolean }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

view('without a state there is no comparison and no report', async () => {
  stageShop(home);
  const v = await value(stageView({ committed }));
  assert.is(v.last, null);
  assert.is(v.report_markdown, null);
  assert.is(v.evidence, false);
  assert.is(v.refused, null);
  assert.equal(v.versions, []);
  assert.is(v.unrecorded, true);
});

view('the last comparison is the evidence only when it is the staged flow’s', async () => {
  stageShop(home);
  writeState(home, 'shop', exampleState(lastOf(SHOP_LEARNED)));
  let v = await value(stageView({ committed }));
  assert.equal(v.last, comparisonView(lastOf(SHOP_LEARNED)));
  assert.is(v.report_markdown, renderStageReport(lastOf(SHOP_LEARNED), committed));
  assert.is(v.evidence, true);
  writeState(home, 'shop', exampleState(lastOf(SHOP_LEARNED - 1)));
  v = await value(stageView({ committed }));
  assert.is(v.evidence, false);
  const r = await value(stageCommit({ committed, note: null, nowMs: 1 }));
  assert.is(r.evidence, null);
});

view('a staged flow for another domain is refused, and the view says why', async () => {
  writeFileSync(join(home, 'shop.staged.flow.json'), readFileSync(join(fixturesDir, 'flows/retail-5-sessions.flow.json')));
  const v = await value(stageView({ committed }));
  assert.is(v.refused, 'the staged flow is for retail, the committed one for shop');
  const r = await stageCommit({ committed, note: 'x', nowMs: 1 });
  assert.equal(r, { ok: false, message: 'the staged flow is for retail, the committed one for shop', refused: true });
});

view('a committed flow changed by other means makes no version current', async () => {
  const shop = readFileSync(committed);
  stageShop(home);
  await value(stageCommit({ committed, note: '  ', nowMs: 1 }));
  let v = await value(stageView({ committed }));
  assert.equal(v.versions.map((x) => [x.version, x.current, x.note]), [[2, true, null], [1, false, null]]);
  writeFileSync(committed, shop);
  v = await value(stageView({ committed }));
  assert.is(v.unrecorded, true);
  assert.equal(v.versions.map((x) => x.current), [false, false]);
  const back = await value(stageRollback({ committed, to: null, note: null, nowMs: 2 }));
  assert.equal([back.version, back.restored, back.current], [4, 2, true]);
});

view('a record that does not parse is a failure, not a refusal', async () => {
  stageShop(home);
  await value(stageCommit({ committed, note: null, nowMs: 1 }));
  writeFileSync(join(home, 'shop.history/2.json'), '{');
  const r = await stageView({ committed });
  assert.is(r.ok, false);
  assert.ok(!r.ok);
  assert.not.ok(r.refused);
  startsWith(r.message, `parsing ${join(home, 'shop.history/2.json')}: `);
  const back = await stageRollback({ committed, to: 1, note: null, nowMs: 2 });
  assert.ok(!back.ok);
  assert.not.ok(back.refused, back.message);
});

view.run();
