// The staged-learning API over HTTP, on a temp copy of the fixture home with a staged shop flow and the state
// file `engine stage` would leave: the stage view, commit, rollback (default and named), every 409, the 400s
// and 404s, and the read-only 403.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { StageViewSchema, VersionViewSchema } from '../../shared/stage.ts';
import { compare, comparisonView } from '../../server/engine/stage.ts';
import { renderStageReport } from '../../server/engine/stage-render.ts';
import { cliTexts, copyHome, fixtureHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { SHOP_LEARNED, changeLines, exampleState, stageShop, writeState } from '../support/stage-fixtures.ts';

const NOW = 1_790_000_000_000;
const last = { ...compare(exampleState(), 50, true), new: 1, learned_unix_ms: SHOP_LEARNED };

const api = suite('stage api');
let c: Launched;
let home: { dir: string; cleanup: () => void };
let dataDir = '';
let promotedMarkdown = '';

api.before(async () => {
  promotedMarkdown = String((await cliTexts()).diff_shop_promoted);
  home = copyHome();
  dataDir = realpathSync(home.dir);
  stageShop(dataDir);
  writeState(dataDir, 'shop', exampleState(last));
  c = await launch({ dataDir, env: { ENGINE_CONSOLE_NOW_MS: String(NOW) } });
});

api.after(async () => {
  await c.stop();
  home.cleanup();
});

const json = (body: unknown): RequestInit => ({ method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });

async function view(key: string) {
  const res = await c.api(`/api/flows/${encodeURIComponent(key)}/stage`);
  assert.is(res.status, 200, await res.clone().text());
  return v.parse(StageViewSchema, await res.json());
}

async function version(res: Response) {
  assert.is(res.status, 200, await res.clone().text());
  return v.parse(VersionViewSchema, await res.json());
}

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

api('the stage view has the staged flow, the last comparison, its report and what committing would change', async () => {
  const s = await view('shop');
  assert.is(s.committed, 'shop');
  assert.is(s.committed_path, 'shop.flow.json');
  assert.is(s.staged_path, 'shop.staged.flow.json');
  assert.is(s.staged?.key, 'shop.staged');
  assert.is(s.staged?.path, 'shop.staged.flow.json');
  assert.is(s.staged?.domain, 'shop');
  assert.equal(s.staged?.stage, { staged: true, other: 'shop', pending: true });
  assert.equal(s.last, comparisonView(last));
  const share = s.last?.sites[0]?.committed.used_share;
  assert.is(share?.share, 1);
  assert.ok(share);
  // 0.42 < lower < 0.43 (the Wilson bound of 2 of 2), printed on failure.
  assert.is(Math.floor(share.lower * 100), 42, String(share.lower));
  assert.is.not(share.lower, 0.42);
  assert.is(share.upper, 1);
  assert.is(s.last?.sites[1]?.committed.used_share, null);
  assert.is(s.report_markdown, renderStageReport(last, join(dataDir, 'shop.flow.json')));
  assert.match(s.report_markdown ?? '', '| `a` | 3 | 2 (100%, 43–100%) | 0 | 3 | 1 (33%, 8–75%) | 2 |\n');
  assert.is(s.evidence, true);
  assert.is(s.refused, null);
  assert.is(s.diff?.from, 'shop');
  assert.is(s.diff?.to, 'shop.staged');
  assert.equal(s.diff?.changes, changeLines(promotedMarkdown));
  assert.is(s.diff?.markdown, promotedMarkdown);
  assert.equal(s.versions, []);
  assert.is(s.unrecorded, true);
});

api('the staged flow key answers for the same pair', async () => {
  const a = await view('shop');
  const b = await view('shop.staged');
  assert.equal(b, a);
});

api('an unknown key is 404 on every stage endpoint', async () => {
  assert.is(await error(await c.api('/api/flows/nope/stage'), 404), 'no flow "nope"');
  assert.is(await error(await c.api('/api/flows/nope/commit', json({})), 404), 'no flow "nope"');
  assert.is(await error(await c.api('/api/flows/nope/rollback', json({})), 404), 'no flow "nope"');
});

api('a body that is not as expected is 400, before the key is looked up', async () => {
  await error(await c.api('/api/flows/shop/commit', json({ note: 5 })), 400);
  await error(await c.api('/api/flows/shop/commit', json('{')), 400);
  await error(await c.api('/api/flows/shop/commit', json([1])), 400);
  await error(await c.api('/api/flows/shop/rollback', json({ to: 'one' })), 400);
  await error(await c.api('/api/flows/shop/rollback', json({ to: -1 })), 400);
  await error(await c.api('/api/flows/shop/rollback', json({ to: 1.5 })), 400);
  await error(await c.api('/api/flows/nope/rollback', json({ to: 'one' })), 400);
});

api('a flow with nothing staged says why a commit is refused, and commit and rollback are 409', async () => {
  const s = await view('shop.promoted');
  assert.is(s.committed, 'shop.promoted');
  assert.is(s.staged, null);
  assert.is(s.last, null);
  assert.is(s.report_markdown, null);
  assert.is(s.diff, null);
  assert.is(s.refused, `there is no staged flow at ${join(dataDir, 'shop.promoted.staged.flow.json')}: engine stage learns it`);
  assert.is(s.unrecorded, true);
  assert.match(await error(await c.api('/api/flows/shop.promoted/commit', json({})), 409), 'there is no staged flow at ');
  assert.is(
    await error(await c.api('/api/flows/shop.promoted/rollback', json({})), 409),
    `${join(dataDir, 'shop.promoted.flow.json')} has no earlier version to roll back to`,
  );
});

api('a commit makes the staged flow the committed one, with its evidence, as a new version', async () => {
  const staged = readFileSync(join(dataDir, 'shop.staged.flow.json'));
  const found = readFileSync(join(dataDir, 'shop.flow.json'));
  const r = await version(await c.api('/api/flows/shop/commit', json({ note: '  first commit \n' })));
  assert.equal(r, {
    version: 2,
    kind: 'commit',
    unix_ms: NOW,
    restored: null,
    note: 'first commit',
    changes: changeLines(promotedMarkdown),
    evidence: comparisonView(last),
    current: true,
  });
  assert.ok(readFileSync(join(dataDir, 'shop.flow.json')).equals(staged));
  assert.ok(readFileSync(join(dataDir, 'shop.history/1.flow.json')).equals(found));
  const s = await view('shop');
  assert.equal(s.versions.map((x) => [x.version, x.kind, x.current]), [[2, 'commit', true], [1, 'found', false]]);
  assert.is(s.unrecorded, false);
  assert.is(s.refused, 'the staged flow is the committed one: nothing to commit');
  assert.is(s.evidence, false);
  assert.equal(s.diff?.changes, []);
  assert.equal(s.staged?.stage, { staged: true, other: 'shop', pending: false });
});

api('a second commit with nothing new is 409', async () => {
  assert.is(
    await error(await c.api('/api/flows/shop.staged/commit', json({ note: 'again' })), 409),
    'the staged flow is the committed one: nothing to commit',
  );
});

api('a rollback restores the version before by default, and the version named', async () => {
  const back = await version(await c.api('/api/flows/shop/rollback', json('')));
  assert.equal([back.version, back.kind, back.restored, back.note, back.current], [3, 'rollback', 1, null, true]);
  assert.ok(readFileSync(join(dataDir, 'shop.flow.json')).equals(readFileSync(join(dataDir, 'shop.history/1.flow.json'))));
  const named = await version(await c.api('/api/flows/shop/rollback', json({ to: 2, note: 'the promoted one' })));
  assert.equal([named.version, named.restored, named.note], [4, 2, 'the promoted one']);
  const s = await view('shop');
  assert.equal(s.versions.map((x) => x.version), [4, 3, 2, 1]);
  assert.equal(s.versions.map((x) => x.current), [true, false, false, false]);
});

api('a rollback to no such version, or to the committed one, is 409', async () => {
  const flow = join(dataDir, 'shop.flow.json');
  assert.is(await error(await c.api('/api/flows/shop/rollback', json({ to: 9 })), 409), `there is no version 9: ${flow} has versions 1 to 4`);
  assert.is(await error(await c.api('/api/flows/shop/rollback', json({ to: 4 })), 409), 'version 4 is the committed flow already');
});

api('a state file that does not load is 422 on the view', async () => {
  const path = join(dataDir, 'shop.stage.json');
  const before = readFileSync(path);
  writeFileSync(path, '{"engine_stage": 2, "domain": "shop", "sessions": [], "ledger": []}');
  try {
    assert.is(
      await error(await c.api('/api/flows/shop/stage'), 422),
      `${path}: stage format 2 is not supported (this build reads 1)`,
    );
  } finally {
    writeFileSync(path, before);
  }
});

api('a commit or rollback without the X-Engine-Console header is 403', async () => {
  const res = await fetch(`${c.url}/api/flows/shop/commit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${c.token}` },
    body: '{}',
  });
  await error(res, 403);
});

api('a flow named like a staged flow of a staged flow is 400, with the name to use', async () => {
  writeFileSync(join(dataDir, 'a.staged.staged.flow.json'), readFileSync(join(dataDir, 'shop.flow.json')));
  const message = `${join(dataDir, 'a.staged.flow.json')} is a staged flow: name the committed one, a.flow.json`;
  assert.is(await error(await c.api('/api/flows/a.staged.staged/stage'), 400), message);
  assert.is(await error(await c.api('/api/flows/a.staged.staged/commit', json({})), 400), message);
});

api('a staged flow that does not load is the reason a commit fails, and the commit is 422', async () => {
  writeFileSync(join(dataDir, 'broken.flow.json'), readFileSync(join(fixtureHome, 'shop.flow.json')));
  const staged = join(dataDir, 'broken.staged.flow.json');
  writeFileSync(staged, '{"engine_flow": 7}');
  const s = await view('broken');
  assert.is(s.refused, `parsing ${staged}: flow format 7 is not supported (this build reads 1 and 2)`);
  assert.is(s.diff, null);
  assert.ok(s.staged?.error);
  assert.is(await error(await c.api('/api/flows/broken/commit', json({})), 422), s.refused);
});

api('commits and rollbacks that arrive together run one at a time', async () => {
  writeFileSync(join(dataDir, 'twice.flow.json'), readFileSync(join(fixtureHome, 'shop.flow.json')));
  writeFileSync(join(dataDir, 'twice.staged.flow.json'), readFileSync(join(dataDir, 'shop.promoted.flow.json')));
  const commits = await Promise.all([1, 2, 3].map(() => c.api('/api/flows/twice/commit', json({}))));
  assert.equal(commits.map((r) => r.status).sort(), [200, 409, 409], JSON.stringify(await Promise.all(commits.map((r) => r.text()))));
  const rollbacks = await Promise.all([1, 2, 3, 4].map(() => c.api('/api/flows/twice/rollback', json({}))));
  assert.equal(rollbacks.map((r) => r.status), [200, 200, 200, 200]);
  const s = await view('twice');
  assert.equal(s.versions.map((x) => x.version), [6, 5, 4, 3, 2, 1]);
  // Each default rollback restores the version before the latest, which is the one just before it.
  assert.equal(s.versions.map((x) => x.restored), [4, 3, 2, 1, null, null]);
});

api.run();

const readOnly = suite('stage api, read-only');
let r: Launched;
readOnly.before(async () => {
  r = await launch({ args: ['--read-only'] });
  stageShop(r.dataDir);
});
readOnly.after(async () => {
  await r.stop();
});

readOnly('commit and rollback are refused with 403 and write nothing; the view still answers', async () => {
  await error(await r.api('/api/flows/shop/commit', json({})), 403);
  await error(await r.api('/api/flows/shop/rollback', json({ to: 1 })), 403);
  const res = await r.api('/api/flows/shop/stage');
  assert.is(res.status, 200);
  const s = v.parse(StageViewSchema, await res.json());
  assert.equal(s.versions, []);
  assert.is(s.refused, null);
});

readOnly.run();
