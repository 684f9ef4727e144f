import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { probe } from '../server/probe.ts';
import { overBudgetText } from '../server/probe/budget.ts';
import { Masker } from '../server/probe/mask.ts';
import { PROBE_READ_MAX_BYTES } from '../shared/limits.ts';
import { inputContract } from '../server/probe/exchange.ts';
import { ProbeResultSchema } from '../shared/servers.ts';
import { repoRoot, tempDir } from './support/fixtures.ts';
import { alive, freePort } from './support/process.ts';
import { holds, startsWith } from './support/assert.ts';

// The probe against real MCP servers the project did not write (server-everything, over stdio and over
// Streamable HTTP), against hostile servers of our own (spec/support/mcp-*.mjs), and against a small JSON
// answering HTTP server that checks what the probe sends.

const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const support = (name: string) => join(repoRoot, 'spec/support', name);
const node = process.execPath;
const opts = { version: '0.0.0-test', env: {} as Record<string, string | undefined> };



async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const probeSuite = suite('probe');
let httpEverything: ChildProcess | null = null;
let httpEverythingUrl = '';

probeSuite.before(async () => {
  const port = await freePort();
  httpEverything = spawn(node, [everything, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  httpEverythingUrl = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return true;
    } catch {
      return false;
    }
  }, 'server-everything over HTTP');
});

probeSuite.after(() => {
  httpEverything?.kill('SIGKILL');
});

probeSuite('server-everything over stdio answers initialize and lists its tools, sorted, with kinds', async () => {
  const result = await probe({ kind: 'stdio', command: [node, everything, 'stdio'], env: [] }, opts);
  assert.ok(v.is(v.omit(ProbeResultSchema, ['flow_warnings']), result));
  assert.is(result.error, null);
  assert.ok(result.ok);
  assert.type(result.server_name, 'string');
  assert.is(result.protocol_version, '2025-06-18');
  assert.ok(result.tools.length > 3);
  const names = result.tools.map((t) => t.name);
  assert.equal(names, [...names].sort());
  holds(result.tools.map((t) => `${t.name} ${t.contract}`), 'echo message:string!');
  for (const t of result.tools) holds(['read', 'write', 'generic'], t.kind);
});

probeSuite('server-everything over Streamable HTTP (event-stream answers) gives the same tools', async () => {
  const stdio = await probe({ kind: 'stdio', command: [node, everything, 'stdio'], env: [] }, opts);
  const http = await probe({ kind: 'http', url: httpEverythingUrl, headers: [] }, opts);
  assert.is(http.error, null);
  assert.ok(http.ok);
  assert.is(http.server_name, stdio.server_name);
  assert.equal(http.tools.map((t) => t.name), stdio.tools.map((t) => t.name));
});

probeSuite('a JSON-answering HTTP server gets the headers from the named variables, the session id and a goodbye', async () => {
  const seen: { method: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      if (req.headers.authorization !== 'Bearer s3cr3t-value') {
        res.writeHead(401).end();
        return;
      }
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      const msg = JSON.parse(body) as { id?: number; method: string };
      if (msg.id === undefined) return void res.writeHead(202).end();
      const result =
        msg.method === 'initialize'
          ? { protocolVersion: '2025-03-26', serverInfo: { name: 'json-srv', version: '1.2.3' }, instructions: 'be nice', capabilities: {} }
          : { tools: [{ name: 'get_order', annotations: { readOnlyHint: true }, inputSchema: { properties: { order_id: { type: 'string' } }, required: ['order_id'] } }] };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' });
      // A batch with a notification first: the probe finds its answer inside.
      res.end(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/progress' }, { jsonrpc: '2.0', id: msg.id, result }]));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  try {
    const upstream = { kind: 'http' as const, url, headers: [{ name: 'Authorization', env: 'PROBE_TEST_AUTH' }] };
    const result = await probe(upstream, { ...opts, env: { PROBE_TEST_AUTH: 'Bearer s3cr3t-value' } });
    assert.is(result.error, null);
    assert.equal([result.server_name, result.server_version, result.protocol_version, result.instructions], ['json-srv', '1.2.3', '2025-03-26', 'be nice']);
    assert.equal(result.tools, [
      { name: 'get_order', kind: 'read', description: null, read_only_hint: true, destructive_hint: null, contract: 'order_id:string!' },
    ]);
    assert.not.match(JSON.stringify(result), 's3cr3t');
    await waitFor(async () => seen.some((s) => s.method === 'DELETE'), 'the goodbye');
    const [init, initialized, list] = seen;
    assert.is(init!.headers['mcp-session-id'], undefined);
    assert.is(init!.headers.accept, 'application/json, text/event-stream');
    assert.equal(JSON.parse(init!.body).params.clientInfo, { name: 'engine-console', version: '0.0.0-test' });
    assert.is(initialized!.headers['mcp-session-id'], 'sess-1');
    assert.is(list!.headers['mcp-protocol-version'], '2025-03-26');
    assert.is(seen.find((s) => s.method === 'DELETE')!.headers['mcp-session-id'], 'sess-1');

    const refused = await probe(upstream, { ...opts, env: { PROBE_TEST_AUTH: 'wrong' } });
    assert.is(refused.error, 'the server answered initialize with HTTP 401 Unauthorized');
    const unset = await probe(upstream, opts);
    assert.is(unset.error, "PROBE_TEST_AUTH is not set in the console's environment, so the Authorization header cannot be sent");
    const badValue = await probe(upstream, { ...opts, env: { PROBE_TEST_AUTH: 'a\nb' } });
    assert.is(badValue.error, 'PROBE_TEST_AUTH does not hold a valid header value');
  } finally {
    server.close();
  }
});

probeSuite('an HTTP server that is not there is a transport error', async () => {
  const port = await freePort();
  const result = await probe({ kind: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: [] }, opts);
  assert.not.ok(result.ok);
  startsWith(result.error, 'sending initialize: ', result.error ?? '');
});

probeSuite('garbage, notifications and server requests are passed over, and pages are joined', async () => {
  const result = await probe({ kind: 'stdio', command: [node, support('mcp-garbage.mjs')], env: [] }, opts);
  assert.is(result.error, null);
  assert.is(result.server_name, 'garbage');
  assert.equal(result.tools, [
    { name: 'alpha', kind: 'read', description: 'reads', read_only_hint: true, destructive_hint: null, contract: null },
    { name: 'zeta', kind: 'write', description: null, read_only_hint: false, destructive_hint: true, contract: 'id:string!, n:integer|null, x:any' },
  ]);
});

probeSuite('a server that exits at once is reported with its exit status', async () => {
  const result = await probe({ kind: 'stdio', command: [node, support('mcp-exit.mjs')], env: [] }, opts);
  assert.not.ok(result.ok);
  assert.is(result.error, 'the server closed its output before answering initialize (it exited with exit status: 3)');
  assert.equal(result.tools, []);
});

probeSuite('a program that does not exist cannot be started', async () => {
  const result = await probe({ kind: 'stdio', command: ['/nonexistent/mcp-server'], env: [] }, opts);
  assert.is(result.error, 'starting /nonexistent/mcp-server: No such file or directory (os error 2)');
});

probeSuite('a server that never answers is cut at the time limit, and its whole process group is gone', async () => {
  const t = tempDir();
  try {
    const pidFile = join(t.dir, 'pids');
    const result = await probe({ kind: 'stdio', command: [node, support('mcp-silent.mjs'), pidFile], env: [] }, { ...opts, timeoutMs: 1500 });
    assert.is(result.error, 'the server did not answer within 2 s');
    assert.ok(result.ms >= 1500);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    assert.is(pids.length, 2);
    await waitFor(async () => pids.every((p) => !alive(p)), 'the server and its child to be gone');
  } finally {
    t.cleanup();
  }
});

probeSuite('a server that floods stdout or stderr is stopped at the read budget; one that prints garbage at the time limit', async () => {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 20);
  try {
    const [flood, floodErr, garbage] = await Promise.all([
      probe({ kind: 'stdio', command: [node, support('mcp-flood.mjs')], env: [] }, { ...opts, timeoutMs: 10_000 }),
      probe({ kind: 'stdio', command: [node, support('mcp-flood.mjs'), 'stderr'], env: [] }, { ...opts, timeoutMs: 10_000 }),
      probe({ kind: 'stdio', command: [node, support('mcp-garbage.mjs'), 'never'], env: [] }, { ...opts, timeoutMs: 2000 }),
    ]);
    assert.is(flood.error, overBudgetText(PROBE_READ_MAX_BYTES));
    assert.is(floodErr.error, overBudgetText(PROBE_READ_MAX_BYTES));
    assert.is(garbage.error, 'the server did not answer within 2 s');
  } finally {
    clearInterval(ticker);
  }
  // The event loop kept turning while they ran.
  assert.ok(ticks > 0);
});

/** An HTTP upstream that answers every POST with `head` and then `line` forever, as fast as it is taken. */
async function endless(head: Record<string, string>, line: string): Promise<{ url: string; close: () => void }> {
  const chunk = Buffer.from(line.repeat(4096));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, head);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('error', () => undefined);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  return { url, close: () => server.closeAllConnections() ?? server.close() };
}

probeSuite('an HTTP event that never ends, or an answer that never ends, is stopped at the read budget', async () => {
  const events = await endless({ 'content-type': 'text/event-stream' }, 'data: {"jsonrpc":"2.0","padding":"xxxxxxxxxxxxxxxx"}\n');
  const body = await endless({ 'content-type': 'application/json' }, '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16],');
  try {
    const [sse, json] = await Promise.all([
      probe({ kind: 'http', url: events.url, headers: [] }, opts),
      probe({ kind: 'http', url: body.url, headers: [] }, opts),
    ]);
    assert.is(sse.error, overBudgetText(PROBE_READ_MAX_BYTES));
    assert.is(json.error, overBudgetText(PROBE_READ_MAX_BYTES));
    startsWith(sse.error, 'the server sent more than 8 MiB', sse.error ?? '');
  } finally {
    events.close();
    body.close();
  }
});

probeSuite('children that call setsid and leave the process group are gone once the test ends', async () => {
  const t = tempDir();
  try {
    const pidFile = join(t.dir, 'pids');
    const result = await probe({ kind: 'stdio', command: [node, support('mcp-setsid.mjs'), pidFile], env: [] }, opts);
    assert.is(result.error, null);
    assert.equal(result.tools.map((x) => x.name), ['escape']);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    assert.is(pids.length, 3);
    await waitFor(async () => pids.every((p) => !alive(p)), 'the server and both setsid children to be gone');
  } finally {
    t.cleanup();
  }
});

probeSuite("a stdio server that prints its environment: the named variables' values are masked in its stderr tail", async () => {
  const key = 'sk-live-9f8e7d6c5b4a39281706';
  const auth = 'orders-auth-value-5544';
  process.env.PROBE_SPEC_MODEL_KEY = key;
  process.env.PROBE_SPEC_ORDERS_AUTH = auth;
  try {
    const result = await probe({ kind: 'stdio', command: [node, support('mcp-printenv.mjs')], env: ['PROBE_SPEC_ORDERS_AUTH'] }, { ...opts, secrets: [key, auth] });
    assert.not.ok(result.ok);
    const text = JSON.stringify(result);
    assert.not.match(text, key);
    assert.not.match(text, auth);
    holds((result.stderr_tail ?? '').split('\n'), 'PROBE_SPEC_ORDERS_AUTH=••••');
  } finally {
    delete process.env.PROBE_SPEC_MODEL_KEY;
    delete process.env.PROBE_SPEC_ORDERS_AUTH;
  }
});

probeSuite('an HTTP upstream that echoes its header back in an error or a broken answer gets the value masked', async () => {
  const secret = 'hdr-secret-31415926';
  const server: Server = createServer((req, res) => {
    req.resume();
    const echoed = String(req.headers['x-api-key']);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/error') res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -1, message: `bad key ${echoed}` } }));
    else res.end(`${echoed} is not a key`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const headers = [{ name: 'X-Api-Key', env: 'PROBE_SPEC_KEY' }];
    const env = { PROBE_SPEC_KEY: secret };
    const error = await probe({ kind: 'http', url: `${base}/error`, headers }, { ...opts, env, secrets: [secret] });
    assert.is(error.error, 'the server answered initialize with an error: bad key ••••');
    const broken = await probe({ kind: 'http', url: `${base}/broken`, headers }, { ...opts, env, secrets: [secret] });
    startsWith(broken.error, 'reading the answer to initialize: ', broken.error ?? '');
    assert.not.match(broken.error ?? '', secret);
    assert.not.match(broken.error ?? '', secret.slice(0, 8));
  } finally {
    server.close();
  }
});

probeSuite('a server that prints something else and exits says how it exited and what it printed', async () => {
  const result = await probe({ kind: 'stdio', command: [node, support('mcp-hello.mjs')], env: [] }, opts);
  assert.is(result.error, 'the server closed its output before answering initialize (it exited with exit status: 0); instead of JSON-RPC it printed "hello"');
});

probeSuite('a masked text cut out of a longer one hides the parts of a value at its edges too', () => {
  const masker = new Masker(['abcdefgh1234', 'ab']);
  assert.is(masker.text('x abcdefgh1234 y ab'), 'x •••• y ab');
  assert.is(masker.cut('efgh1234 tail'), '•••• tail');
  assert.is(masker.cut('head abcdefg'), 'head ••••');
  assert.is(masker.cut('plain text'), 'plain text');
  assert.is(new Masker(['a"b\\cdef']).text('quoted "a\\"b\\\\cdef"'), 'quoted "••••"');
});

probeSuite('the input contract is sorted and marks required inputs', () => {
  assert.is(inputContract({ properties: { b: { type: 'string' }, a: { type: 'number' } }, required: ['b'] }), 'a:number, b:string!');
  assert.is(inputContract({ type: 'object' }), '');
  assert.is(inputContract({ properties: { x: { type: ['string', 1] } } }), 'x:any');
});

probeSuite.run();
