// Hostile files over HTTP, on the built console: a session log with a 30 MB line opens (its big values cut
// for display, with their size) and downloads whole; a line past the bounds is a 422 that names the bound;
// a log too big for a worker's heap fails alone (its worker dies, the list and every other request answer,
// the console lives on); and a client that leaves mid-download or mid-stream leaves no error on stderr and
// no open file or worker behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { CallPayloadSchema, SessionOutlineSchema } from '../../shared/session-views.ts';
import { ErrorBodySchema } from '../../shared/common.ts';
import { SESSION_VALUE_KEEP_BYTES } from '../../shared/limits.ts';
import { SessionDetailSchema, SessionListSchema } from '../../shared/sessions.ts';
import { cutMark } from '../../server/engine/session/shrink.ts';
import { launch, type Launched } from '../support/launch.ts';
import { holds } from '../support/assert.ts';

const hostile = suite('hostile files');
let c: Launched;
const HUGE = 'x'.repeat(30 * 1024 * 1024);
let bigBytes: Buffer;

const header = (session: string) => ({ engine_mcp_log: 2, session, started_unix_ms: 1790561040548, server_command: ['demo'], domain: 'shop', agent_model: null });
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

hostile.before(async () => {
  c = await launch();
  const dir = join(c.dataDir, 'logs', 'hostile');
  mkdirSync(dir, { recursive: true });
  // A tool that returned a 30 MB file, and a user who pasted it.
  bigBytes = Buffer.from(
    jsonl([
      header('big'),
      { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/a' } } } },
      { t_ms: 2, from: 'server', message: { id: 1, jsonrpc: '2.0', result: { content: [{ type: 'text', text: HUGE }], isError: false } } },
      { t_ms: 3, from: 'context', message: { role: 'user', content: HUGE } },
    ]),
  );
  writeFileSync(join(dir, 'big.jsonl'), bigBytes);
  writeFileSync(join(dir, 'big.flow.jsonl'), jsonl([{ action: 'hand_back', after: 1, address: 'a', site: 's', reason: HUGE, shadow: false }]));
  writeFileSync(join(dir, 'big.confirm.jsonl'), jsonl([{ verdict: HUGE }]));
  // 5 MB of small values in one line: past the bound on what a long line holds besides long strings.
  const rows = Array.from({ length: 2_500_000 }, () => 1);
  writeFileSync(join(dir, 'dense.jsonl'), jsonl([header('dense'), { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'q', arguments: { rows } } } }]));
  // Lines within every bound, but 14 of them list 840 000 tools: more than a worker's heap holds.
  const heavy: unknown[] = [header('heavy')];
  for (let i = 0; i < 14; i++) {
    heavy.push({ t_ms: i, from: 'client', message: { jsonrpc: '2.0', id: `l${i}`, method: 'tools/list', params: {} } });
    heavy.push({ t_ms: i, from: 'server', message: { id: `l${i}`, jsonrpc: '2.0', result: { tools: Array.from({ length: 60_000 }, (_, j) => ({ name: `t${i}_${j}` })) } } });
  }
  writeFileSync(join(dir, 'heavy.jsonl'), jsonl(heavy));
});
hostile.after(async () => {
  if (process.env.HOSTILE_DEBUG) console.log(c.stderr());
  await c.stop();
});

async function errorOf(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

hostile('a 30 MB line opens with its big values cut for display, with their size', async () => {
  const res = await c.api('/api/sessions/big');
  assert.is(res.status, 200);
  const d = v.parse(SessionDetailSchema, await res.json());
  const shown = HUGE.slice(0, SESSION_VALUE_KEEP_BYTES) + cutMark(HUGE.length);
  assert.is(d.cut_for_display, 4);
  assert.is(d.context[0]!.content, shown);
  assert.equal([d.calls[0]!.result_text, d.calls[0]!.result_truncated], [shown, true]);
  assert.is(d.decisions[0]!.reason, shown);
  assert.equal(d.confirmations, [{ verdict: shown }]);
  assert.is(d.summary.size_bytes, bigBytes.length);
});

hostile('the raw download of that log is the file whole', async () => {
  const res = await c.api('/api/sessions/big/raw');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-length'), String(bigBytes.length));
  const got = Buffer.from(await res.arrayBuffer());
  assert.is(got.length, bigBytes.length);
  assert.is(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(bigBytes).digest('hex'));
});

hostile("the session page's views open the 30 MB line too: the outline, the answer cut at 1 MB with its size, and whole on asking", async () => {
  const outline = await c.api('/api/sessions/big/outline');
  assert.is(outline.status, 200);
  const o = v.parse(SessionOutlineSchema, await outline.json());
  assert.is(o.calls.length, 1);
  assert.is(o.calls[0]!.result_bytes, HUGE.length);
  const cut = await c.api('/api/sessions/big/calls/0');
  assert.is(cut.status, 200);
  const p = v.parse(CallPayloadSchema, await cut.json());
  assert.equal([p.result?.cut, p.result?.bytes], [true, HUGE.length]);
  assert.ok((p.result?.text.length ?? 0) <= 1024 * 1024, 'at most the display limit');
  const whole = await c.api('/api/sessions/big/calls/0/result');
  assert.is(whole.status, 200);
  assert.is((await whole.arrayBuffer()).byteLength, HUGE.length);
});

hostile('a line past the bound on what it holds besides long strings is a 422 that names the bound', async () => {
  const error = await errorOf(await c.api('/api/sessions/dense'), 422);
  assert.match(error, /^logs\/hostile\/dense\.jsonl is not a session log engine can read: parsing .*dense\.jsonl: line 2: the line is \d\.\d MiB and more than 4 MiB of it is not in strings longer than 63 KiB/);
});

hostile('a log too big for a worker fails alone: 422 for it, the list and other sessions answer', async () => {
  // The 30 MB log and the heavy one, written after the start, are read in the index's lane at its lower
  // priority while the tests above read them in theirs: the list names them once those reads are in (a
  // request waits for the logs it finds new, not for earlier ones). The heavy log's summary keeps no listing,
  // so it is read within the lane's heap bound; only its detail needs more than a worker's heap.
  const listed = async () => v.parse(SessionListSchema, await (await c.api('/api/sessions?limit=500')).json()).items.map((s) => s.key);
  for (let i = 0; i < 600; i++) {
    const keys = await listed();
    if (keys.includes('big') && keys.includes('heavy')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const [heavy, list, other] = await Promise.all([
    c.api('/api/sessions/heavy'),
    c.api('/api/sessions?limit=500'),
    c.api('/api/sessions/20260928T020400.548Z-14457'),
  ]);
  // Refused by the reader's heap guard before the worker's heap is full (or, failing that, when its worker dies).
  assert.match(await errorOf(heavy, 422), /^logs\/hostile\/heavy\.jsonl (is not a session log engine can read|cannot be shown): reading .*needs more than the \d+ MB of heap a worker may use/);
  assert.is(list.status, 200);
  const items = v.parse(SessionListSchema, await list.json()).items.map((s) => s.key);
  holds(items, 'big');
  holds(items, 'heavy');
  assert.is(other.status, 200);
  // The console is still up and answers after the worker died.
  assert.is((await c.api('/api/health')).status, 200);
  assert.is((await c.api('/api/sessions/big')).status, 200);
});

hostile('a registry, a flow and a job record past their bounds are refused by name, not read', async () => {
  const registry = join(c.dataDir, 'servers.json');
  const before = readFileSync(registry);
  // Sparse files: their size is past the bound, and nothing is written.
  const sized = (path: string, bytes: number) => {
    writeFileSync(path, '');
    truncateSync(path, bytes);
  };
  try {
    sized(registry, 17 * 1024 * 1024);
    assert.is(await errorOf(await c.api('/api/servers'), 422), 'servers.json is 17.0 MiB, more than the 16 MiB the console reads');
  } finally {
    writeFileSync(registry, before);
  }
  sized(join(c.dataDir, 'huge.flow.json'), 33 * 1024 * 1024);
  assert.match(await errorOf(await c.api('/api/flows/huge'), 422), /the file is 33\.0 MiB, more than the 32 MiB of flow the console reads/);
  assert.is((await c.api('/api/flows')).status, 200);
});

/** Open files of the console (not sockets, pipes or the like). */
function openFiles(pid: number): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('/')) out.push(target);
    } catch {
      // closed while we looked
    }
  }
  return out.sort();
}

/** The console's child processes (its workers). */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** GETs `path`, reads `bytes` of the answer, then drops the connection. */
function leaveEarly(path: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.url}${path}`, { headers: { Authorization: `Bearer ${c.token}` } }, (res) => {
      let got = 0;
      res.on('data', (chunk: Buffer) => {
        got += chunk.length;
        if (got >= bytes) {
          req.destroy();
          resolve();
        }
      });
      res.on('end', () => reject(new Error(`${path} ended before ${bytes} bytes`)));
    });
    req.on('error', () => undefined);
    req.end();
  });
}

hostile('clients that leave mid-download or mid-stream leave no error, open file or worker behind', async () => {
  const pid = c.child.pid!;
  // Warm: the workers a detail needs exist, and settle.
  assert.is((await c.api('/api/sessions/big')).status, 200);
  // The warm answer's spool file is closed just after its last byte is sent: wait for that before counting.
  let filesBefore = openFiles(pid);
  for (let i = 0; i < 50 && filesBefore.some((f) => f.includes('engine-console-spool-')); i++) {
    await new Promise((r) => setTimeout(r, 100));
    filesBefore = openFiles(pid);
  }
  // The index lane may still be reading the heavy log (a worker dying on it writes V8's report to stderr):
  // only what the leaving clients cause is this test's, so the index must be done before stderr is marked.
  for (let i = 0; i < 300; i++) {
    const list = (await (await c.api('/api/sessions?limit=1')).json()) as { indexing?: unknown };
    if (list.indexing === undefined || list.indexing === null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const stderrBefore = c.stderr();
  for (let i = 0; i < 10; i++) {
    await leaveEarly('/api/sessions/big/raw', 64 * 1024);
    await leaveEarly('/api/sessions/big', 1024);
    await leaveEarly('/api/flows/shop/raw', 1);
    await leaveEarly('/api/events', 10);
  }
  // Koa closes a left stream when the socket closes: give it a moment.
  let files = openFiles(pid);
  for (let i = 0; i < 50 && files.length > filesBefore.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    files = openFiles(pid);
  }
  assert.equal(files, filesBefore);
  assert.is(c.stderr().slice(stderrBefore.length), '');
  // No worker per left request: at most the pool's size are alive (each lane, requests and index, one per core).
  assert.ok(children(pid).length <= 2 * availableParallelism(), `workers: ${children(pid).join()}`);
  assert.is((await c.api('/api/health')).status, 200);
});

hostile.run();
