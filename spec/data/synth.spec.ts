import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateHome, type GeneratedHome } from '../../scripts/synth/home.ts';
import { buildCatalog } from '../../server/data/catalog.ts';
import { parseRegistry, plainEntry, validateInput } from '../../server/data/registry.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { compare, parseState } from '../../server/engine/stage.ts';
import { publicSummary, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { ServerInputSchema } from '../../shared/servers.ts';
import { SessionDetailSchema, SessionSummarySchema } from '../../shared/sessions.ts';
import { tempDir } from '../support/fixtures.ts';

const synth = suite('synthetic data directory');

const NOW = Date.UTC(2026, 10, 22);
const home = tempDir('engine-synth-');
let generated: GeneratedHome;

synth.before(async () => {
  generated = await generateHome({ dir: home.dir, sessions: 30, seed: 11, nowMs: NOW, big: [1] });
});
synth.after(() => home.cleanup());

function filesUnder(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) out.push(...filesUnder(dir, r));
    else out.push(r);
  }
  return out;
}

synth('the scan finds every generated session, and the engine reads each to the mode and domain it was written as', () => {
  const catalog = buildCatalog(home.dir);
  const expected = new Map(generated.sessions.map((s) => [s.rel, s]));
  for (const b of generated.big) expected.set(b.rel, { rel: b.rel, id: b.id, domain: 'retail', mode: 'recorded', startedMs: 0, flowLog: null, confirmLog: null });
  assert.equal(catalog.sessions.map((s) => s.rel).sort(), [...expected.keys()].sort());

  const byMode: Record<string, number> = {};
  const byDomain: Record<string, number> = {};
  for (const file of catalog.sessions) {
    if (generated.big.some((b) => b.rel === file.rel)) continue;
    const summary = publicSummary(sessionSummary(file));
    const parsed = v.safeParse(SessionSummarySchema, summary);
    assert.ok(parsed.success, `${file.rel}: ${parsed.issues?.[0]?.message ?? ''}`);
    const want = expected.get(file.rel)!;
    assert.is(summary.mode, want.mode, file.rel);
    assert.is(summary.domain, want.domain, file.rel);
    assert.is(summary.session_id, want.id);
    assert.is(summary.has_flow_log, want.flowLog !== null);
    assert.is(summary.has_confirm_log, want.confirmLog !== null);
    byMode[summary.mode] = (byMode[summary.mode] ?? 0) + 1;
    byDomain[summary.domain ?? ''] = (byDomain[summary.domain ?? ''] ?? 0) + 1;
  }
  assert.equal(byMode, Object.fromEntries(Object.entries(generated.byMode).filter(([, n]) => n > 0)));
  assert.equal(byDomain, Object.fromEntries(Object.entries(generated.byDomain).filter(([, n]) => n > 0)));
});

synth('thirty sessions cover every mode and every domain', () => {
  for (const [mode, n] of Object.entries(generated.byMode)) assert.ok(n > 0, `no ${mode} session`);
  for (const [domain, n] of Object.entries(generated.byDomain)) assert.ok(n > 0, `no ${domain} session`);
  assert.ok(generated.sessions.some((s) => s.confirmLog !== null), 'no confirmation log');
});

synth("every session's detail reads, and each of the flow's lookups carries the decision that made it", () => {
  const catalog = buildCatalog(home.dir);
  let lookups = 0;
  for (const file of catalog.sessions) {
    if (generated.big.some((b) => b.rel === file.rel)) continue;
    const detail = sessionDetail(file);
    assert.ok(v.safeParse(SessionDetailSchema, detail).success, file.rel);
    assert.ok(detail.turns.length > 0, `${file.rel} has no turn`);
    for (const call of detail.calls.filter((c) => c.by === 'flow')) {
      lookups += 1;
      assert.is.not(call.decision, null, `${file.rel}: lookup ${call.id} has no decision`);
      assert.is(detail.decisions[call.decision!]?.tool, call.tool);
    }
  }
  assert.ok(lookups > 0, 'no served session made a lookup');
});

synth('the flows load, except the one written in a format this build cannot read', () => {
  const names = readdirSync(home.dir).filter((n) => n.endsWith('.flow.json')).sort();
  assert.equal(names, generated.flows.map((f) => f.rel).sort());
  for (const f of generated.flows) {
    const text = readFileSync(join(home.dir, f.rel), 'utf8');
    if (f.loads) {
      const flow = loadFlow(text);
      assert.is(flow.domain, f.domain);
      assert.ok(flow.sites.next.length > 0, `${f.rel} has no site`);
    } else {
      assert.throws(() => loadFlow(text), /flow format 7 is not supported/);
    }
  }
  assert.ok(loadFlow(readFileSync(join(home.dir, 'shop.promoted.flow.json'), 'utf8')).promoted !== null);
});

synth('the staged shop flow loads and its state reads, its last comparison being that of its ledger', () => {
  assert.equal(generated.warnings, []);
  const staged = loadFlow(readFileSync(join(home.dir, 'shop.staged.flow.json'), 'utf8'));
  const state = parseState(readFileSync(join(home.dir, 'shop.stage.json'), 'utf8'), 'shop.stage.json');
  assert.is(state.domain, 'shop');
  assert.ok(state.last);
  assert.is(state.last.learned_unix_ms, staged.provenance.compiled_unix_ms);
  const again = compare(state, 50, true);
  assert.equal(state.last.sites, again.sites);
  assert.equal(state.last.total, again.total);
  assert.ok(state.last.changes.length > 0, 'committing would change nothing');
  const shopIds = new Set(generated.sessions.filter((x) => x.domain === 'shop').map((x) => x.id));
  for (const id of state.sessions) assert.ok(shopIds.has(id), id);
});

synth("the registry reads as the console's and each entry passes the console's checks", () => {
  const registry = parseRegistry(readFileSync(join(home.dir, 'servers.json'), 'utf8'));
  assert.ok(registry.servers.length >= 3);
  for (const entry of registry.servers) {
    const input = v.parse(ServerInputSchema, plainEntry(entry));
    assert.is(validateInput(input, { dataDir: home.dir, home: null }), null, entry.name);
  }
});

synth('a big log is about the size asked for and reads as one recorded session with every call', () => {
  const [big] = generated.big;
  assert.ok(big);
  const size = statSync(join(home.dir, big.rel)).size;
  assert.ok(size >= 1024 * 1024, `size ${size}`);
  assert.ok(size < 1.6 * 1024 * 1024, `size ${size}`);
  const file = buildCatalog(home.dir).sessions.find((s) => s.rel === big.rel)!;
  const summary = sessionSummary(file);
  assert.is(summary.mode, 'recorded');
  assert.is(summary.tool_calls, big.calls);
  assert.is(summary.errors, 0);
});

synth('the same seed and now write the same files, byte for byte', async () => {
  const again = tempDir('engine-synth-');
  try {
    await generateHome({ dir: again.dir, sessions: 30, seed: 11, nowMs: NOW, big: [1] });
    const files = filesUnder(home.dir);
    assert.equal(filesUnder(again.dir), files);
    for (const f of files) assert.ok(readFileSync(join(again.dir, f)).equals(readFileSync(join(home.dir, f))), f);
  } finally {
    again.cleanup();
  }
});

synth('a directory that already holds files is refused', async () => {
  try {
    await generateHome({ dir: home.dir, sessions: 1 });
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /is not empty/);
  }
});

synth.run();
