// A developer's tool, not a test: the OTLP list export's speed over a home made with the bench's generator.
// First one thread's parts, in this process (reading and inferring turns, mapping to spans, the official
// serializer alone over the same spans: its floor), then the whole download from the built console
// (dist/, `npm run build` first) into a file, with /api/health asked meanwhile.
//   tsx spec/bench/otlp-export.ts [--sessions N] [--home DIR] [--rounds N] [--launcher FILE] [--no-parts] [--client node|curl]
// --launcher times another build (an older dist's bin/engine-console.js, to compare); --no-parts skips the
// one-thread parts; --client curl downloads with curl instead of Node's HTTP client (which takes more CPU
// from the same two cores).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateHome, type GeneratedHome } from '../../scripts/synth/home.ts';
import { sessionExchanges } from '../../server/engine/otlp/exchanges.ts';
import { otlpJson } from '../../server/engine/otlp/encode.ts';
import { readableSpans } from '../../server/engine/otlp/readable.ts';
import { sessionTrace } from '../../server/engine/otlp/spans.ts';
import { launch } from '../support/launch.ts';
import { homeLogBytes, otlpExportPasses, otlpExportText, timeOtlpExport } from './otlp-figure.ts';
import { sleep } from './measure.ts';

const { values } = parseArgs({ options: { sessions: { type: 'string' }, home: { type: 'string' }, rounds: { type: 'string' }, launcher: { type: 'string' }, 'no-parts': { type: 'boolean' }, client: { type: 'string' } } });
const sessions = Number(values.sessions ?? 1500);
const rounds = Math.max(1, Number(values.rounds ?? 3));
const work = mkdtempSync(join(tmpdir(), 'engine-otlp-bench-'));
const dir = values.home ?? join(work, 'home');

async function homeOf(): Promise<GeneratedHome> {
  const manifest = join(dir, 'bench-home.manifest');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as GeneratedHome;
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} holds files but no bench-home.manifest: give an empty or a generated directory`);
  const home = await generateHome({ dir, sessions, seed: 5, big: [] });
  if (values.home) writeFileSync(manifest, JSON.stringify(home));
  return home;
}

/**
 * The best of `rounds` runs of `body`, in ms of wall time and of this process's CPU time (on a shared
 * machine the CPU time says more); one run before them warms the code up.
 */
function best(body: () => void): { ms: number; cpuMs: number } {
  let ms = Infinity;
  let cpuMs = Infinity;
  for (let r = 0; r <= rounds; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    body();
    const c = process.cpuUsage(c0);
    if (r === 0) continue;
    ms = Math.min(ms, performance.now() - t0);
    cpuMs = Math.min(cpuMs, (c.user + c.system) / 1000);
  }
  return { ms, cpuMs };
}

function onOneThread(home: GeneratedHome, mb: number): void {
  const files = home.sessions.map((s) => ({ path: join(home.dir, s.rel), flowLog: s.flowLog === null ? null : join(home.dir, s.flowLog) }));
  const options = { payloads: false, version: '0.0.0' };
  const rate = (t: { ms: number; cpuMs: number }) => `${(mb / (t.ms / 1000)).toFixed(1)} MB/s (${t.ms.toFixed(0)} ms; ${(mb / (t.cpuMs / 1000)).toFixed(1)} MB a CPU second)`;
  const read = best(() => files.forEach((f) => sessionExchanges(f.path, false)));
  const mapped = best(() => files.forEach((f) => sessionTrace(f, options)));
  const traces = files.map((f) => sessionTrace(f, options));
  const spans = traces.map(readableSpans);
  const serialized = best(() => spans.forEach((s) => otlpJson(s)));
  const whole = best(() => files.forEach((f) => otlpJson(readableSpans(sessionTrace(f, options)))));
  console.log(`one thread, best of ${rounds}, over ${mb.toFixed(1)} MB of logs:`);
  console.log(`  reading the logs and inferring turns: ${rate(read)}`);
  console.log(`  the same and mapping to spans:         ${rate(mapped)}`);
  console.log(`  the official JSON serializer alone:    ${rate(serialized)} (its floor: the same spans, nothing else)`);
  console.log(`  all of it, session by session:         ${rate(whole)}`);
}

try {
  const home = await homeOf();
  const logBytes = homeLogBytes(home);
  console.log(`otlp-export: ${home.sessions.length} sessions in ${dir}, ${(logBytes / 1048576).toFixed(1)} MB of logs and flow logs`);
  if (!values['no-parts']) onOneThread(home, logBytes / 1048576);
  const c = await launch({ dataDir: dir, token: 'bench-token', launcher: values.launcher });
  try {
    // The export answers every indexed session: wait for the cold index to end (at most 60 s).
    for (let i = 0; i < 1200; i++) {
      const body = (await (await c.api('/api/sessions?limit=1')).json()) as { indexing?: unknown };
      if (!body.indexing) break;
      await sleep(50);
    }
    for (let r = 0; r < rounds; r++) {
      const f = await timeOtlpExport({ url: c.url, token: c.token, logBytes, file: join(work, 'sessions.otlp.jsonl'), healthEveryMs: 20, client: values.client === 'curl' ? 'curl' : 'node' });
      console.log(`${otlpExportPasses(f) ? 'PASS' : 'FAIL'}  ${otlpExportText(f, home.sessions.length)}`);
    }
  } finally {
    await c.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
