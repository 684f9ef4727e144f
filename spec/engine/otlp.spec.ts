// The session → OTLP mapping on every fixture session: each export decodes with the OTLP definitions (as
// protobuf and as JSON, to the same spans) and holds to its log; ids are the same on every export; the
// flow's decisions ride on the calls they followed; arguments and results appear only when asked for.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionTrace } from '../../server/engine/otlp/spans.ts';
import { readableSpans } from '../../server/engine/otlp/readable.ts';
import { otlpJson, otlpProtobuf } from '../../server/engine/otlp/encode.ts';
import { traceIdOf } from '../../server/engine/otlp/ids.ts';
import { fixtureHome, tempDir } from '../support/fixtures.ts';
import { decodeJson, decodeProtobuf, holdToSession, withoutPayloads, type PlainExport } from '../support/otlp-decode.ts';

const otlp = suite('engine: sessions as OTLP');

function sessionLogs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sessionLogs(p);
    return e.name.endsWith('.jsonl') && !e.name.endsWith('.flow.jsonl') && !e.name.endsWith('.confirm.jsonl') ? [p] : [];
  });
}
const logs = sessionLogs(fixtureHome);
const filesOf = (path: string) => {
  const flow = path.replace(/\.jsonl$/, '.flow.jsonl');
  return { path, flowLog: existsSync(flow) ? flow : null };
};
const exportOf = (path: string, payloads = false) => readableSpans(sessionTrace(filesOf(path), { payloads, version: '9.9.9' }));
const spansOf = (out: PlainExport) => out.resources.flatMap((r) => r.spans);

otlp('every fixture session decodes as protobuf and as JSON to the same spans, which hold to its log', () => {
  assert.ok(logs.length >= 12, `found ${logs.length} fixture sessions`);
  for (const path of logs) {
    const spans = exportOf(path);
    const fromProtobuf = decodeProtobuf(otlpProtobuf(spans));
    const fromJson = decodeJson(Buffer.from(otlpJson(spans)).toString('utf8'));
    holdToSession(fromProtobuf, path);
    assert.equal(fromJson, fromProtobuf, path);
  }
});

otlp('every fixture session exports without payloads as it does with them, less their attributes (every line parsed)', () => {
  for (const path of logs) {
    assert.equal(decodeProtobuf(otlpProtobuf(exportOf(path))), withoutPayloads(decodeProtobuf(otlpProtobuf(exportOf(path, true)))), path);
  }
});

otlp('the same session exports to the same trace and span ids every time, from its session id', () => {
  for (const path of logs) {
    const a = spansOf(decodeProtobuf(otlpProtobuf(exportOf(path))));
    const b = spansOf(decodeProtobuf(otlpProtobuf(exportOf(path, true))));
    assert.equal(a.map((s) => [s.traceId, s.spanId, s.parentSpanId]), b.map((s) => [s.traceId, s.spanId, s.parentSpanId]));
  }
  const served = join(fixtureHome, 'served/shop/20260928T020401.117Z-14662.jsonl');
  assert.is(spansOf(decodeProtobuf(otlpProtobuf(exportOf(served))))[0]!.traceId, traceIdOf('20260928T020401.117Z-14662'));
  assert.is.not(traceIdOf('20260928T020401.117Z-14662'), traceIdOf('20260928T020401.195Z-14715'));
});

otlp('a served session: the resource names domain, agent, mode and version; lookups are children of the call they followed', () => {
  const path = join(fixtureHome, 'served/shop/20260928T020401.117Z-14662.jsonl');
  const [res] = decodeProtobuf(otlpProtobuf(exportOf(path))).resources;
  assert.equal(
    [res!.attributes['engine.domain'], res!.attributes['engine.agent'], res!.attributes['engine.mode'], res!.attributes['service.version']],
    ['shop', 'quickstart', 'served', '9.9.9'],
  );
  const spans = res!.spans;
  const first = spans.find((s) => s.name === 'tools/call find_user_id_by_email')!;
  const decisions = first.events.filter((e) => e.name === 'engine.decision');
  assert.ok(decisions.length > 0, 'the decisions after the first call are its events');
  assert.equal(Object.keys(decisions[0]!.attributes).sort(), ['engine.address', 'engine.binding', 'engine.decision', 'engine.lookup.tool', 'engine.probability', 'engine.shadow', 'engine.site']);
  assert.is(decisions[0]!.attributes['engine.shadow'], false);
  const lookups = spans.filter((s) => s.attributes['engine.call.by'] === 'proxy');
  assert.ok(lookups.length > 0);
  for (const l of lookups) assert.is(l.parentSpanId, first.spanId, l.name);
  assert.is(first.attributes['network.transport'], 'pipe');
  assert.is(first.attributes['mcp.protocol.version'], '2025-06-18');
  const turn = spans.find((s) => s.spanId === first.parentSpanId)!;
  assert.is(turn.name, 'turn 0');
});

otlp('arguments, results and the conversation only when asked for', () => {
  const path = join(fixtureHome, 'served/shop/20260928T020401.117Z-14662.jsonl');
  const plain = spansOf(decodeProtobuf(otlpProtobuf(exportOf(path))));
  const opted = spansOf(decodeProtobuf(otlpProtobuf(exportOf(path, true))));
  const secret = /gen_ai\.tool\.call\.(arguments|result)|engine\.content/;
  assert.not.ok(plain.some((s) => Object.keys(s.attributes).some((k) => secret.test(k)) || s.events.some((e) => 'engine.content' in e.attributes)));
  const call = opted.find((s) => s.name === 'tools/call find_user_id_by_email')!;
  assert.equal(JSON.parse(String(call.attributes['gen_ai.tool.call.arguments'])), { email: 'c41@example.com' });
  assert.type(call.attributes['gen_ai.tool.call.result'], 'string');
});

otlp('a log that is not a session log fails with the reader message', () => {
  assert.throws(() => exportOf(join(fixtureHome, 'servers.json')), /parsing /);
});

otlp('a log read in chunks (over 1 MB, long lines looked at by their head) exports without payloads as with them, less their attributes', () => {
  const t = tempDir('engine-otlp-chunked-');
  try {
    const head = JSON.stringify({ engine_mcp_log: 2, session: 'big', started_unix_ms: 1, server_command: ['srv'] });
    const lines = [head];
    const long = 'x'.repeat(1500);
    const answers = [
      (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${long} ${id}` }], isError: false } }),
      (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${long} "quoted" \\ ${id}` }] } }),
      (id: number) => ({ id, jsonrpc: '2.0', result: { content: [{ type: 'text', text: long }], isError: true } }),
      (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32000, message: long } }),
      (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: long }] }, error: { code: 3, message: 'both' } }),
      (id: number) => ({ jsonrpc: '2.0', id, result: { content: [], structuredContent: { error: long, deeper: { isError: true } } } }),
    ];
    let ms = 0;
    for (let id = 1, bytes = 0; bytes < 2_500_000; id++) {
      lines.push(JSON.stringify({ t_ms: (ms += 3), from: 'context', message: { role: id % 2 ? 'user' : 'assistant', content: `${long} ${id}` } }));
      lines.push(JSON.stringify({ t_ms: (ms += 5), from: 'client', message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `tool${id % 4}`, arguments: { n: id } } } }));
      lines.push(JSON.stringify({ t_ms: (ms += 7), from: 'server', message: answers[id % answers.length]!(id) }));
      bytes += lines.at(-1)!.length + lines.at(-2)!.length + lines.at(-3)!.length;
    }
    const path = join(t.dir, 'big.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const quick = decodeProtobuf(otlpProtobuf(exportOf(path)));
    holdToSession(quick, path);
    assert.equal(quick, withoutPayloads(decodeProtobuf(otlpProtobuf(exportOf(path, true)))));
    assert.ok(spansOf(quick).filter((s) => s.status.code === 2).length > 100, 'errors among the calls');
  } finally {
    t.cleanup();
  }
});

otlp('a lone surrogate escape fails the export in a line taken unparsed too, as in one parsed', () => {
  const t = tempDir('engine-otlp-surrogate-');
  try {
    const head = JSON.stringify({ engine_mcp_log: 2, session: 's', started_unix_ms: 1, server_command: ['srv'] });
    const call = '{"t_ms":1,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}}';
    const cases = {
      context: '{"t_ms":2,"from":"context","message":{"role":"user","content":"a \\ud800 b"}}',
      answer: '{"t_ms":2,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\\udc00"}],"isError":false}}}',
    };
    for (const [name, line] of Object.entries(cases)) {
      const path = join(t.dir, `${name}.jsonl`);
      writeFileSync(path, `${head}\n${call}\n${line}\n{"t_ms":3,"from":"client","message":{"jsonrpc":"2.0","method":"notifications/x"}}\n`);
      for (const payloads of [false, true]) assert.throws(() => exportOf(path, payloads), /line 3: a lone surrogate escape/, `${name}, payloads ${payloads}`);
    }
  } finally {
    t.cleanup();
  }
});

otlp.run();
