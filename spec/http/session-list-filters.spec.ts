// The sessions list's filters beyond the spec, over HTTP on a temp copy of the fixture home: agent, a tool
// called, has= (errors, surprised, tool calls, lookups, shadow decisions) and since, each alone and combined
// with the others, the domain, the mode and the date range; the matches' sums; bad values are 400.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { SessionListSchema, type SessionSummary } from '../../shared/sessions.ts';
import { SessionOutlineSchema } from '../../shared/session-views.ts';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const filters = suite('sessions list filters');
let c: Launched;
let home: { dir: string; cleanup: () => void };
/** Every session, and the tools each called (from its outline), to count the expected matches. */
let all: SessionSummary[] = [];
const toolsOf = new Map<string, Set<string>>();
const SURPRISED = '20260928T020401.195Z-14715';

filters.before(async () => {
  home = copyHome();
  // A hand-back of the flow's surprise gate makes one served session "surprised".
  const flowLog = join(home.dir, `served/shop/${SURPRISED}.flow.jsonl`);
  const handBack = { action: 'hand_back', address: 'decide#9', after: 3, binding: null, key: null, ms: 0, oracle: {}, predicates: {}, prob: null, probs: {}, reason: 'the session surprised the flow (4.2 nats)', site: 'get_order_details' };
  if (!readFileSync(flowLog, 'utf8').endsWith('\n')) appendFileSync(flowLog, '\n');
  appendFileSync(flowLog, `${JSON.stringify(handBack)}\n`);
  c = await launch({ dataDir: home.dir });
  all = (await list('?limit=500')).items;
  for (const s of all) {
    const outline = v.parse(SessionOutlineSchema, await (await c.api(`/api/sessions/${s.key}/outline`)).json());
    toolsOf.set(s.key, new Set(outline.calls.map((x) => x.tool)));
  }
});
filters.after(async () => {
  await c.stop();
  home.cleanup();
});

async function list(query: string) {
  const res = await c.api(`/api/sessions${query}`);
  assert.is(res.status, 200, query);
  return v.parse(SessionListSchema, await res.json());
}

const keys = (items: readonly SessionSummary[]) => items.map((s) => s.key).sort();
async function expectMatches(query: string, keep: (s: SessionSummary) => boolean) {
  const got = await list(`${query}&limit=500`);
  const want = all.filter(keep);
  assert.ok(want.length < all.length, `${query} leaves some out`);
  assert.is(got.total, want.length, query);
  assert.equal(keys(got.items), keys(want), query);
  return got;
}

const day = (s: SessionSummary) => new Date(s.started_unix_ms).toISOString().slice(0, 10);

filters('agent: exact name; combined with the domain and the mode', async () => {
  assert.ok(new Set(all.map((s) => s.agent)).size > 1, 'the fixture has more than one agent');
  await expectMatches('?agent=fixtures', (s) => s.agent === 'fixtures');
  await expectMatches('?agent=quickstart&mode=served', (s) => s.agent === 'quickstart' && s.mode === 'served');
  await expectMatches('?agent=fixtures&domain=shop', (s) => s.agent === 'fixtures' && s.domain === 'shop');
  assert.is((await list('?agent=Fixtures')).total, 0, 'exact, not a part or another case');
});

/** A tool some sessions called and others did not. */
const someTool = () => [...new Set([...toolsOf.values()].flatMap((t) => [...t]))].sort().find((t) => all.some((s) => !toolsOf.get(s.key)!.has(t)))!;

filters('tool: sessions that called it, the flow’s lookups included; combined with the agent', async () => {
  const tool = someTool();
  await expectMatches(`?tool=${tool}`, (s) => toolsOf.get(s.key)!.has(tool));
  await expectMatches(`?tool=${tool}&agent=quickstart`, (s) => toolsOf.get(s.key)!.has(tool) && s.agent === 'quickstart');
  assert.is((await list(`?tool=${tool.slice(0, -1)}`)).total, 0, 'a whole tool name');
});

filters('has=errors and has=surprised, alone and together with other filters', async () => {
  await expectMatches('?has=errors', (s) => s.errors > 0);
  await expectMatches('?has=surprised', (s) => s.surprised === true);
  assert.equal(keys((await list('?has=surprised')).items), [SURPRISED]);
  await expectMatches('?has=errors,tool_calls', (s) => s.errors > 0 && s.tool_calls > 0);
  assert.is((await list('?has=errors,surprised')).total, all.filter((s) => s.errors > 0 && s.surprised === true).length);
  await expectMatches('?has=surprised&domain=shop&mode=served', (s) => s.surprised === true && s.domain === 'shop' && s.mode === 'served');
});

filters('each filter combines with the date range and since', async () => {
  const first = all[all.length - 1]!;
  const d = day(first);
  await expectMatches(`?has=errors&from=${d}&to=${d}`, (s) => s.errors > 0 && day(s) === d);
  await expectMatches(`?agent=quickstart&from=${d}&to=${d}`, (s) => s.agent === 'quickstart' && day(s) === d);
  const mid = all[Math.floor(all.length / 2)]!.started_unix_ms;
  await expectMatches(`?since=${mid}`, (s) => s.started_unix_ms >= mid);
  const tool = someTool();
  await expectMatches(`?since=${mid}&tool=${tool}`, (s) => s.started_unix_ms >= mid && toolsOf.get(s.key)!.has(tool));
  assert.is((await list('?has=errors&from=2020-01-01&to=2020-01-02')).total, 0);
});

filters('the sums are the matches’: tool calls, lookups and shadow decisions', async () => {
  const served = await list('?mode=served&has=flow_lookups');
  const want = all.filter((s) => s.mode === 'served' && s.flow_lookups > 0);
  assert.equal(served.sums, {
    tool_calls: want.reduce((n, s) => n + s.tool_calls, 0),
    flow_lookups: want.reduce((n, s) => n + s.flow_lookups, 0),
    shadow_decisions: served.sums!.shadow_decisions,
  });
  const overview = (await (await c.api('/api/overview')).json()) as { totals: { tool_calls: number; flow_lookups: number; shadow_decisions: number } };
  const every = await list('');
  assert.equal(every.sums, { tool_calls: overview.totals.tool_calls, flow_lookups: overview.totals.flow_lookups, shadow_decisions: overview.totals.shadow_decisions });
  assert.is((await list('?has=shadow_decisions')).sums!.shadow_decisions, overview.totals.shadow_decisions);
});

filters('bad values are 400 with the field named', async () => {
  for (const [q, field] of [['?has=nothing', /^has "nothing": expected/], ['?has=errors,,', /^has/], ['?since=yesterday', /^since:/], ['?since=-5', /^since:/]] as const) {
    const res = await c.api(`/api/sessions${q}`);
    assert.is(res.status, 400, q);
    assert.match(v.parse(ErrorBodySchema, await res.json()).error, field, q);
  }
});

filters.run();
