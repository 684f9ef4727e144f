import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobSchema } from '../../shared/jobs.ts';
import { OverviewSchema, type Overview } from '../../shared/overview.ts';
import { fixtureHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { startsWith } from '../support/assert.ts';

const overview = suite('overview api');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');
const SOURCE = join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl');
const NOW = Date.UTC(2026, 9, 10, 12, 0, 0);
const LATE = Date.UTC(2026, 9, 5, 23, 59, 0);
const EARLY = Date.UTC(2026, 9, 6, 0, 1, 0);

let c: Launched;
let R = '';
const cleanups: (() => void)[] = [];

/** A copy of a fixture session log, renamed and restarted at `startedMs`. */
function sessionAt(dir: string, id: string, startedMs: number, domain: string): void {
  const lines = readFileSync(SOURCE, 'utf8').split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  header.session = id;
  header.started_unix_ms = startedMs;
  header.domain = domain;
  lines[0] = JSON.stringify(header);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n'));
}

/** The overview once the cold index is done (a first answer may come while it runs, with `indexing`). */
async function get(): Promise<Overview> {
  for (let i = 0; ; i++) {
    const res = await c.api('/api/overview');
    assert.is(res.status, 200);
    const o = v.parse(OverviewSchema, await res.json());
    if (o.indexing === undefined || i >= 100) return o;
    await new Promise((r) => setTimeout(r, 100));
  }
}

overview.before(async () => {
  const t = tempDir('engine-overview-');
  cleanups.push(t.cleanup);
  R = realpathSync(t.dir);
  sessionAt(join(R, 'logs/notes'), 'late', LATE, 'notes');
  sessionAt(join(R, 'logs/notes'), 'early', EARLY, 'notes');
  for (let i = 0; i < 8; i++) sessionAt(join(R, 'logs/old'), `old${i}`, Date.UTC(2026, 8, 1 + i), 'old');
  writeFileSync(join(R, 'logs/notes/garbage.jsonl'), 'this is not a session log\n');
  writeFileSync(join(R, 'broken.flow.json'), '{"engine_flow": 1}');
  writeFileSync(
    join(R, 'servers.json'),
    JSON.stringify({
      engine_servers: 1,
      servers: [
        {
          name: 'notes', description: '', upstream: { kind: 'http', url: 'https://notes.example.com/mcp', headers: [] },
          mode: 'shadow', flow: null, record_dir: null, decider: null, threshold: null, created_unix_ms: 1, updated_unix_ms: 1,
        },
      ],
    }),
  );
  c = await launch({
    dataDir: R,
    args: ['--engine', FAKE],
    env: { ENGINE_CONSOLE_NOW_MS: String(NOW), FAKE_ENGINE_VERSION: '9.9.9' },
  });
});
overview.after(async () => {
  await c?.stop();
  cleanups.forEach((f) => f());
});

overview('the activity is the last 14 UTC days, and 23:59 and 00:01 fall on their own UTC days', async () => {
  const o = await get();
  assert.is(o.activity.length, 14);
  assert.is(o.activity[0]!.day, '2026-09-27');
  assert.is(o.activity[13]!.day, '2026-10-10');
  const day = (d: string) => o.activity.find((a) => a.day === d)!;
  assert.is(day('2026-10-05').sessions, 1);
  assert.is(day('2026-10-06').sessions, 1);
  assert.is(day('2026-10-05').tool_calls, 5);
  assert.is(o.activity.reduce((n, a) => n + a.sessions, 0), 2, 'sessions of September 1–8 are out of range');
});

overview('totals, domains and the 8 newest sessions', async () => {
  const o = await get();
  assert.is(o.totals.sessions, 10);
  assert.is(o.totals.sessions_7d, 2);
  assert.is(o.totals.flows, 1);
  assert.is(o.totals.servers, 1);
  assert.is(o.totals.tool_calls, 50);
  assert.equal(o.domains.map((d) => d.name), ['notes', 'old']);
  assert.equal(o.domains[0]!.servers, ['notes']);
  assert.equal(o.domains[0]!.flows, [], 'a flow that does not load belongs to no domain');
  assert.is(o.domains[0]!.last_session_unix_ms, EARLY);
  assert.equal(o.recent_sessions.map((s) => s.session_id), ['early', 'late', 'old7', 'old6', 'old5', 'old4', 'old3', 'old2']);
});

overview('the health list shows the doctor\'s findings, a broken flow, an unreadable log and a registry issue', async () => {
  const o = await get();
  const health = (await (await c.api('/api/health')).json()) as { version: string };
  const messages = o.health.map((h) => `${h.level} ${h.message}`);
  assert.is(messages[0], `ok ${R} exists and is writable`);
  assert.is(messages[1], `warn engine 9.9.9 (${FAKE}) is not engine ${health.version}'s, as the console is: install them together`);
  startsWith(messages[2]!, 'warn engine-proxy ', messages[2]);
  startsWith(messages[3]!, 'note TYPESAFE_API_KEY is not set. It is optional', messages[3]);
  assert.match(messages.join('\n'), /^error broken\.flow\.json: this engine cannot read it \(/m);
  assert.match(messages.join('\n'), /^warn logs\/notes\/garbage\.jsonl is not a session log this engine can read: /m);
  assert.is(messages.at(-1), 'warn server notes: mode is shadow but no flow is set');
});

overview('the overview lists the 5 newest jobs', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await c.api('/api/jobs', { method: 'POST', body: JSON.stringify({ kind: 'doctor' }) });
    assert.is(res.status, 202);
    ids.push(v.parse(JobSchema, await res.json()).id);
  }
  const o = await get();
  assert.equal(o.jobs.map((j) => j.id), ids.slice(1).reverse());
});

overview('a registry that does not load is an error in the health list and counts no servers', async () => {
  writeFileSync(join(R, 'servers.json'), '{"engine_servers": 2, "servers": []}');
  const o = await get();
  assert.is(o.totals.servers, 0);
  const errors = o.health.filter((h) => h.level === 'error').map((h) => h.message);
  assert.match(errors.join('\n'), 'servers.json');
});

overview.run();
