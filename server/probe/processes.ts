// Ending everything a stdio test started. Killing the process group is not enough: a descendant that calls
// setsid() leaves the group. So each test's server gets a marker in its environment, which its descendants
// inherit, and at the end the test kills its group, every descendant found through /proc by parent (taken
// before anything dies, since an orphan is handed to init), and every process that carries the marker.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** The environment variable that marks a test's processes; its value is the test's own. */
export const PROBE_MARK_VAR = 'ENGINE_CONSOLE_PROBE_MARK';

export function newMark(): string {
  return randomBytes(12).toString('hex');
}

interface Proc {
  pid: number;
  ppid: number;
  marked: boolean;
}

/** One /proc entry, or null when it is gone, a zombie or not ours to read. */
function parseProc(pid: number, stat: string, environ: string | null, mark: string): Proc | null {
  const close = stat.lastIndexOf(')');
  const [state, ppid] = stat.slice(close + 2).split(' ');
  if (state === 'Z' || state === 'X' || ppid === undefined) return null;
  const marked = environ !== null && environ.split('\0').includes(`${PROBE_MARK_VAR}=${mark}`);
  return { pid, ppid: Number(ppid), marked };
}

const pidsOf = (names: string[]) => names.filter((n) => /^\d+$/.test(n)).map(Number);

async function scan(mark: string): Promise<Proc[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const procs = await Promise.all(
    pidsOf(names).map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
      if (stat === null) return null;
      const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => null);
      return parseProc(pid, stat, environ, mark);
    }),
  );
  return procs.filter((p): p is Proc => p !== null);
}

function scanSync(mark: string): Proc[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const read = (path: string, enc: BufferEncoding) => {
    try {
      return readFileSync(path, enc);
    } catch {
      return null;
    }
  };
  const procs = pidsOf(names).map((pid) => {
    const stat = read(`/proc/${pid}/stat`, 'utf8');
    return stat === null ? null : parseProc(pid, stat, read(`/proc/${pid}/environ`, 'latin1'), mark);
  });
  return procs.filter((p): p is Proc => p !== null);
}

/** The root's descendants by parent, and every process that carries the mark. */
function doomed(procs: Proc[], root: number): Set<number> {
  const out = new Set<number>(procs.filter((p) => p.marked).map((p) => p.pid));
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const seen = new Set<number>([root]);
  const stack = [root];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.add(child);
      stack.push(child);
    }
  }
  out.delete(process.pid);
  return out;
}

function kill(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // already gone, or not a group
  }
}

/** Kills the root's group, each found process and the group each one leads. */
function killAll(root: number, pids: Iterable<number>): void {
  kill(-root);
  for (const pid of pids) {
    kill(-pid);
    kill(pid);
  }
}

/** A marked process may fork while the first round is killed: look again, a few times. */
const ROUNDS = 4;

/**
 * Kills the test's server, its group and every descendant it left, setsid or not. Once the server has exited
 * (`running` false) its pid may be another's: only its group and the marked processes are looked for.
 */
export async function killProbeProcesses(root: number, mark: string, running: boolean): Promise<void> {
  const procs = await scan(mark);
  killAll(root, running ? [root, ...doomed(procs, root)] : procs.filter((p) => p.marked).map((p) => p.pid));
  for (let round = 1; round < ROUNDS; round++) {
    const left = (await scan(mark)).filter((p) => p.marked).map((p) => p.pid);
    if (left.length === 0) return;
    killAll(root, left);
  }
}

/** The same, synchronously, for the console's exit. */
export function killProbeProcessesSync(root: number, mark: string, running: boolean): void {
  const procs = scanSync(mark);
  killAll(root, running ? [root, ...doomed(procs, root)] : procs.filter((p) => p.marked).map((p) => p.pid));
  killAll(root, scanSync(mark).filter((p) => p.marked).map((p) => p.pid));
}
