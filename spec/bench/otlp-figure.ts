// The OTLP list export as a figure: GET /api/sessions/otlp written to a file as it streams, timed, in MB of
// session logs (and their flow logs) a second, with /api/health asked every few ms meanwhile by a process
// of its own (health-poller.mjs), so the console's responsiveness during the export is measured with it.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratedHome } from '../../scripts/synth/home.ts';
import { repoRoot } from '../support/fixtures.ts';
import { healthPoller } from '../support/health-poller.ts';

export const OTLP_TARGET_MB_S = 50;

export interface OtlpExportFigure {
  ms: number;
  /** Bytes of the exported sessions' logs and flow logs. */
  logBytes: number;
  outBytes: number;
  lines: number;
  /** /api/health latencies (ms) while the export streamed. */
  health: number[];
}

/** The bytes the export reads: every session log of the home and its flow log. */
export function homeLogBytes(home: GeneratedHome): number {
  let bytes = 0;
  const size = (rel: string) => statSync(join(home.dir, rel)).size;
  for (const s of home.sessions) bytes += size(s.rel) + (s.flowLog === null ? 0 : size(s.flowLog));
  for (const b of home.big) bytes += size(b.rel);
  return bytes;
}

/** How the figure downloads: Node's HTTP client (otlp-download.mjs, the default) or curl (a lighter client). */
export type OtlpClient = 'node' | 'curl';

/** The download by curl, timed by curl itself; its lines are counted afterwards, outside the time. */
function curlDownload(url: string, file: string, token: string | null): Promise<{ status: number; ms: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const headers = token ? ['-H', `Authorization: Bearer ${token}`] : [];
    const child = spawn('curl', ['-s', '-o', file, '-w', '%{http_code} %{time_total} %{size_download}', ...headers, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const [status, seconds, bytes] = out.trim().split(' ').map(Number);
      if (code !== 0 || status === undefined || seconds === undefined || bytes === undefined) return reject(new Error(`curl exited ${code} and printed ${JSON.stringify(out)}`));
      let lines = 0;
      const got = status === 200 ? readFileSync(file) : Buffer.alloc(0);
      for (let i = got.indexOf(10); i !== -1; i = got.indexOf(10, i + 1)) lines++;
      resolve({ status, ms: seconds * 1000, bytes, lines });
    });
  });
}

/** The download, by a process of its own (otlp-download.mjs, or curl). */
function download(url: string, file: string, token: string | null, client: OtlpClient): Promise<{ status: number; ms: number; bytes: number; lines: number }> {
  if (client === 'curl') return curlDownload(url, file, token);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'spec/bench/otlp-download.mjs'), url, file], {
      env: { ...process.env, ENGINE_TOKEN: token ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out) as { status: number; ms: number; bytes: number; lines: number });
      } catch {
        reject(new Error(`the download exited ${code} and printed ${JSON.stringify(out.slice(0, 200))}`));
      }
    });
  });
}

/** Downloads the whole list's export into `file`, timed, with /api/health polled meanwhile. */
export async function timeOtlpExport(o: { url: string; token: string | null; logBytes: number; file: string; healthEveryMs: number; client?: OtlpClient }): Promise<OtlpExportFigure> {
  const poller = healthPoller(`${o.url}/api/health`, o.healthEveryMs);
  // The poller's first ask loads its fetch: let it start before the export does.
  await new Promise((r) => setTimeout(r, 300));
  let got: { status: number; ms: number; bytes: number; lines: number };
  try {
    got = await download(`${o.url}/api/sessions/otlp`, o.file, o.token, o.client ?? 'node');
    if (got.status !== 200) throw new Error(`GET /api/sessions/otlp answered ${got.status}`);
  } catch (err) {
    // The poller must not outlive a failed figure.
    await poller.stop().catch(() => undefined);
    throw err;
  }
  const health = await poller.stop();
  return { ms: got.ms, logBytes: o.logBytes, outBytes: got.bytes, lines: got.lines, health };
}

/** The figure's line: MB/s of logs against the target, and /api/health meanwhile. */
export function otlpExportText(f: OtlpExportFigure, sessions: number): string {
  const mb = f.logBytes / 1048576;
  const rate = mb / (f.ms / 1000);
  const max = f.health.length ? Math.max(...f.health) : NaN;
  const sorted = [...f.health].sort((a, b) => a - b);
  const med = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `OTLP export of ${sessions} sessions to a file: ${rate.toFixed(1)} MB/s of logs (${mb.toFixed(1)} MB in ${(f.ms / 1000).toFixed(2)} s, ${f.lines} lines, ${(f.outBytes / 1048576).toFixed(1)} MB written; /api/health meanwhile max ${max.toFixed(0)} ms, median ${med.toFixed(1)} ms over ${f.health.length}) — target ≥ ${OTLP_TARGET_MB_S} MB/s`;
}

export const otlpExportPasses = (f: OtlpExportFigure) => f.logBytes / 1048576 / (f.ms / 1000) >= OTLP_TARGET_MB_S;
