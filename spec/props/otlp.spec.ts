// Properties of the session → OTLP mapping on generated sessions (requests by the agent and the proxy with
// numeric and string ids, some reused, answers that are results, tool errors, JSON-RPC errors or missing,
// notifications, batches, the conversation, a flow log): every export decodes with the OTLP definitions and
// holds to its log, and exporting again gives the same bytes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionTrace } from '../../server/engine/otlp/spans.ts';
import { readableSpans } from '../../server/engine/otlp/readable.ts';
import { otlpJson, otlpProtobuf } from '../../server/engine/otlp/encode.ts';
import { tempDir } from '../support/fixtures.ts';
import { decodeJson, decodeProtobuf, holdToSession, withoutPayloads } from '../support/otlp-decode.ts';
import { check } from './check.ts';

const props = suite('props: sessions as OTLP');
const t = tempDir('engine-otlp-props-');
props.after(() => t.cleanup());

const tool = fc.constantFrom('find_user', 'get_order', 'cancel_order', 'lookup');
const method = fc.constantFrom('tools/call', 'tools/call', 'tools/call', 'tools/list', 'initialize', 'prompts/get', 'resources/read', 'ping');
const answerKind = fc.constantFrom('result', 'result', 'tool_error', 'rpc_error', 'none', 'both', 'nested');
const step = fc.record({
  dt: fc.nat(900),
  from: fc.constantFrom('client', 'client', 'client', 'proxy', 'context', 'note'),
  method,
  tool,
  stringId: fc.boolean(),
  reuse: fc.nat(12),
  answer: answerKind,
  answerDt: fc.nat(300),
  batch: fc.boolean(),
  text: fc.string({ maxLength: 20 }),
});
const session = fc.record({
  steps: fc.array(step, { maxLength: 40 }),
  http: fc.boolean(),
  decisions: fc.nat(4),
  pid: fc.nat(99999),
});

type Session = typeof session extends fc.Arbitrary<infer T> ? T : never;
let n = 0;

/** Writes the generated session's log (and flow log) and returns its paths. */
function write(s: Session): { path: string; flowLog: string | null } {
  const id = `20260101T000000.000Z-${s.pid}`;
  const header = { engine_mcp_log: 2, session: id, started_unix_ms: 1767225600000, server_command: s.http ? ['https://mcp.example.com:8443/mcp'] : ['demo'], domain: 'shop', agent_model: null };
  const lines: string[] = [JSON.stringify(header)];
  const answers: { t: number; line: string }[] = [];
  let clock = 0;
  let k = 0;
  const flush = (upTo: number) => {
    answers.sort((a, b) => a.t - b.t);
    while (answers.length > 0 && answers[0]!.t <= upTo) lines.push(answers.shift()!.line);
  };
  const agentIds: unknown[] = [];
  for (const st of s.steps) {
    clock += st.dt;
    flush(clock);
    if (st.from === 'context') {
      lines.push(JSON.stringify({ t_ms: clock, from: 'context', message: { role: (['user', 'assistant', 'system'] as const)[st.dt % 3], content: st.text } }));
      continue;
    }
    if (st.from === 'note') {
      lines.push(JSON.stringify({ t_ms: clock, from: 'client', message: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } }));
      continue;
    }
    const num = st.reuse < 2 && k > 0 ? k - 1 : k++;
    const rid = st.from === 'proxy' ? `engine-${num}` : st.stringId ? `r${num}` : num;
    const params = st.method === 'tools/call' ? { name: st.tool, arguments: { q: st.text } } : st.method === 'prompts/get' ? { name: st.tool } : st.method === 'resources/read' ? { uri: `file:///${st.tool}` } : {};
    const msg = { jsonrpc: '2.0', id: rid, method: st.method, params };
    lines.push(JSON.stringify({ t_ms: clock, from: st.from, message: st.batch ? [msg] : msg }));
    if (st.from === 'client' && st.method === 'tools/call') agentIds.push(rid);
    if (st.answer === 'none') continue;
    const body =
      st.method === 'initialize' && st.answer === 'result' ? { result: { protocolVersion: `2025-0${st.dt % 9}-01`, capabilities: {} } } :
      st.answer === 'rpc_error' ? { error: { code: -32602, message: 'bad params' } } :
      st.answer === 'tool_error' ? { result: { content: [{ type: 'text', text: 'no such user' }], isError: true } } :
      // A result and an error both: the error's. An `isError` and an `error` deeper in a result: a success.
      st.answer === 'both' ? { result: { content: [] }, error: { code: 7, message: st.text } } :
      st.answer === 'nested' ? { result: { content: [{ type: 'text', text: st.text }], structuredContent: { error: st.text, more: { isError: true } } } } :
      { result: { content: [{ type: 'text', text: `ok ${st.text}` }], isError: false } };
    answers.push({ t: clock + st.answerDt, line: JSON.stringify({ t_ms: clock + st.answerDt, from: 'server', message: { jsonrpc: '2.0', id: rid, ...body } }) });
  }
  flush(Infinity);
  const stem = join(t.dir, `s${n++}`);
  writeFileSync(`${stem}.jsonl`, `${lines.join('\n')}\n`);
  if (s.decisions === 0 || agentIds.length === 0) return { path: `${stem}.jsonl`, flowLog: null };
  const flow = Array.from({ length: s.decisions }, (_, i) =>
    JSON.stringify({ action: i % 2 ? 'hand_back' : 'lookup', address: `decide#${i}`, after: agentIds[i % agentIds.length], arguments: {}, binding: 0.5, key: null, ms: 0, oracle: {}, predicates: {}, prob: 0.7, probs: {}, site: 'find_user', tool: i % 2 ? undefined : 'get_order', reason: i % 2 ? 'below' : undefined, shadow: i === 3 }),
  );
  writeFileSync(`${stem}.flow.jsonl`, `${flow.join('\n')}\n`);
  return { path: `${stem}.jsonl`, flowLog: `${stem}.flow.jsonl` };
}

props('every generated session exports to a trace that decodes and holds to its log, the same every time', async () => {
  await check(
    fc.property(session, fc.boolean(), (s, payloads) => {
      const files = write(s);
      const opts = { payloads, version: '1' };
      const bytes = otlpProtobuf(readableSpans(sessionTrace(files, opts)));
      const out = decodeProtobuf(bytes);
      holdToSession(out, files.path);
      assert.equal(decodeJson(Buffer.from(otlpJson(readableSpans(sessionTrace(files, opts)))).toString('utf8')), out);
      assert.equal(otlpProtobuf(readableSpans(sessionTrace(files, opts))), bytes);
      // Without payloads, plain answers and the conversation are taken unparsed; with them, every line is parsed.
      const other = decodeProtobuf(otlpProtobuf(readableSpans(sessionTrace(files, { ...opts, payloads: !payloads }))));
      const [quick, parsed] = payloads ? [other, out] : [out, other];
      assert.equal(quick, withoutPayloads(parsed));
      if (s.http) {
        const call = out.resources[0]!.spans.find((x) => x.kind === 3);
        if (call) assert.equal([call.attributes['server.address'], call.attributes['server.port'], call.attributes['network.transport']], ['mcp.example.com', 8443, 'tcp']);
      }
    }),
    150,
  );
});

props.run();
