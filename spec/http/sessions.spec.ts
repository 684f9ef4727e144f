// The sessions API over HTTP on a temp copy of the fixture home: list filters and paging, detail, raw
// download, delete to the trash, bad input, and the `changed` event a new log produces.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema, OkSchema } from '../../shared/common.ts';
import { ChangedEventSchema } from '../../shared/events.ts';
import { SessionDetailSchema, SessionListSchema } from '../../shared/sessions.ts';
import { fixtureHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { holds } from '../support/assert.ts';

const sessions = suite('sessions api');
let c: Launched;
sessions.before(async () => {
  c = await launch();
});
sessions.after(async () => {
  await c.stop();
});

async function list(query = '') {
  const res = await c.api(`/api/sessions${query}`);
  assert.is(res.status, 200, query);
  return v.parse(SessionListSchema, await res.json());
}

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

sessions('the list has every readable session, newest first', async () => {
  const l = await list();
  assert.is(l.total, 12);
  assert.is(l.items.length, 12);
  const starts = l.items.map((s) => s.started_unix_ms);
  assert.equal(starts, [...starts].sort((a, b) => b - a));
  assert.is(l.items[0]!.key, '20260928T020401.312Z-14780');
});

sessions('summaries carry no internal fields: list items and the overview\'s newest sessions', async () => {
  const raw = (await (await c.api('/api/sessions?q=get_user_details')).json()) as { items: Record<string, unknown>[] };
  assert.ok(raw.items.length > 0);
  for (const item of raw.items) assert.not.ok('tools_called' in item);
  const overview = (await (await c.api('/api/overview')).json()) as { recent_sessions: Record<string, unknown>[] };
  assert.ok(overview.recent_sessions.length > 0);
  for (const item of overview.recent_sessions) assert.not.ok('tools_called' in item);
});

sessions('filters count as the reference says: mode, domain and q', async () => {
  assert.is((await list('?mode=served')).total, 2);
  assert.is((await list('?mode=shadow')).total, 3);
  assert.is((await list('?mode=recorded')).total, 7);
  assert.is((await list('?domain=retail')).total, 1);
  assert.is((await list('?domain=shop')).total, 11);
  assert.is((await list('?domain=Shop')).total, 0);
  assert.is((await list('?mode=')).total, 12);
  assert.is((await list('?q=RETAIL')).total, 1);
});

sessions('limit and offset page the list; limit is clamped to 500', async () => {
  const all = await list();
  const page = await list('?limit=5&offset=5');
  assert.is(page.total, 12);
  assert.equal(page.items.map((s) => s.key), all.items.slice(5, 10).map((s) => s.key));
  assert.is((await list('?limit=0')).items.length, 0);
  assert.is((await list('?limit=100000')).items.length, 12);
});

sessions('bad query values are 400 with a message that says what is expected', async () => {
  assert.match(await error(await c.api('/api/sessions?mode=live'), 400), /mode "live": expected recorded, shadow or served/);
  for (const q of ['limit=abc', 'limit=-1', 'offset=1.5', 'limit=']) {
    assert.is((await c.api(`/api/sessions?${q}`)).status, 400, q);
  }
});

sessions('one session carries every section', async () => {
  const res = await c.api('/api/sessions/20260928T020401.117Z-14662');
  assert.is(res.status, 200);
  const d = v.parse(SessionDetailSchema, await res.json());
  assert.is(d.summary.mode, 'served');
  assert.ok(d.calls.length > 0);
  assert.ok(d.decisions.length > 0);
  assert.ok(d.events.length > 0);
  assert.ok(d.tools.length > 0);
  holds(d.calls.map((call) => call.by), 'flow');
});

sessions('unknown keys are 404; a .jsonl that is not a session log is 422 and left out of the list', async () => {
  assert.match(await error(await c.api('/api/sessions/nope'), 404), /no session "nope"/);
  writeFileSync(join(c.dataDir, 'logs/shop/broken.jsonl'), '{"not":"a session"}\n');
  writeFileSync(join(c.dataDir, 'logs/shop/binary.jsonl'), Buffer.from([0, 159, 146, 150, 255, 0, 10]));
  writeFileSync(join(c.dataDir, 'logs/shop/cut.jsonl'), readFileSync(join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl'), 'utf8').slice(0, 900));
  assert.match(await error(await c.api('/api/sessions/broken'), 422), /^logs\/shop\/broken\.jsonl is not a session log engine can read: /);
  assert.is((await c.api('/api/sessions/binary')).status, 422);
  const cut = await c.api('/api/sessions/cut');
  assert.ok(cut.status === 200 || cut.status === 422, String(cut.status));
  const l = await list();
  assert.not.ok(l.items.some((s) => s.key === 'broken' || s.key === 'binary'));
  assert.is((await c.api('/api/health')).status, 200);
});

sessions('the raw log is an ndjson download of the file as it is', async () => {
  const res = await c.api('/api/sessions/20260928T020400.548Z-14457/raw');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/x-ndjson');
  assert.is(res.headers.get('content-disposition'), 'attachment; filename="20260928T020400.548Z-14457.jsonl"');
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.is(await res.text(), readFileSync(join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl'), 'utf8'));
});

sessions('delete moves the log and its companions to the trash; again is 404', async () => {
  const key = '20260928T020401.117Z-14662';
  const res = await c.api(`/api/sessions/${key}`, { method: 'DELETE' });
  assert.is(res.status, 200);
  v.parse(OkSchema, await res.json());
  assert.not.ok(existsSync(join(c.dataDir, `served/shop/${key}.jsonl`)));
  assert.not.ok(existsSync(join(c.dataDir, `served/shop/${key}.flow.jsonl`)));
  const [stamp] = readdirSync(join(c.dataDir, 'console/trash'));
  assert.ok(existsSync(join(c.dataDir, `console/trash/${stamp}/served/shop/${key}.jsonl`)));
  assert.ok(existsSync(join(c.dataDir, `console/trash/${stamp}/served/shop/${key}.flow.jsonl`)));
  assert.is((await c.api(`/api/sessions/${key}`, { method: 'DELETE' })).status, 404);
  assert.is((await list('?mode=served')).total, 1);
});

sessions('a new session file produces a changed event within 2 s', async () => {
  const ctl = new AbortController();
  const res = await c.api('/api/events', { signal: ctl.signal });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'text/event-stream');
  assert.is(res.headers.get('cache-control'), 'no-cache');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  // Let the watcher take its baseline, then add a log.
  await new Promise((r) => setTimeout(r, 1_200));
  copyFileSync(join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl'), join(c.dataDir, 'logs/shop/fresh.jsonl'));
  const deadline = Date.now() + 2_500;
  let text = '';
  let found: v.InferOutput<typeof ChangedEventSchema> | null = null;
  while (Date.now() < deadline && !found) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    // Earlier tests' changes may still be announced first: the one that names the new log is looked for.
    for (const m of text.matchAll(/event: changed\ndata: (.*)\n\n/g)) {
      const event = v.parse(ChangedEventSchema, JSON.parse(m[1]!));
      if (event.keys.includes('fresh')) found = event;
    }
  }
  ctl.abort();
  assert.ok(found, text);
  assert.equal(found, { what: 'sessions', keys: ['fresh'] });
});

sessions.run();
