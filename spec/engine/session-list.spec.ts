// The session list (session-format §6.1, §7.5) over the fixture home's summaries, the query schema of
// GET /api/sessions, and the sessions worker tasks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionsQuerySchema, type SessionSummary } from '../../shared/sessions.ts';
import { listSessions } from '../../server/engine/session-list.ts';
import { sessionSummary } from '../../server/engine/sessions.ts';
import {
  sessionDetailFileTask,
  sessionDetailTask,
  indexSessionsTask,
} from '../../server/workers/tasks/sessions.ts';
import { tempDir } from '../support/fixtures.ts';
import { stampNow } from '../../server/store/stamp.ts';
import { fixtureSessions } from './session-files.ts';
import { startsWith } from '../support/assert.ts';

const NEWEST_FIRST = [
  '20260928T020401.312Z-14780',
  '20260928T020401.278Z-14768',
  '20260928T020401.259Z-14759',
  '20260928T020401.240Z-14750',
  '20260928T020401.195Z-14715',
  '20260928T020401.117Z-14662',
  '20260928T020400.710Z-14594',
  '20260928T020400.679Z-14565',
  '20260928T020400.650Z-14540',
  '20260928T020400.618Z-14511',
  '20260928T020400.587Z-14486',
  '20260928T020400.548Z-14457',
];

const query = (q: Record<string, string> = {}) => v.parse(SessionsQuerySchema, q);
let all: SessionSummary[] = [];

const list = suite('session-list');
list.before(() => {
  all = fixtureSessions().map((f) => sessionSummary(f));
});

list('with no filters it gives all 12 fixture sessions, newest first (§7.5)', () => {
  const out = listSessions(all, query());
  assert.is(out.total, 12);
  assert.equal(out.items.map((s) => s.key), NEWEST_FIRST);
  assert.equal(out.items.map((s) => s.mode), [
    'recorded', 'shadow', 'shadow', 'shadow', 'served', 'served', 'recorded', 'recorded', 'recorded', 'recorded', 'recorded', 'recorded',
  ]);
  assert.is(out.items[0]!.domain, 'retail');
});

list('the mode and domain filters give the counts of §7.5', () => {
  const total = (q: Record<string, string>) => listSessions(all, query(q)).total;
  assert.equal([total({ mode: 'served' }), total({ mode: 'shadow' }), total({ mode: 'recorded' })], [2, 3, 7]);
  assert.equal([total({ domain: 'retail' }), total({ domain: 'shop' }), total({ domain: 'Shop' })], [1, 11, 0]);
  assert.equal([total({ domain: '', mode: '' }), total({ domain: 'shop', mode: 'shadow' })], [12, 3]);
});

list('q matches the session id, domain, agent and tools called, ignoring case', () => {
  const keys = (q: string) => listSessions(all, query({ q })).items.map((s) => s.key);
  assert.equal(keys('FIXTURES'), NEWEST_FIRST.slice(0, 4));
  assert.equal(keys('14662'), ['20260928T020401.117Z-14662']);
  assert.equal(keys('retail'), ['20260928T020401.312Z-14780']);
  // Tools called: the served session 14715 makes no write; the recorded 14486 and 14540 stop before one.
  assert.equal(listSessions(all, query({ q: 'Cancel_Pending' })).total, 8);
  assert.equal(listSessions(all, query({ q: 'get_user_details' })).total, 12);
  assert.equal(listSessions(all, query({ q: 'no such thing' })).total, 0);
});

list('paging keeps the total and skips offset, keeps limit', () => {
  const page = listSessions(all, query({ limit: '5', offset: '10' }));
  assert.is(page.total, 12);
  assert.equal(page.items.map((s) => s.key), NEWEST_FIRST.slice(10));
  assert.equal(listSessions(all, query({ limit: '0' })).items, []);
  assert.equal(listSessions(all, query({ offset: '99' })).items, []);
});

list('sessions that start at the same time are ordered by session id, descending', () => {
  const base = all[0]!;
  const twins = ['b', 'c', 'a'].map((id) => ({ ...base, key: id, session_id: id, started_unix_ms: 5 }));
  assert.equal(listSessions(twins, query()).items.map((s) => s.key), ['c', 'b', 'a']);
});

list('items are wire summaries: the tools called stay out', () => {
  const items = listSessions(all, query()).items;
  assert.is.not(items.length, 0, 'a loop over no items would pass whatever they hold');
  assert.equal(items.filter((s) => 'tools_called' in s).map((s) => s.key), []);
});

list.run();

const schema = suite('sessions query schema');

schema('defaults are limit 50 and offset 0, and empty values mean no filter', () => {
  // from/to/sort/order are beyond the spec (issue 15); their defaults keep the spec's answer.
  const defaults = { domain: null, mode: null, q: null, limit: 50, offset: 0, from: null, to: null, since: null, agent: null, tool: null, has: [], sort: 'started', order: 'desc' };
  assert.equal(query(), defaults);
  assert.equal(query({ domain: '', mode: '', q: '', from: '', to: '', since: '', agent: '', tool: '', has: '', sort: '', order: '' }), defaults);
});

schema('limit is clamped to 500', () => {
  assert.is(query({ limit: '501' }).limit, 500);
  assert.is(query({ limit: '500' }).limit, 500);
  assert.is(query({ limit: '7' }).limit, 7);
});

schema('a mode other than the three is refused with the reference’s message', () => {
  const r = v.safeParse(SessionsQuerySchema, { mode: 'live' });
  assert.not.ok(r.success);
  assert.is(r.issues?.[0]?.message, 'mode "live": expected recorded, shadow or served');
  assert.is(v.safeParse(SessionsQuerySchema, { mode: 'say "hi"' }).issues?.[0]?.message, 'mode "say \\"hi\\"": expected recorded, shadow or served');
});

schema('limit and offset must be whole numbers', () => {
  for (const bad of [{ limit: '-1' }, { limit: 'ten' }, { offset: '1.5' }, { offset: '' }]) {
    const r = v.safeParse(SessionsQuerySchema, bad);
    assert.not.ok(r.success, JSON.stringify(bad));
    assert.match(r.issues?.[0]?.message ?? '', /^(limit|offset): a whole number/);
  }
});

schema.run();

const tasks = suite('session tasks');
let temp: { dir: string; cleanup: () => void };
tasks.before(() => {
  temp = tempDir('engine-session-tasks-');
});
tasks.after(() => temp.cleanup());

tasks('the index task answers one result per file, in order, a failure as a message', () => {
  const bad = join(temp.dir, 'bad.jsonl');
  writeFileSync(bad, 'not a log\n');
  const good = { ...fixtureSessions()[0]!, known: null };
  const badFiles = { key: 'bad', rel: 'bad.jsonl', path: bad, flowLog: null, confirmLog: null, known: null };
  const out = indexSessionsTask([good, badFiles, good]);
  const results = out.map((r) => ('result' in r ? r.result : null));
  assert.equal(results.map((r) => r?.ok), [true, false, true]);
  const failed = results[1]!;
  assert.ok(!failed.ok);
  if (!failed.ok) startsWith(failed.message, `parsing ${bad}: line 1: not an engine MCP log header`);
  assert.equal(results[0], { ok: true, value: sessionSummary(good) });
  // Results cross a worker boundary: plain data only.
  assert.equal(structuredClone(out), out);
});

tasks('a new log is stamped from the descriptors it is read from: the same stamp and summary as a stat and a read by path', () => {
  const fixtures = fixtureSessions();
  assert.ok(fixtures.some((f) => f.flowLog !== null) && fixtures.some((f) => f.confirmLog !== null));
  const fresh = indexSessionsTask(fixtures.map((f) => ({ ...f, known: null })));
  // A stamp the index does not hold makes the stat'd way read the log again.
  const byStat = indexSessionsTask(fixtures.map((f) => ({ ...f, known: 'stale' })));
  assert.equal(fresh, byStat);
  fixtures.forEach((f, i) => {
    const r = fresh[i]!;
    assert.is(r.stamp, stampNow(f));
    assert.equal('result' in r ? r.result : null, { ok: true, value: sessionSummary(f) });
  });
});

tasks('a new log that is gone, not a file, or has lost its flow log is answered, not thrown', () => {
  const good = fixtureSessions().find((f) => f.flowLog !== null)!;
  const dir = join(temp.dir, 'dir.jsonl');
  mkdirSync(dir);
  const [gone, notFile, noFlow] = indexSessionsTask([
    { ...good, path: join(temp.dir, 'gone.jsonl'), known: null },
    { ...good, path: dir, known: null },
    { ...good, flowLog: join(temp.dir, 'gone.flow.jsonl'), known: null },
  ]);
  assert.equal(gone && 'result' in gone ? gone.result : null, { ok: false, message: 'the log is gone' });
  assert.ok(gone!.stamp.startsWith('-|'));
  const failed = notFile && 'result' in notFile ? notFile.result : null;
  assert.ok(failed !== null && !failed.ok);
  if (failed !== null && !failed.ok) startsWith(failed.message, `reading ${dir}: `);
  assert.ok(noFlow && 'result' in noFlow && noFlow.result.ok);
  assert.is(noFlow!.stamp.split('|')[1], '-');
});

tasks('the detail task answers the view, or why the file cannot be read', () => {
  const good = fixtureSessions()[0]!;
  const r = sessionDetailTask(good);
  assert.ok(r.ok, JSON.stringify(r).slice(0, 200));
  assert.is(r.value.summary.key, good.key);
  const missing = sessionDetailTask({ ...good, path: join(temp.dir, 'gone.jsonl') });
  assert.ok(!missing.ok);
  startsWith(missing.message, 'reading ');
});

tasks('the detail file task answers the same view as JSON text', () => {
  const good = fixtureSessions()[0]!;
  const out = join(temp.dir, 'detail.json');
  const written = sessionDetailFileTask({ files: good, out });
  const view = sessionDetailTask(good);
  assert.ok(written.ok, JSON.stringify(written).slice(0, 200));
  assert.ok(view.ok, JSON.stringify(view).slice(0, 200));
  assert.equal(JSON.parse(readFileSync(out, 'utf8')), JSON.parse(JSON.stringify(view.value)));
  const missing = sessionDetailFileTask({ files: { ...good, path: join(temp.dir, 'gone.jsonl') }, out: join(temp.dir, 'gone.json') });
  assert.ok(!missing.ok);
  startsWith(missing.message, 'reading ');
});

tasks.run();
