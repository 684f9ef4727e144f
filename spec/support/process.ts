// Small helpers for tests that start processes and servers of their own.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Is a process with this pid still running? A zombie is not: it is dead, waiting for its parent to collect
 * it, and a killed process whose parent died too is collected by init only when init gets to it (seconds
 * later on a loaded machine here), which a test must not wait for.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true; // no /proc: there, the signal's answer is all there is
  }
  // The state follows the command name, which is in parentheses and may hold anything.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}
