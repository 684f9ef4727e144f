import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../server/data/atomic.ts';
import {
  Refused,
  candidate,
  cleanNote,
  commitStaged,
  compare,
  history,
  loadState,
  recordJson,
  rollbackFlow,
  stagePaths,
  stagePathsOf,
  unrecorded,
  type Comparison,
  type StagePaths,
} from '../../server/engine/stage.ts';
import { renderFlowLog } from '../../server/engine/stage-render.ts';
import { cliTexts, copyHome, fixturesDir } from '../support/fixtures.ts';
import { SHOP_LEARNED, changeLines, exampleState, stageShop, writeState } from '../support/stage-fixtures.ts';

const stage = suite('stage');

const NOW = 1_790_000_000_000;

let home = '';
let cleanup = () => {};
let paths: StagePaths;
let shopBytes: Buffer;
let promotedLines: string[] = [];

stage.before(async () => {
  const texts = await cliTexts();
  promotedLines = changeLines(String(texts.diff_shop_promoted));
});

stage.before.each(() => {
  ({ dir: home, cleanup } = copyHome());
  paths = stagePaths(join(home, 'shop.flow.json'));
  shopBytes = readFileSync(paths.committed);
});

stage.after.each(() => cleanup());

/** The comparison `engine stage` would leave in the state: the example's, learned when `learned` says. */
function lastOf(learned: number): Comparison {
  return { ...compare(exampleState(), 50, true), new: 1, learned_unix_ms: learned };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, Refused, `not a refusal: ${String(e)}`);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.not.instance(e, Refused, `a refusal: ${String(e)}`);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

stage('the files sit beside the committed flow, and a staged flow names its committed one', () => {
  const p = stagePaths('/d/shop.flow.json');
  assert.equal(p, {
    committed: '/d/shop.flow.json',
    staged: '/d/shop.staged.flow.json',
    state: '/d/shop.stage.json',
    history: '/d/shop.history',
  });
  assert.equal(stagePathsOf('/d/shop.staged.flow.json'), p);
  assert.throws(() => stagePaths('/d/.flow.json'), /name the committed flow NAME\.flow\.json, as engine init does/);
  assert.throws(() => stagePaths('/d/shop.json'), /name the committed flow/);
  assert.throws(() => stagePaths('/d/shop.staged.flow.json'), /is a staged flow: name the committed one, shop\.flow\.json/);
  // `.staged.flow.json` alone has an empty stem: it is taken as a committed flow named `.staged`, and refused.
  assert.throws(() => stagePathsOf('/d/.staged.flow.json'), /is a staged flow/);
});

stage('a state file is read back, and a missing one means no state', async () => {
  assert.is(await loadState(paths.state), null);
  writeState(home, 'shop', exampleState(lastOf(SHOP_LEARNED)));
  const state = await loadState(paths.state);
  assert.is(state?.domain, 'shop');
  assert.is(state?.last?.learned_unix_ms, SHOP_LEARNED);
  assert.is(state?.ledger[0]?.committed, undefined);
});

stage('a state of another format, or not JSON, says why it does not load', async () => {
  writeFileSync(paths.state, '{"engine_stage": 9, "domain": "shop", "sessions": [], "ledger": []}');
  assert.match(await failure(loadState(paths.state)), `${paths.state}: stage format 9 is not supported (this build reads 1)`);
  writeFileSync(paths.state, 'not json');
  assert.match(await failure(loadState(paths.state)), `parsing ${paths.state}: `);
  writeFileSync(paths.state, '{"engine_stage": 1, "domain": "shop", "sessions": [], "ledger": [{"session": 3}]}');
  assert.match(await failure(loadState(paths.state)), `parsing ${paths.state}: ledger.0.session`);
  rmSync(paths.state);
  mkdirSync(paths.state);
  assert.match(await failure(loadState(paths.state)), `reading ${paths.state}: `);
});

stage('the candidate is the staged flow with what committing it changes', async () => {
  const staged = stageShop(home);
  const c = await candidate(paths);
  assert.ok(c.bytes.equals(staged));
  assert.ok(c.committed?.equals(shopBytes));
  assert.is(c.learned_unix_ms, SHOP_LEARNED);
  assert.equal(c.changes, promotedLines);
  assert.ok(promotedLines.length > 0);
});

stage('a commit keeps the flow found in place, then the staged flow with its evidence', async () => {
  const staged = stageShop(home);
  const evidence = lastOf(SHOP_LEARNED);
  const record = await commitStaged(paths, cleanNote('  first commit  '), evidence, NOW, writeFileAtomic);
  assert.equal(record, {
    version: 2,
    kind: 'commit',
    unix_ms: NOW,
    restored: null,
    note: 'first commit',
    changes: promotedLines,
    evidence,
  });
  // The committed flow is the staged flow's bytes; the staged flow stays where it is.
  assert.ok(readFileSync(paths.committed).equals(staged));
  assert.ok(readFileSync(paths.staged).equals(staged));
  // The history: the found version first (the old bytes), then the commit.
  assert.equal(readdirSync(paths.history).sort(), ['1.flow.json', '1.json', '2.flow.json', '2.json']);
  assert.ok(readFileSync(join(paths.history, '1.flow.json')).equals(shopBytes));
  assert.ok(readFileSync(join(paths.history, '2.flow.json')).equals(staged));
  assert.is(
    readFileSync(join(paths.history, '1.json'), 'utf8'),
    `{\n  "version": 1,\n  "kind": "found",\n  "unix_ms": ${NOW}\n}`,
  );
  const text = readFileSync(join(paths.history, '2.json'), 'utf8');
  assert.is(text, recordJson(record));
  const head = `{\n  "version": 2,\n  "kind": "commit",\n  "unix_ms": ${NOW},\n  "note": "first commit",\n  "changes": [\n    `;
  assert.is(text.slice(0, head.length), head);
  assert.match(text, '\n  "evidence": {\n    "domain": "shop",\n    "learned_unix_ms": 1790561041051,\n    "sessions": 4,\n    "new": 1,\n    "committed": true,\n    "compared": 2,\n    "sites": {\n      "a": {\n        "committed": {\n          "decisions": 5,');
  const versions = await history(paths);
  assert.equal(versions.map((r) => [r.version, r.kind]), [[1, 'found'], [2, 'commit']]);
  assert.equal(versions[1], record);
  assert.is(await unrecorded(paths, versions), false);
});

stage('the flow log lists the versions the latest first, as flow-commit and flow-log print it', async () => {
  stageShop(home);
  const record = await commitStaged(paths, 'first commit', lastOf(SHOP_LEARNED), NOW, writeFileAtomic);
  const flow = 'shop.flow.json';
  const commitText =
    `## Version 2 (committed now)\n\ncommitted, 2026-09-21 14:13 UTC\n\n> first commit\n\n` +
    `On the last 2 sessions before it, the staged flow's lookups: 4, 1 used, 3 detours; the committed flow's: 3, 2 used, 0 detours.\n\n` +
    promotedLines.map((l) => `- ${l}\n`).join('') +
    '\n';
  // What flow-commit prints: the new record alone.
  assert.is(renderFlowLog(flow, [record]), `# ${flow}\n\n${commitText}`);
  // What flow-log prints: every version.
  assert.is(
    renderFlowLog(flow, await history(paths)),
    `# ${flow}\n\n${commitText}## Version 1\n\nfound in place, 2026-09-21 14:13 UTC\n\n`,
  );
});

stage('evidence from another learning run is not recorded', async () => {
  stageShop(home);
  const record = await commitStaged(paths, null, lastOf(SHOP_LEARNED + 1), NOW, writeFileAtomic);
  assert.is(record.evidence, null);
  assert.not.match(readFileSync(join(paths.history, '2.json'), 'utf8'), 'evidence');
});

stage('a first commit without a committed flow keeps one version and lists no changes', async () => {
  const staged = stageShop(home);
  rmSync(paths.committed);
  const record = await commitStaged(paths, null, null, NOW, writeFileAtomic);
  assert.equal([record.version, record.kind, record.changes], [1, 'commit', []]);
  assert.ok(readFileSync(paths.committed).equals(staged));
  assert.is(readFileSync(join(paths.history, '1.json'), 'utf8'), `{\n  "version": 1,\n  "kind": "commit",\n  "unix_ms": ${NOW}\n}`);
});

stage('a commit is refused with nothing staged, for another domain, or when the flows are one', async () => {
  assert.is(await refusal(candidate(paths)), `there is no staged flow at ${paths.staged}: engine stage learns it`);
  assert.is(await refusal(commitStaged(paths, null, null, NOW, writeFileAtomic)), `there is no staged flow at ${paths.staged}: engine stage learns it`);
  writeFileSync(paths.staged, readFileSync(join(fixturesDir, 'flows/retail-5-sessions.flow.json')));
  assert.is(await refusal(commitStaged(paths, null, null, NOW, writeFileAtomic)), 'the staged flow is for retail, the committed one for shop');
  writeFileSync(paths.staged, shopBytes);
  assert.is(await refusal(commitStaged(paths, null, null, NOW, writeFileAtomic)), 'the staged flow is the committed one: nothing to commit');
  // A refusal writes nothing.
  assert.not.ok(existsSync(paths.history));
  assert.ok(readFileSync(paths.committed).equals(shopBytes));
});

stage('a staged or committed flow that does not load is an error, not a refusal', async () => {
  writeFileSync(paths.staged, 'not a flow');
  assert.match(await failure(commitStaged(paths, null, null, NOW, writeFileAtomic)), `parsing ${paths.staged}: `);
  stageShop(home);
  chmodSync(paths.committed, 0o644);
  writeFileSync(paths.committed, '{"engine_flow": 7}');
  assert.match(await failure(candidate(paths)), `parsing ${paths.committed}: flow format 7 is not supported`);
  assert.not.ok(existsSync(paths.history));
});

stage('a rollback restores the version before by default, or the one named, as versions of their own', async () => {
  const staged = stageShop(home);
  await commitStaged(paths, null, null, NOW, writeFileAtomic);
  const back = await rollbackFlow(paths, null, cleanNote(' back '), NOW + 60_000, writeFileAtomic);
  assert.equal(back, {
    version: 3,
    kind: 'rollback',
    unix_ms: NOW + 60_000,
    restored: 1,
    note: 'back',
    changes: back.changes,
    evidence: null,
  });
  assert.ok(readFileSync(paths.committed).equals(shopBytes));
  assert.ok(readFileSync(join(paths.history, '3.flow.json')).equals(shopBytes));
  // Again by default: the one before the latest, which is the commit.
  const again = await rollbackFlow(paths, null, null, NOW, writeFileAtomic);
  assert.equal([again.version, again.restored], [4, 2]);
  assert.ok(readFileSync(paths.committed).equals(staged));
  assert.equal(again.changes, promotedLines);
  // Named.
  const named = await rollbackFlow(paths, 1, null, NOW, writeFileAtomic);
  assert.equal([named.version, named.restored], [5, 1]);
  assert.ok(readFileSync(paths.committed).equals(shopBytes));
  // What flow-log prints, by init-doctor-stage.md §3.8's template: going back undoes the promotion.
  const reversed = ['3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3) → none: it may act after every call'];
  assert.equal(back.changes, reversed);
  const list = (changes: string[]) => changes.map((c) => `- ${c}\n`).join('');
  assert.fixture(
    renderFlowLog('shop.flow.json', await history(paths)),
    '# shop.flow.json\n\n' +
      `## Version 5 (committed now)\n\nrolled back to version 1, 2026-09-21 14:13 UTC\n\n${list(reversed)}\n` +
      `## Version 4\n\nrolled back to version 2, 2026-09-21 14:13 UTC\n\n${list(promotedLines)}\n` +
      `## Version 3\n\nrolled back to version 1, 2026-09-21 14:14 UTC\n\n> back\n\n${list(reversed)}\n` +
      `## Version 2\n\ncommitted, 2026-09-21 14:13 UTC\n\n${list(promotedLines)}\n` +
      '## Version 1\n\nfound in place, 2026-09-21 14:13 UTC\n\n',
  );
});

stage('a rollback is refused without a committed flow, an earlier version, or the version asked', async () => {
  // A committed flow with no history: nothing earlier, and no version of any number.
  assert.is(await refusal(rollbackFlow(paths, null, null, NOW, writeFileAtomic)), `${paths.committed} has no earlier version to roll back to`);
  assert.is(await refusal(rollbackFlow(paths, 1, null, NOW, writeFileAtomic)), `there is no version 1: ${paths.committed} has versions 1 to 0`);
  rmSync(paths.committed);
  assert.is(await refusal(rollbackFlow(paths, null, null, NOW, writeFileAtomic)), `there is no committed flow at ${paths.committed}`);
  stageShop(home);
  await commitStaged(paths, null, null, NOW, writeFileAtomic);
  assert.is(await refusal(rollbackFlow(paths, null, null, NOW, writeFileAtomic)), `${paths.committed} has no earlier version to roll back to`);
  assert.is(await refusal(rollbackFlow(paths, 9, null, NOW, writeFileAtomic)), `there is no version 9: ${paths.committed} has versions 1 to 1`);
  assert.is(await refusal(rollbackFlow(paths, 1, null, NOW, writeFileAtomic)), 'version 1 is the committed flow already');
});

stage('a committed flow changed by other means is kept as found, and restored from by default', async () => {
  const staged = stageShop(home);
  await commitStaged(paths, null, null, NOW, writeFileAtomic);
  writeFileSync(paths.committed, shopBytes);
  assert.is(await unrecorded(paths, await history(paths)), true);
  const back = await rollbackFlow(paths, null, null, NOW, writeFileAtomic);
  assert.equal([back.version, back.restored], [4, 2]);
  const versions = await history(paths);
  assert.equal(versions.map((r) => r.kind), ['found', 'commit', 'found', 'rollback']);
  // The found version lists what changed from the version before it.
  assert.equal(versions[2]?.changes.length !== 0, true);
  assert.ok(readFileSync(paths.committed).equals(staged));
  assert.is(await unrecorded(paths, versions), false);
});

stage('history ignores files that are not N.json and says which record does not parse', async () => {
  stageShop(home);
  await commitStaged(paths, null, null, NOW, writeFileAtomic);
  writeFileSync(join(paths.history, 'notes.json'), 'x');
  writeFileSync(join(paths.history, '.2.json.123.tmp'), 'x');
  assert.is((await history(paths)).length, 2);
  writeFileSync(join(paths.history, '7.json'), '{"version": 7}');
  assert.match(await failure(history(paths)), `parsing ${join(paths.history, '7.json')}: `);
});

stage.run();
