// Small measuring tools for the bench: medians, a process's CPU time and memory from /proc, a free loopback
// port, the bare-parse baseline, and the initial UI JavaScript's gzip size. Linux-only where /proc is read;
// elsewhere those figures come out as null and the bench says so.
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

let ticks: number | null = null;
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** User + system CPU time of a process (all its threads), in ms; null without /proc. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/** CPU time (ms) of a process and of each of its children by pid; empty without /proc. */
export function treeCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  const own = cpuMs(pid);
  if (own === null) return out;
  out.set(pid, own);
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // No children file (an older kernel): the process alone.
  }
  for (const child of children) {
    const ms = cpuMs(child);
    if (ms !== null) out.set(child, ms);
  }
  return out;
}

/** Peak and current resident memory of a process, in MB; null without /proc. */
export function memoryMb(pid: number): { hwm: number; rss: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Every file under `dir` whose name ends with `.jsonl` (logs and their companions), at most 3 levels down. */
export function jsonlFiles(dir: string, depth = 1): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) {
      if (depth < 3) out.push(...jsonlFiles(full, depth + 1));
    } else if (name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/** The whole machine's busy and total CPU time so far, from /proc/stat (null where there is none). */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Wait (at most `maxMs`) until half a second passes with the machine under `busyShare` of its CPUs busy:
 * what ran just before (the build, a generated home being written) must not be measured as the console's
 * start. Answers the wait in ms.
 */
export async function machineSettled(busyShare = 0.15, maxMs = 20_000): Promise<number> {
  const t0 = performance.now();
  let before = machineTicks();
  while (before !== null && performance.now() - t0 < maxMs) {
    await new Promise((r) => setTimeout(r, 500));
    const now = machineTicks();
    if (now === null) break;
    const share = (now.busy - before.busy) / Math.max(1, now.total - before.total);
    if (share < busyShare) break;
    before = now;
  }
  return performance.now() - t0;
}

/** The baseline: one thread reading every file whole and JSON.parse-ing every non-blank line. */
export function bareParse(files: readonly string[]): { ms: number; cpuMs: number; bytes: number; lines: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let bytes = 0;
  let lines = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    bytes += text.length;
    let from = 0;
    while (from < text.length) {
      let to = text.indexOf('\n', from);
      if (to === -1) to = text.length;
      if (to > from) {
        try {
          JSON.parse(text.slice(from, to));
        } catch {
          // a torn last line: the index drops it too
        }
        lines += 1;
      }
      from = to + 1;
    }
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, bytes, lines };
}

/**
 * The same bare parse split evenly over `parts` processes started together (every `parts`th file each): what
 * this machine's cores give for that work at once, which two vCPUs do not make twice one. The time is the
 * slowest part's, from a common go once every process has loaded.
 */
export async function bareParseSplit(files: readonly string[], parts: number): Promise<{ ms: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-bare-'));
  const list = join(dir, 'files.json');
  writeFileSync(list, JSON.stringify(files));
  const children: ChildProcess[] = [];
  try {
    for (let part = 0; part < parts; part++) {
      children.push(fork(new URL('./bare-part.ts', import.meta.url).pathname, [list, String(part), String(parts)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    }
    const next = (child: ChildProcess) =>
      new Promise<unknown>((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`a bare-parse part exited with ${code}`)));
      });
    await Promise.all(children.map(next));
    const done = children.map(next);
    for (const child of children) child.send('go');
    const results = (await Promise.all(done)) as { ms: number; cpuMs: number }[];
    return { ms: Math.max(...results.map((r) => r.ms)), cpuMs: results.reduce((n, r) => n + r.cpuMs, 0) };
  } finally {
    // A part that failed leaves the others waiting for their go: they must not outlive the bench.
    for (const child of children) if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The JavaScript the built UI loads first: the module scripts and modulepreload links of index.html,
 * each gzipped (level 9, as a server would send it). Null when there is no built UI.
 */
export function initialUiJs(uiDir: string): { files: string[]; gzipBytes: number; rawBytes: number } | null {
  const index = join(uiDir, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = m[0];
    if (!/\brel="modulepreload"/.test(tag)) continue;
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href) refs.add(href);
  }
  let gzipBytes = 0;
  let rawBytes = 0;
  const files: string[] = [];
  for (const ref of refs) {
    if (/^[a-z]+:\/\//i.test(ref)) continue;
    const path = join(uiDir, ref.replace(/^\.?\//, '').split(/[?#]/)[0]!);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 9 }).length;
    files.push(ref);
  }
  return { files, gzipBytes, rawBytes };
}
