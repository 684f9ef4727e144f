// The session page's light views over HTTP (issue 10): the outline agrees with GET /api/sessions/:key call
// for call but carries no payloads; a call's payload is the detail's, and an answer over the 1 MB display
// limit comes cut with its whole size, whole with ?all=1 and as a download; find matches tool names,
// arguments, whole answers and the conversation, ignoring case; events come a page at a time; and every
// endpoint keeps the API's rules (token, 404, 400, 422).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { PAYLOAD_DISPLAY_BYTES } from '../../shared/limits.ts';
import { CallPayloadSchema, SessionEventsSchema, SessionFindSchema, SessionLinesSchema, SessionOutlineSchema } from '../../shared/session-views.ts';
import { SessionDetailSchema } from '../../shared/sessions.ts';
import { bare, launch, type Launched } from '../support/launch.ts';
import { fixtureHome } from '../support/fixtures.ts';
import { holds } from '../support/assert.ts';

const views = suite('session views api');
let c: Launched;

const SERVED = '20260928T020401.117Z-14662';
const BIG = '20261101T000000.000Z-4242';
/** An answer past the display limit, with multi-byte text, and a word only at its very end. */
const BIG_TEXT = `${'résumé ✓ '.repeat(200_000)}needle-at-the-end`;

function bigLog(): string {
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: BIG, started_unix_ms: 1793491200000, server_command: ['big-mcp'], domain: 'big', agent_model: 'agent' },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
    { t_ms: 2, from: 'server', message: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'read_file', annotations: { readOnlyHint: true } }] } } },
    { t_ms: 3, from: 'context', message: { role: 'user', content: 'Read the Whole file, please' } },
    { t_ms: 4, from: 'client', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'notes/BIG.txt' } } } },
    { t_ms: 9, from: 'server', message: { id: 2, jsonrpc: '2.0', result: { content: [{ text: BIG_TEXT, type: 'text' }], isError: false } } },
    { t_ms: 900, from: 'client', message: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'missing "quoted".txt' } } } },
    { t_ms: 905, from: 'server', message: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'No such file: missing "quoted".txt' }], isError: true } } },
    { t_ms: 1900, from: 'client', message: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'slow.txt' } } } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

views.before(async () => {
  c = await launch();
  writeFileSync(join(c.dataDir, 'logs/shop', `${BIG}.jsonl`), bigLog());
});
views.after(async () => {
  await c.stop();
});

async function json<S extends v.GenericSchema>(schema: S, path: string): Promise<v.InferOutput<S>> {
  const res = await c.api(path);
  assert.is(res.status, 200, path);
  return v.parse(schema, await res.json());
}

async function error(path: string, status: number): Promise<string> {
  const res = await c.api(path);
  assert.is(res.status, status, path);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

views('the outline is the detail without payloads or events, call for call', async () => {
  const detail = await json(SessionDetailSchema, `/api/sessions/${SERVED}`);
  const res = await c.api(`/api/sessions/${SERVED}/outline`);
  assert.is(res.status, 200);
  const raw = (await res.json()) as { calls: Record<string, unknown>[] };
  const o = v.parse(SessionOutlineSchema, raw);
  assert.equal(o.summary, detail.summary);
  assert.equal(o.header, detail.header);
  assert.equal(o.tools, detail.tools);
  assert.equal(o.turns, detail.turns);
  assert.equal(o.context, detail.context);
  assert.equal(o.decisions, detail.decisions);
  assert.equal(o.runs, detail.runs);
  assert.equal(o.confirmations, detail.confirmations);
  assert.is(o.events, detail.events.length);
  assert.is(o.display_limit_bytes, PAYLOAD_DISPLAY_BYTES);
  assert.is(o.calls.length, detail.calls.length);
  holds(detail.calls.map((x) => x.by), 'flow', 'the fixture has flow lookups');
  o.calls.forEach((call, n) => {
    const d = detail.calls[n]!;
    assert.is(call.n, n);
    const { arguments: args, result_text, result_json: _, result_truncated: __, ...same } = d;
    assert.equal({ ...same }, { id: call.id, by: call.by, tool: call.tool, kind: call.kind, t_ms: call.t_ms, result_t_ms: call.result_t_ms, latency_ms: call.latency_ms, ok: call.ok, turn: call.turn, after: call.after, decision: call.decision });
    assert.is(call.arguments_bytes, Buffer.byteLength(JSON.stringify(args)));
    assert.is(call.result_bytes, result_text === null ? null : Buffer.byteLength(result_text));
    assert.is(call.result_short === null, result_text === null);
    // No payload crosses in the outline.
    assert.equal(Object.keys(raw.calls[n]!).filter((k) => k === 'arguments' || k.startsWith('result_t') || k === 'result_json'), ['result_t_ms']);
  });
});

views('a call\'s payload is the detail\'s arguments and answer', async () => {
  const detail = await json(SessionDetailSchema, `/api/sessions/${SERVED}`);
  for (let n = 0; n < detail.calls.length; n++) {
    const d = detail.calls[n]!;
    const p = await json(CallPayloadSchema, `/api/sessions/${SERVED}/calls/${n}`);
    assert.is(p.n, n);
    assert.is(p.id, d.id);
    assert.is(p.tool, d.tool);
    assert.equal(p.arguments, d.arguments);
    if (d.result_t_ms === null) {
      assert.is(p.result, null);
      continue;
    }
    assert.is(p.result!.error, d.ok === false);
    assert.is(p.result!.text, d.result_text);
    assert.equal(p.result!.json, d.result_json);
    assert.is(p.result!.cut, false);
  }
});

views('an answer over the display limit comes cut with its size; ?all=1 and the download give all of it', async () => {
  const o = await json(SessionOutlineSchema, `/api/sessions/${BIG}/outline`);
  const size = Buffer.byteLength(BIG_TEXT);
  assert.ok(size > PAYLOAD_DISPLAY_BYTES * 2);
  assert.equal(o.calls.map((x) => [x.tool, x.ok, x.result_bytes]), [['read_file', true, size], ['read_file', false, 34], ['read_file', null, null]]);
  assert.is(o.calls[0]!.result_short, `${'résumé ✓ '.repeat(13)}rés…`);

  const cut = await json(CallPayloadSchema, `/api/sessions/${BIG}/calls/0`);
  assert.equal(cut.arguments, { path: 'notes/BIG.txt' });
  assert.is(cut.result!.cut, true);
  assert.is(cut.result!.bytes, size);
  assert.is(cut.result!.json, null);
  const shown = Buffer.byteLength(cut.result!.text);
  assert.ok(shown <= PAYLOAD_DISPLAY_BYTES, String(shown));
  assert.ok(shown > PAYLOAD_DISPLAY_BYTES - 4, String(shown));
  assert.is(BIG_TEXT.startsWith(cut.result!.text), true);

  const all = await json(CallPayloadSchema, `/api/sessions/${BIG}/calls/0?all=1`);
  assert.is(all.result!.cut, false);
  assert.is(all.result!.text, BIG_TEXT);

  const dl = await c.api(`/api/sessions/${BIG}/calls/0/result`);
  assert.is(dl.status, 200);
  assert.is(dl.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.is(dl.headers.get('content-disposition'), `attachment; filename="${BIG}-call-2.txt"`);
  assert.is(dl.headers.get('cache-control'), 'no-store');
  assert.is(await dl.text(), BIG_TEXT);

  const failed = await json(CallPayloadSchema, `/api/sessions/${BIG}/calls/1`);
  assert.equal(failed.result, { error: true, text: 'No such file: missing "quoted".txt', json: null, bytes: 34, cut: false });
  assert.is((await json(CallPayloadSchema, `/api/sessions/${BIG}/calls/2`)).result, null);
  assert.match(await error(`/api/sessions/${BIG}/calls/2/result`, 404), /call 2 got no answer/);

  // The spec's detail is unchanged: its result is cut at 64 KiB.
  const detail = await json(SessionDetailSchema, `/api/sessions/${BIG}`);
  assert.is(detail.calls[0]!.result_truncated, true);
  assert.is(Buffer.byteLength(detail.calls[0]!.result_text!) <= 64 * 1024, true);
});

views('find matches tool names, arguments, whole answers and the conversation, ignoring case', async () => {
  const find = (q: string) => json(SessionFindSchema, `/api/sessions/${BIG}/find?q=${encodeURIComponent(q)}`);
  assert.equal((await find('READ_FILE')).matches, [0, 1, 2].map((n) => ({ kind: 'call', n, fields: ['tool'] })));
  // Past the 64 KiB the detail keeps and past the 1 MB the page shows.
  assert.equal((await find('Needle-At-The-End')).matches, [{ kind: 'call', n: 0, fields: ['result'] }]);
  assert.equal((await find('big.TXT')).matches, [{ kind: 'call', n: 0, fields: ['arguments'] }]);
  assert.equal((await find('"quoted"')).matches, [{ kind: 'call', n: 1, fields: ['arguments', 'result'] }]);
  assert.equal((await find('RÉSUMÉ ✓')).matches, [{ kind: 'call', n: 0, fields: ['result'] }]);
  assert.equal((await find('whole file')).matches, [{ kind: 'message', index: 0, fields: ['text'] }]);
  assert.equal(await find('nowhere in it'), { q: 'nowhere in it', matches: [] });
  assert.match(await error(`/api/sessions/${BIG}/find`, 400), /q: the text to find is missing/);
  assert.match(await error(`/api/sessions/${BIG}/find?q=%20`, 400), /q: the text to find is missing/);
  assert.match(await error(`/api/sessions/${BIG}/find?q=${'x'.repeat(201)}`, 400), /q: at most 200 characters/);
});

views('events come a page at a time, as the detail has them', async () => {
  const detail = await json(SessionDetailSchema, `/api/sessions/${SERVED}`);
  const first = await json(SessionEventsSchema, `/api/sessions/${SERVED}/events?limit=5`);
  assert.equal(first, { total: detail.events.length, offset: 0, items: detail.events.slice(0, 5) });
  const rest = await json(SessionEventsSchema, `/api/sessions/${SERVED}/events?offset=5`);
  assert.equal(rest.items, detail.events.slice(5, 205));
  assert.is((await json(SessionEventsSchema, `/api/sessions/${SERVED}/events?limit=5000`)).items.length, Math.min(detail.events.length, 1000));
  assert.equal((await json(SessionEventsSchema, `/api/sessions/${SERVED}/events?offset=99999`)).items, []);
  assert.match(await error(`/api/sessions/${SERVED}/events?limit=0`, 400), /limit: at least 1/);
  assert.match(await error(`/api/sessions/${SERVED}/events?offset=-1`, 400), /offset: a whole number/);
});

views('the log\'s lines come a page at a time, numbered from 1, a long one cut at 64 KiB with its size', async () => {
  const text = readFileSync(join(fixtureHome, `served/shop/${SERVED}.jsonl`), 'utf8');
  const want = text.split('\n').slice(0, -1);
  const all = await json(SessionLinesSchema, `/api/sessions/${SERVED}/lines?limit=1000`);
  assert.is(all.total, want.length);
  assert.equal(all.items.map((l) => [l.n, l.text, l.bytes, l.cut]), want.map((t, i) => [i + 1, t, Buffer.byteLength(t), false]));
  const page = await json(SessionLinesSchema, `/api/sessions/${SERVED}/lines?offset=3&limit=2`);
  assert.equal(page, { total: want.length, offset: 3, items: all.items.slice(3, 5) });

  const big = await json(SessionLinesSchema, `/api/sessions/${BIG}/lines?offset=5&limit=1`);
  const line = bigLog().split('\n')[5]!;
  assert.is(big.total, 9);
  assert.is(big.items[0]!.n, 6);
  assert.is(big.items[0]!.cut, true);
  assert.is(big.items[0]!.bytes, Buffer.byteLength(line));
  assert.is(line.startsWith(big.items[0]!.text), true);
  const bigBytes = Buffer.byteLength(big.items[0]!.text);
  assert.ok(bigBytes <= 64 * 1024, String(bigBytes));
  assert.ok(bigBytes > 64 * 1024 - 4, String(bigBytes));
  assert.match(await error(`/api/sessions/${BIG}/lines?limit=0`, 400), /limit: at least 1/);
});

views('bad input, unknown sessions and calls, unreadable logs, and no token', async () => {
  const paths = ['outline', 'calls/0', 'calls/0/result', 'find?q=x', 'events', 'lines'];
  for (const p of paths) {
    assert.match(await error(`/api/sessions/nope/${p}`, 404), /no session "nope"/);
    const res = await bare(c, `/api/sessions/${SERVED}/${p}`);
    assert.is(res.status, 401, p);
  }
  assert.match(await error(`/api/sessions/${SERVED}/calls/999`, 404), /^no call 999: this session has \d+/);
  assert.match(await error(`/api/sessions/${SERVED}/calls/x`, 400), /call: a whole number/);
  assert.match(await error(`/api/sessions/${SERVED}/calls/0?all=yes`, 400), /all: 1 for the whole answer/);
  writeFileSync(join(c.dataDir, 'logs/shop/broken.jsonl'), '{"not":"a session"}\n');
  assert.match(await error('/api/sessions/broken/outline', 422), /^logs\/shop\/broken\.jsonl is not a session log engine can read: /);
  assert.is((await c.api('/api/sessions/broken/find?q=x')).status, 422);
});

views.run();
