// Recurring lines (a server's tools listing, a client's handshake) parsed once per thread by the summary:
// logs that share such lines, or nearly share them, are summarized exactly as when each is parsed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { tempDir } from '../support/fixtures.ts';

const shared = suite('session-shared');
let temp: { dir: string; cleanup: () => void };
shared.before(() => {
  temp = tempDir();
});
shared.after(() => temp.cleanup());

const header = (id: string) =>
  JSON.stringify({ engine_mcp_log: 2, session: id, started_unix_ms: 1_700_000_000_000, server_command: ['srv'] });
const line = (t: number, from: string, message: unknown) => JSON.stringify({ t_ms: t, from, message });
const listing = (readOnly: boolean) => ({
  jsonrpc: '2.0',
  id: 2,
  result: { tools: [{ name: 'put', annotations: { readOnlyHint: readOnly } }, { name: 'get', annotations: { readOnlyHint: true } }] },
});
const session = (id: string, lines: string[]) => {
  const path = join(temp.dir, `${id}.jsonl`);
  writeFileSync(path, `${[header(id), ...lines].join('\n')}\n`);
  return { key: id, rel: `${id}.jsonl`, path, flowLog: null, confirmLog: null };
};
const handshake = (client: string, t: number) => [
  line(t, 'client', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: client } } }),
  line(t + 1, 'client', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
];
const call = (t: number, id: number, tool: string) => [
  line(t, 'client', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { n: id } } }),
  line(t + 5, 'server', { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `done ${id}` }], isError: false } }),
];

shared('logs that repeat the same listing and handshake each get the summary their own lines give', () => {
  const summaries = ['s1', 's2', 's3'].map((id, i) =>
    sessionSummary(session(id, [...handshake('agent', i), line(i + 2, 'server', listing(false)), ...call(10 + i, 3, 'put')])),
  );
  for (const s of summaries) {
    assert.is(s.agent, 'agent');
    assert.is(s.tool_calls, 1);
    assert.is(s.writes, 1);
    assert.equal(s.tools_called, ['put']);
  }
  // The detail parses every line itself: the summary agrees with the detail's.
  const detail = sessionDetail(session('s4', [...handshake('agent', 0), line(2, 'server', listing(false)), ...call(10, 3, 'put')]));
  const { tools_called: _, shadow_decisions: __, ...wire } = sessionSummary(session('s5', [...handshake('agent', 0), line(2, 'server', listing(false)), ...call(10, 3, 'put')]));
  assert.equal({ ...wire, key: 's4', path: 's4.jsonl', session_id: 's4' }, detail.summary);
});

shared('a listing that differs by one value is not taken for an earlier one', () => {
  const write = sessionSummary(session('w', [...handshake('a', 0), line(2, 'server', listing(false)), ...call(10, 3, 'put')]));
  const read = sessionSummary(session('r', [...handshake('a', 0), line(2, 'server', listing(true)), ...call(10, 3, 'put')]));
  assert.is(write.writes, 1);
  assert.is(read.writes, 0);
});

shared('a handshake with another client name gives that name', () => {
  const one = sessionSummary(session('c1', [...handshake('first', 0)]));
  const two = sessionSummary(session('c2', [...handshake('second', 0)]));
  assert.is(one.agent, 'first');
  assert.is(two.agent, 'second');
});

shared('the same listing sent by another sender counts as that sender’s', () => {
  // Answered by the proxy instead of the server, the listing fills no tools: the call is generic.
  const lines = handshake('a', 0);
  const byProxy = sessionSummary(session('p', [...lines, line(2, 'proxy', listing(false)), ...call(10, 3, 'put')]));
  const byServer = sessionSummary(session('q', [...lines, line(2, 'server', listing(false)), ...call(10, 3, 'put')]));
  assert.is(byServer.writes, 1);
  assert.is(byProxy.writes, 0);
});

shared('a listing line that repeats its sender inside is read with the sender it names last', () => {
  const tail = `"message":${JSON.stringify(listing(false))},"from":"proxy"}`;
  const lines = [...handshake('a', 0), `{"t_ms":2,"from":"server",${tail}`, ...call(10, 3, 'put')];
  // Parsed, the line's last `from` wins: the proxy's listing fills no tools, in both logs.
  assert.is(sessionSummary(session('d1', lines)).writes, 0);
  assert.is(sessionSummary(session('d2', lines)).writes, 0);
});

shared('a broken listing line is never shared: the log it is in stays unreadable for its detail', () => {
  const broken = `{"t_ms":2,"from":"server","message":{"jsonrpc":"2.0","id":2,"result":{"tools":[}}}`;
  const files = session('b', [...handshake('a', 0), broken, ...call(10, 3, 'put')]);
  assert.throws(() => sessionSummary(files), /parsing .*line 4/);
  assert.throws(() => sessionSummary(files), /parsing .*line 4/);
});

shared.run();
