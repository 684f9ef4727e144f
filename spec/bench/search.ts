// The search figures of `npm run bench`: GET /api/search on the generated home beside ripgrep over the same
// files in the same run, a common phrase's first page, /api/health while a search runs, and the memory the
// console and its pool take above idle while searching.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { healthPoller } from '../support/health-poller.ts';
import { median, sleep } from './measure.ts';

const RG = '/usr/bin/rg';
const RUNS = 5;
const HEALTH_EVERY_MS = 20;
const RSS_EVERY_MS = 10;

type Report = (pass: boolean | null, text: string) => void;

export interface SearchBench {
  url: string;
  pid: number;
  home: string;
  /** The phrase held by a handful of sessions, and how many hold it. */
  rare: { text: string; sessions: number };
  /** A phrase most sessions hold. */
  common: string;
  api: (path: string) => Promise<Response>;
  report: Report;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
/** The folders that hold session logs and their companions: the files the console searches. */
const LOG_DIRS = ['logs', 'served', 'shadow'];

/** Every page of a search, in ms, and the sessions it found. */
async function completeSearch(api: SearchBench['api'], text: string): Promise<{ ms: number; sessions: number; pages: number }> {
  const t0 = performance.now();
  let cursor = '';
  let sessions = 0;
  for (let pages = 1; pages <= 10_000; pages++) {
    const res = await api(`/api/search?text=${encodeURIComponent(text)}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (res.status !== 200) throw new Error(`GET /api/search answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { items: unknown[]; next_cursor: string | null };
    sessions += body.items.length;
    if (body.next_cursor === null) return { ms: performance.now() - t0, sessions, pages };
    cursor = body.next_cursor;
  }
  throw new Error('the search did not end within 10 000 pages');
}

/** ripgrep's count of the phrase over the log folders, in ms; null when rg is not installed. */
function ripgrep(home: string, text: string): Promise<{ ms: number; files: number } | null> {
  if (!existsSync(RG)) return Promise.resolve(null);
  const dirs = LOG_DIRS.filter((d) => existsSync(join(home, d)));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(RG, ['--fixed-strings', '--ignore-case', '--count-matches', '--', text, ...dirs], { cwd: home, maxBuffer: 64 << 20 }, (err, stdout) => {
      const ms = performance.now() - t0;
      // Exit 1 is "no match"; anything else is a failure.
      if (err && err.code !== 1) return reject(new Error(`rg failed: ${err.message}`));
      resolve({ ms, files: stdout.split('\n').filter(Boolean).length });
    });
  });
}

/** Resident memory of a process and all its descendants (the pool's children), in MB; null without /proc. */
function treeRssMb(pid: number): number | null {
  try {
    let kb = 0;
    const stack = [pid];
    for (let n = 0; n < 1000 && stack.length > 0; n++) {
      const p = stack.pop()!;
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (children) stack.push(...children.split(' ').map(Number));
      }
    }
    return kb / 1024;
  } catch {
    return null;
  }
}

/** Runs `body` while /api/health is asked every 20 ms from a process of its own; answers both. */
async function withHealthPolled<T>(url: string, body: () => Promise<T>): Promise<{ value: T; latencies: number[] }> {
  const poller = healthPoller(`${url}/api/health`, HEALTH_EVERY_MS);
  await sleep(200);
  let value: T;
  try {
    value = await body();
  } catch (err) {
    await poller.stop().catch(() => []);
    throw err;
  }
  return { value, latencies: await poller.stop() };
}

/** Runs `body` while the process tree's RSS is sampled every 10 ms; answers its peak in MB. */
async function withRssSampled<T>(pid: number, body: () => Promise<T>): Promise<{ value: T; peakMb: number | null }> {
  let peak: number | null = null;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const mb = treeRssMb(pid);
      if (mb !== null) peak = Math.max(peak ?? 0, mb);
      await sleep(RSS_EVERY_MS);
    }
  })();
  try {
    return { value: await body(), peakMb: peak };
  } finally {
    running = false;
    await sampler;
  }
}

export async function searchFigures(b: SearchBench): Promise<void> {
  // Each once before measuring: the page cache holds the files, and the pool has the task loaded.
  const rgWarm = await ripgrep(b.home, b.rare.text);
  await completeSearch(b.api, b.rare.text);
  const consoleRuns: number[] = [];
  const rgRuns: number[] = [];
  let found = 0;
  for (let i = 0; i < RUNS; i++) {
    const rg = await ripgrep(b.home, b.rare.text);
    if (rg) rgRuns.push(rg.ms);
    const run = await completeSearch(b.api, b.rare.text);
    consoleRuns.push(run.ms);
    found = run.sessions;
  }
  const ms = median(consoleRuns);
  const rgMs = rgRuns.length ? median(rgRuns) : null;
  const ratio = rgMs === null ? null : ms / rgMs;
  const rgText = rgMs === null ? `rg: not measured (${RG} is missing)` : `rg --fixed-strings --ignore-case --count-matches over the same folders: ${fmt(rgMs)} ms median (${rgWarm?.files ?? 0} files hold it), the console ${ratio!.toFixed(2)}× that`;
  b.report(
    ms <= 1000 && (ratio === null || ratio <= 1.5),
    `search of a phrase in ${b.rare.sessions} sessions ("${b.rare.text}"), every page: ${fmt(ms)} ms median of ${RUNS} (${consoleRuns.map(fmt).join(', ')}), ${found} sessions found; ${rgText} — target ≤ 1000 ms and ≤ 1.5× rg`,
  );
  if (found !== b.rare.sessions) b.report(false, `search of "${b.rare.text}": ${found} sessions found, ${b.rare.sessions} hold it`);

  const firstPage: number[] = [];
  for (let i = 0; i < RUNS * 2; i++) {
    const t0 = performance.now();
    const res = await b.api(`/api/search?text=${encodeURIComponent(b.common)}`);
    const body = (await res.json()) as { items?: unknown[] };
    if (res.status !== 200) throw new Error(`GET /api/search?text=${b.common} answered ${res.status}`);
    if ((body.items?.length ?? 0) === 0) throw new Error(`"${b.common}" is in no session: not a common phrase`);
    firstPage.push(performance.now() - t0);
  }
  const first = median(firstPage);
  b.report(first <= 200, `search of a common phrase ("${b.common}"), its first page of 50 sessions: ${fmt(first)} ms median of ${firstPage.length} (max ${fmt(Math.max(...firstPage))}) — target ≤ 200 ms`);

  await sleep(1000);
  const idle = treeRssMb(b.pid);
  const { value: polled, peakMb } = await withRssSampled(b.pid, () => withHealthPolled(b.url, () => completeSearch(b.api, b.rare.text)));
  const max = Math.max(...polled.latencies);
  b.report(max <= 50, `/api/health during a search of every session (${fmt(polled.value.ms)} ms): max ${fmt(max)} ms, median ${fmt(median(polled.latencies))} ms over ${polled.latencies.length} requests — target max ≤ 50 ms`);
  if (idle === null || peakMb === null) return b.report(null, 'memory while searching: /proc is not readable here, not measured');
  b.report(peakMb - idle <= 50, `memory while searching (the console and its pool's processes): ${fmt(peakMb - idle)} MB above idle (${fmt(idle)} MB idle, ${fmt(peakMb)} MB peak, sampled every ${RSS_EVERY_MS} ms) — target ≤ 50 MB`);
}
