// Small helpers for tests that start processes and servers of their own.
import { chownSync, lchownSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';

/**
 * Is a process with this pid still running? A zombie is not: it is dead, waiting for its parent to collect
 * it, and a killed process whose parent died too is collected by init only when init gets to it (seconds
 * later on a loaded machine here), which a test must not wait for.
 */
/** The pid a file holds, or undefined while it is missing or holds no whole number (0 would name our own group). */
export function pidIn(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
  return /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
}

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

/** A user and group a test can run a child as. */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Who a child runs as to be an ordinary user: `nobody` when the tests run as root (as under CI), where
 * permissions are not checked at all; null when they already run as an ordinary user.
 */
export function ordinaryUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('/etc/passwd has no nobody user to run as');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Hands a tree the tests made over to `user`, so a child running as it can write there. */
export function giveTo(dir: string, user: RunAs): void {
  chownSync(dir, user.uid, user.gid);
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) giveTo(path, user);
    else lchownSync(path, user.uid, user.gid);
  }
}
