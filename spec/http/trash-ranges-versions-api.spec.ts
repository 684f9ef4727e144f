// The API beyond the spec, over HTTP on a temp copy of the fixture home: the trash
// (list, restore with 409 when the path is taken again, empty, the change header and --read-only), the
// sessions list's day range and sort, the overview's domain and day range, the salt flag of /api/meta, and
// flow versions marked with their flow.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { FlowListSchema } from '../../shared/flows.ts';
import { MetaSchema } from '../../shared/meta.ts';
import { OverviewSchema } from '../../shared/overview.ts';
import { SessionListSchema } from '../../shared/sessions.ts';
import { TrashEmptiedSchema, TrashListSchema, TrashRestoredSchema } from '../../shared/trash.ts';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const api = suite('ux api');
let c: Launched;
api.before(async () => {
  c = await launch({ env: { ENGINE_REDACT_SALT: 'pepper' } });
});
api.after(async () => {
  await c.stop();
});

async function json<S extends v.GenericSchema>(schema: S, path: string, init?: RequestInit, status = 200): Promise<v.InferOutput<S>> {
  const res = await c.api(path, init);
  assert.is(res.status, status, path);
  return v.parse(schema, await res.json());
}
const error = (path: string, init: RequestInit | undefined, status: number) => json(ErrorBodySchema, path, init, status);

const SESSION = '20260928T020401.117Z-14662';
const SESSION_REL = `served/shop/${SESSION}.jsonl`;

api('a deleted session is listed in the trash with its companion, and restored whole', async () => {
  assert.equal((await json(TrashListSchema, '/api/trash')).items, []);
  assert.is((await c.api(`/api/sessions/${SESSION}`, { method: 'DELETE' })).status, 200);
  const { items } = await json(TrashListSchema, '/api/trash');
  assert.is(items.length, 1);
  const entry = items[0]!;
  assert.is(entry.kind, 'session');
  assert.is(entry.path, SESSION_REL);
  assert.equal(entry.files.map((f) => [f.path, f.taken]), [
    [`served/shop/${SESSION}.flow.jsonl`, false],
    [SESSION_REL, false],
  ]);
  // A change without the console's header is refused like every other.
  const bare = await fetch(`${c.url}/api/trash/${entry.id}/restore`, { method: 'POST', headers: { Authorization: 'Bearer test-token' } });
  assert.is(bare.status, 403);
  const restored = await json(TrashRestoredSchema, `/api/trash/${entry.id}/restore`, { method: 'POST' });
  assert.equal(restored.restored, [`served/shop/${SESSION}.flow.jsonl`, SESSION_REL]);
  assert.ok(existsSync(join(c.dataDir, SESSION_REL)));
  assert.is((await c.api(`/api/sessions/${SESSION}`)).status, 200);
  assert.equal((await json(TrashListSchema, '/api/trash')).items, []);
  assert.not.ok(existsSync(join(c.dataDir, 'console/trash', entry.id)), 'the emptied folder goes');
});

api('restoring over a path taken again is 409 and moves nothing; a bad or unknown id is 400 or 404', async () => {
  await c.api('/api/flows/shop.promoted', { method: 'DELETE' });
  const [entry] = (await json(TrashListSchema, '/api/trash')).items;
  assert.is(entry!.kind, 'flow');
  writeFileSync(join(c.dataDir, 'shop.promoted.flow.json'), '{}');
  assert.is((await json(TrashListSchema, '/api/trash')).items[0]!.files[0]!.taken, true);
  const message = (await error(`/api/trash/${entry!.id}/restore`, { method: 'POST' }, 409)).error;
  assert.is(message, 'shop.promoted.flow.json exists again: move or delete it first, then restore');
  assert.is(readFileSync(join(c.dataDir, 'shop.promoted.flow.json'), 'utf8'), '{}');
  await error('/api/trash/abc/restore', { method: 'POST' }, 400);
  await error('/api/trash/12345/restore', { method: 'POST' }, 404);
});

api('emptying the trash removes every folder', async () => {
  const before = (await json(TrashListSchema, '/api/trash')).items.length;
  assert.ok(before > 0);
  assert.is((await json(TrashEmptiedSchema, '/api/trash', { method: 'DELETE' })).removed, before);
  assert.equal((await json(TrashListSchema, '/api/trash')).items, []);
});

api('the sessions list takes a UTC day range and a column order; the defaults stay newest first', async () => {
  const all = await json(SessionListSchema, '/api/sessions');
  assert.is((await json(SessionListSchema, '/api/sessions?from=2026-09-28&to=2026-09-28')).total, all.total);
  assert.is((await json(SessionListSchema, '/api/sessions?from=2026-09-29')).total, 0);
  assert.is((await json(SessionListSchema, '/api/sessions?to=2026-09-27')).total, 0);
  assert.is((await error('/api/sessions?from=2026-09-30&to=2026-09-01', undefined, 400)).error, 'from: the first day must not be after the last (to)');
  assert.is((await error('/api/sessions?from=2026-02-30', undefined, 400)).error, 'from "2026-02-30": a UTC day as YYYY-MM-DD');
  const calls = (await json(SessionListSchema, '/api/sessions?sort=calls&order=asc')).items.map((s) => s.tool_calls);
  assert.equal(calls, [...calls].sort((a, b) => a - b));
  assert.ok(calls[0]! < calls[calls.length - 1]!, 'the fixture has sessions of different sizes');
  const byDefault = (await json(SessionListSchema, '/api/sessions?sort=started&order=desc')).items.map((s) => s.key);
  assert.equal(byDefault, all.items.map((s) => s.key));
  assert.is((await error('/api/sessions?sort=size', undefined, 400)).error.startsWith('sort "size": expected one of'), true);
});

api('the overview counts the chosen domain and days only, and keeps every domain to choose from', async () => {
  const all = await json(OverviewSchema, '/api/overview');
  const retail = await json(OverviewSchema, '/api/overview?domain=retail');
  assert.is(retail.totals.sessions, 1);
  assert.equal(retail.recent_sessions.map((s) => s.domain), ['retail']);
  assert.is(retail.totals.flows, 0);
  assert.equal(retail.domains.map((d) => d.name), all.domains.map((d) => d.name));
  const ranged = await json(OverviewSchema, '/api/overview?from=2026-09-20&to=2026-09-29');
  assert.equal(ranged.activity.map((d) => d.day), ['2026-09-20', '2026-09-21', '2026-09-22', '2026-09-23', '2026-09-24', '2026-09-25', '2026-09-26', '2026-09-27', '2026-09-28', '2026-09-29']);
  assert.is(ranged.activity.find((d) => d.day === '2026-09-28')!.sessions, all.totals.sessions);
  assert.is(all.activity.length, 14, 'without a range, the spec\'s 14 days');
});

api('/api/meta says whether the redaction salt is set, never its value', async () => {
  const res = await c.api('/api/meta');
  const text = await res.text();
  assert.is(v.parse(MetaSchema, JSON.parse(text)).salt_set, true);
  assert.not.match(text, 'pepper');
});

api('a flow version in <name>.history/ is listed, marked with its flow and version; its key works', async () => {
  mkdirSync(join(c.dataDir, 'shop.history'), { recursive: true });
  writeFileSync(join(c.dataDir, 'shop.history/2.flow.json'), readFileSync(join(c.dataDir, 'shop.flow.json')));
  const { items } = await json(FlowListSchema, '/api/flows');
  const version = items.find((f) => f.path === 'shop.history/2.flow.json')!;
  assert.equal(version.version_of, { flow: 'shop', name: 'shop', version: 2 });
  assert.is(items.find((f) => f.key === 'shop')!.version_of, undefined);
  assert.is((await c.api(`/api/flows/${version.key}`)).status, 200);
});

const ro = suite('ux api read-only');
let r: Launched;
let home: { dir: string; cleanup: () => void };
ro.before(async () => {
  home = copyHome();
  mkdirSync(join(home.dir, 'console/trash/1700000000000/logs/shop'), { recursive: true });
  writeFileSync(join(home.dir, 'console/trash/1700000000000/logs/shop/gone.jsonl'), '');
  r = await launch({ dataDir: home.dir, args: ['--read-only'] });
});
ro.after(async () => {
  await r.stop();
  home.cleanup();
});

ro('a read-only console lists the trash but refuses restore and empty (403)', async () => {
  const list = v.parse(TrashListSchema, await (await r.api('/api/trash')).json());
  assert.equal(list.items.map((i) => [i.id, i.kind, i.path]), [['1700000000000', 'session', 'logs/shop/gone.jsonl']]);
  assert.is((await r.api('/api/trash/1700000000000/restore', { method: 'POST' })).status, 403);
  assert.is((await r.api('/api/trash', { method: 'DELETE' })).status, 403);
  assert.ok(existsSync(join(home.dir, 'console/trash/1700000000000/logs/shop/gone.jsonl')));
  const meta = v.parse(MetaSchema, await (await r.api('/api/meta')).json());
  assert.is(meta.salt_set, false);
});

api.run();
ro.run();
