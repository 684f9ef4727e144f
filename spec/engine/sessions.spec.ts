// The session-log reader against session-format.md §7's worked examples on the fixture home, and against
// logs that are not session logs (written to temp dirs here).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionDetailSchema, SessionSummarySchema, type SessionSummary } from '../../shared/sessions.ts';
import { publicSummary, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { generateHome } from '../../scripts/synth/home.ts';
import { fixtureHome, referenceDir, tempDir } from '../support/fixtures.ts';
import { filesAt, fixtureSessions } from './session-files.ts';
import { endsWith } from '../support/assert.ts';

/** A summary without the optional extra `surprised` (ERRATA S1) and the list's `tools_called`. */
function core(s: SessionSummary): Omit<SessionSummary, 'surprised'> {
  const { surprised: _, ...rest } = publicSummary(s);
  return rest;
}

/** The expected SessionDetail of §7.1, read from the reference page itself. */
function expected71(): Record<string, unknown> {
  const page = readFileSync(join(referenceDir, 'session-format.md'), 'utf8');
  const at = page.indexOf('**Expected `SessionDetail`**');
  const start = page.indexOf('```json', at) + '```json'.length;
  const end = page.indexOf('```', start);
  return JSON.parse(page.slice(start, end)) as Record<string, unknown>;
}

const upstream = { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'] };
const SERVED = 'served/shop/20260928T020401.117Z-14662.jsonl';
const RECORDED = 'logs/shop/20260928T020400.548Z-14457.jsonl';
const RETAIL = 'logs/retail/20260928T020401.312Z-14780.jsonl';
const SHADOW = 'shadow/shop/20260928T020401.240Z-14750.jsonl';

const sessions = suite('sessions');

sessions('the served session of §7.1 gives the expected detail, every section and field in order', () => {
  const got = sessionDetail(filesAt(fixtureHome, SERVED));
  const want = expected71();
  const { surprised: _a, ...gotSummary } = got.summary;
  const { surprised: _b, ...wantSummary } = want.summary as SessionSummary;
  assert.equal(gotSummary, wantSummary);
  assert.equal(Object.keys(got), Object.keys(want));
  for (const section of Object.keys(want)) {
    if (section === 'summary') continue;
    assert.equal(JSON.parse(JSON.stringify((got as Record<string, unknown>)[section])), want[section], section);
  }
  // Field order inside each part is the reference's.
  assert.equal(Object.keys(got.calls[0]!), Object.keys((want.calls as object[])[0]!));
  assert.equal(Object.keys(got.decisions[0]!), Object.keys((want.decisions as object[])[0]!));
  assert.equal(Object.keys(got.events[0]!), Object.keys((want.events as object[])[0]!));
  assert.equal(Object.keys(got.tools[0]!), Object.keys((want.tools as object[])[0]!));
});

sessions('the served session counts its flow lookups, hand-backs and turns (§7.1 key values)', () => {
  const d = sessionDetail(filesAt(fixtureHome, SERVED));
  const s = d.summary;
  assert.is(s.mode, 'served');
  assert.is(s.agent, 'quickstart');
  assert.is(s.duration_ms, 614);
  assert.equal([s.tool_calls, s.llm_turns, s.errors, s.flow_lookups, s.hand_backs, s.shadow_lookups, s.writes], [2, 4, 0, 3, 2, 0, 1]);
  assert.is(s.size_bytes, 5492);
  const lookups = d.calls.filter((c) => c.by === 'flow');
  assert.equal(lookups.map((c) => [c.id, c.after, c.turn, c.decision]), [
    ['engine-1', '3', null, 0],
    ['engine-2', '3', null, 1],
    ['engine-3', '3', null, 2],
  ]);
  for (const c of lookups) {
    const decision = d.decisions[c.decision!]!;
    assert.is(decision.action, 'lookup');
    assert.is(decision.tool, c.tool);
    assert.equal(decision.arguments, c.arguments);
  }
  const copy = d.events[14]!;
  assert.equal([copy.from, copy.kind, copy.method, copy.id], ['proxy', 'response', 'tools/call', '3']);
  assert.match(copy.summary, 'Also looked up');
  endsWith(copy.summary, '"payment_me…');
  assert.is([...copy.summary].length, 201);
});

sessions('the recorded session of §7.2 has one turn per call plus the agent’s two messages', () => {
  const d = sessionDetail(filesAt(fixtureHome, RECORDED));
  assert.equal(core(d.summary), {
    key: '20260928T020400.548Z-14457', path: RECORDED, session_id: '20260928T020400.548Z-14457', domain: 'shop',
    agent: 'quickstart', started_unix_ms: 1790561040548, duration_ms: 2410, mode: 'recorded', tool_calls: 5,
    llm_turns: 7, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 1, upstream,
    size_bytes: 4460, has_flow_log: false, has_confirm_log: false,
  });
  assert.equal(d.turns.map((t) => [t.start_ms, t.end_ms, t.calls]), [
    [9, 9, ['3']], [609, 609, ['4']], [1209, 1209, ['5']], [1809, 1809, ['6']], [1814, 1814, []], [2409, 2409, ['7']], [2410, 2410, []],
  ]);
  assert.equal(d.calls.map((c) => [c.by, c.ok, c.latency_ms, c.turn, c.kind]), [
    ['agent', true, 0, 0, 'read'], ['agent', true, 0, 1, 'read'], ['agent', true, 0, 2, 'read'],
    ['agent', true, 0, 3, 'read'], ['agent', true, 0, 5, 'write'],
  ]);
  assert.is(d.calls[0]!.result_text, 'user_1');
  assert.equal((d.calls[1]!.result_json as { orders: string[] }).orders, ['#W1a', '#W1b']);
  assert.equal(d.tools.map((t) => [t.name, t.kind, t.read_only_hint, t.contract]), [
    ['cancel_pending_order', 'write', false, 'order_id:string!, reason:string!'],
    ['find_user_id_by_email', 'read', true, 'email:string!'],
    ['get_order_details', 'read', true, 'order_id:string!'],
    ['get_user_details', 'read', true, 'user_id:string!'],
  ]);
  assert.is(d.context.length, 4);
  assert.is(d.context[0]!.role, 'user');
  assert.is(d.events.length, 19);
  assert.is(d.events.find((e) => e.kind === 'response' && e.method === 'tools/call')!.summary, 'user_1');
  assert.is((d.header as { engine_mcp_log: number }).engine_mcp_log, 2);
  assert.equal([d.decisions, d.runs, d.confirmations, d.truncated], [[], [], [], false]);
});

sessions('the retail session of §7.3 has a failed first call and one confirmation', () => {
  const d = sessionDetail(filesAt(fixtureHome, RETAIL));
  assert.equal(core(d.summary), {
    key: '20260928T020401.312Z-14780', path: RETAIL, session_id: '20260928T020401.312Z-14780', domain: 'retail',
    agent: 'fixtures', started_unix_ms: 1790561041312, duration_ms: 2405, mode: 'recorded', tool_calls: 5,
    llm_turns: 7, errors: 1, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 1, upstream,
    size_bytes: 4314, has_flow_log: false, has_confirm_log: true,
  });
  const first = d.calls[0]!;
  assert.equal([first.ok, first.result_text, first.turn], [false, 'Error: User not found', 0]);
  const failed = d.events.find((e) => e.id === '3' && e.from === 'server')!;
  assert.equal([failed.kind, failed.method, failed.summary], ['error', 'tools/call', 'Error: User not found']);
  assert.equal([d.calls[1]!.t_ms, d.calls[1]!.result_t_ms, d.calls[1]!.latency_ms, d.calls[1]!.result_text], [604, 605, 1, 'user_61']);
  assert.equal(d.calls.map((c) => c.turn), [0, 1, 2, 3, 5]);
  assert.equal(d.turns.map((t) => [t.start_ms, t.end_ms, t.calls]), [
    [4, 4, ['3']], [604, 605, ['4']], [1205, 1205, ['5']], [1805, 1805, ['6']], [1806, 1806, []], [2405, 2405, ['7']], [2405, 2405, []],
  ]);
  assert.equal(d.context.map((m) => [m.t_ms, m.role]), [[3, 'user'], [1806, 'assistant'], [1806, 'user'], [2405, 'assistant']]);
  assert.is(d.events.length, 19);
  assert.equal(d.confirmations, [
    {
      arguments: { order_id: '#W61a', reason: 'ordered by mistake' }, enforced: false, fails: false,
      key: '69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5', ms: 0, p_yes: 0.5,
      proposal_check: [], tool: 'cancel_pending_order', unknown: false, word_list: true,
    },
  ]);
  assert.equal(Object.keys(d.confirmations[0] as object), Object.keys(d.confirmations[0] as object).sort());
});

sessions('the shadow session of §7.4 counts shadow lookups but no hand-backs and pairs no call', () => {
  const d = sessionDetail(filesAt(fixtureHome, SHADOW));
  assert.equal(core(d.summary), {
    key: '20260928T020401.240Z-14750', path: SHADOW, session_id: '20260928T020401.240Z-14750', domain: 'shop',
    agent: 'fixtures', started_unix_ms: 1790561041240, duration_ms: 2404, mode: 'shadow', tool_calls: 5,
    llm_turns: 7, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 3, writes: 1, upstream,
    size_bytes: 4480, has_flow_log: true, has_confirm_log: false,
  });
  assert.is(d.decisions.length, 5);
  assert.equal(d.decisions.map((x) => x.shadow), [true, true, true, true, true]);
  assert.equal(d.decisions.map((x) => [x.action, x.after]), [
    ['lookup', '3'], ['lookup', '4'], ['lookup', '5'], ['hand_back', '6'], ['hand_back', '7'],
  ]);
  assert.is(d.runs.length, 5);
  for (const r of d.runs) {
    assert.equal(r.sites, [['decide#0', 0, 0]]);
    assert.ok(Object.is(r.surprise, -0));
  }
  assert.equal(d.calls.map((c) => [c.decision, c.by]), d.calls.map(() => [null, 'agent']));
});

sessions('the summary path agrees with the detail’s summary on every fixture session', () => {
  for (const files of fixtureSessions()) {
    const fast = sessionSummary(files);
    assert.equal(publicSummary(fast), sessionDetail(files).summary, files.rel);
    assert.ok(v.is(SessionSummarySchema, fast), files.rel);
  }
});

sessions('every fixture session has one event per entry line, and its detail fits the shared schema', () => {
  for (const files of fixtureSessions()) {
    const lines = readFileSync(files.path, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    const d = sessionDetail(files);
    assert.is(d.events.length, lines - 1, files.rel);
    const parsed = v.safeParse(SessionDetailSchema, d);
    assert.ok(parsed.success, `${files.rel}: ${parsed.issues?.[0]?.message ?? ''}`);
  }
});

sessions('on 300 generated sessions the summary path agrees with the detail and finds the mode they were made in', async () => {
  const temp = tempDir('engine-synth-');
  try {
    const home = await generateHome({ dir: temp.dir, sessions: 300, seed: 11 });
    const modes = new Set<string>();
    for (const s of home.sessions) {
      const files = filesAt(temp.dir, s.rel);
      const d = sessionDetail(files);
      assert.equal(publicSummary(sessionSummary(files)), d.summary, s.rel);
      assert.is(d.summary.mode, s.mode, s.rel);
      assert.is(d.summary.domain, s.domain, s.rel);
      modes.add(s.mode);
    }
    assert.is(modes.size, 3);
  } finally {
    temp.cleanup();
  }
});

sessions('the summary carries the tools called, which the wire summary leaves out', () => {
  const s = sessionSummary(filesAt(fixtureHome, SERVED));
  assert.equal([...s.tools_called].sort(), ['cancel_pending_order', 'find_user_id_by_email', 'get_order_details', 'get_user_details']);
  assert.not.ok('tools_called' in publicSummary(s));
});

sessions.run();
