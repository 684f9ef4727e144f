// The console stays responsive while GET /api/sessions/otlp streams a few thousand generated sessions:
// /api/health, asked every 20 ms by a process of its own, answers fast throughout, and the export still
// holds every session once, in the list's order. Thresholds are generous (a loaded 2-core machine);
// the figures are printed. A client that leaves mid-export leaves no batch file behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { generateHome } from '../../scripts/synth/home.ts';
import { SessionListSchema } from '../../shared/sessions.ts';
import { tempDir } from '../support/fixtures.ts';
import { healthPoller } from '../support/health-poller.ts';
import { launch, type Launched } from '../support/launch.ts';

const SESSIONS = 2500;
const MAX_MS = 1500;
const MEDIAN_MS = 150;

const responsive = suite('otlp export: the console stays responsive');
const home = tempDir('engine-otlp-responsive-');
let c: Launched;

responsive.before(async () => {
  await generateHome({ dir: home.dir, sessions: SESSIONS, seed: 11, big: [] });
  c = await launch({ dataDir: home.dir });
});
responsive.after(async () => {
  await c?.stop();
  home.cleanup();
});

/** The session ids in list order once the cold index is done (at most 60 s), a page of 500 at a time. */
async function listedIds(): Promise<string[]> {
  const page = async (offset: number) => v.parse(SessionListSchema, await (await c.api(`/api/sessions?limit=500&offset=${offset}`)).json());
  for (let i = 0; ; i++) {
    const first = await page(0);
    if (first.indexing === undefined) {
      const ids = first.items.map((s) => s.session_id);
      while (ids.length < first.total) ids.push(...(await page(ids.length)).items.map((s) => s.session_id));
      return ids;
    }
    if (i >= 600) throw new Error(`the cold index did not end: ${JSON.stringify(first.indexing)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The session id of each line, read from the root span's attribute without parsing the whole line. */
function idsOf(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => /"key":"gen_ai\.conversation\.id","value":\{"stringValue":"([^"]+)"/.exec(line)?.[1] ?? '?');
}

responsive('/api/health answers fast while the whole list streams as OTLP', async () => {
  const listed = await listedIds();
  assert.is(listed.length, SESSIONS);
  const poller = healthPoller(`${c.url}/api/health`, 20);
  const t0 = performance.now();
  const download = async () => {
    const res = await c.api('/api/sessions/otlp');
    assert.is(res.status, 200);
    return res.text();
  };
  const outcome = await download().then(
    (text) => ({ text }),
    (err: unknown) => ({ err }),
  );
  // Stopped whatever the download did: the poller must not outlive the test.
  const latencies = await poller.stop();
  if ('err' in outcome) throw outcome.err;
  const { text } = outcome;
  const ms = performance.now() - t0;
  const sorted = [...latencies].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1] ?? NaN;
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  console.log(`  otlp export of ${SESSIONS} sessions: ${(ms / 1000).toFixed(2)} s, ${(text.length / 1048576).toFixed(1)} MB; /api/health meanwhile max ${max.toFixed(0)} ms, median ${median.toFixed(1)} ms over ${latencies.length} asks`);
  assert.equal(idsOf(text), listed, 'every session once, in the list order');
  assert.ok(latencies.length >= 10, `only ${latencies.length} asks of /api/health during the export`);
  assert.ok(max <= MAX_MS, `/api/health took up to ${max.toFixed(0)} ms during the export (at most ${MAX_MS})`);
  assert.ok(median <= MEDIAN_MS, `/api/health took ${median.toFixed(1)} ms at the median during the export (at most ${MEDIAN_MS})`);
});

/** The console's spool files (its private temp directory), by name. */
function spoolFiles(pid: number): string[] {
  return readdirSync(tmpdir())
    .filter((d) => d.startsWith(`engine-console-spool-${pid}-`))
    .flatMap((d) => readdirSync(join(tmpdir(), d)));
}

/** Reads `bytes` of the export, then leaves (the socket is destroyed mid-answer). */
function leaveEarly(bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${c.url}/api/sessions/otlp`, { headers: { Authorization: `Bearer ${c.token}` } }, (res) => {
      let got = 0;
      res.on('data', (chunk: Buffer) => {
        got += chunk.length;
        if (got < bytes) return;
        req.destroy();
        resolve();
      });
      res.on('end', () => reject(new Error(`the export ended before ${bytes} bytes`)));
    });
    req.on('error', () => undefined);
    req.end();
  });
}

responsive('a client that leaves mid-export leaves no batch file in the spool, and no error', async () => {
  const pid = c.child.pid!;
  const stderrBefore = c.stderr();
  await leaveEarly(256 * 1024);
  // The batches still running when it left end within the pool's time for them, and then go.
  let left = spoolFiles(pid);
  for (let i = 0; i < 100 && left.some((f) => f.endsWith('.jsonl')); i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = spoolFiles(pid);
  }
  assert.equal(left.filter((f) => f.endsWith('.jsonl')), []);
  assert.is(c.stderr().slice(stderrBefore.length), '');
  assert.is((await c.api('/api/health')).status, 200);
});

responsive.run();
