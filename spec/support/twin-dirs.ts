// Directories whose logs differ only by inode: the same names, sizes and mtimes (to the millisecond, as a
// copy keeps them), different session ids. Swapping two of them fools any stamp but one with the inode.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const isLog = (n: string) => n.endsWith('.jsonl') && !n.endsWith('.flow.jsonl') && !n.endsWith('.confirm.jsonl');

/** Swap two directories' places (through a third name). */
export function swapDirs(x: string, y: string): void {
  if (!existsSync(x) || !existsSync(y)) return;
  renameSync(x, `${x}.swap`);
  renameSync(y, x);
  renameSync(`${x}.swap`, y);
}

/** logs/twin-a and logs/twin-b: three of logs/shop's logs each, a session id's last digit 1 in one, 2 in the other. */
export function twins(root: string): void {
  const src = join(root, 'logs/shop');
  for (const [name, digit] of [['twin-a', '1'], ['twin-b', '2']] as const) {
    const dir = join(root, 'logs', name);
    mkdirSync(dir, { recursive: true });
    for (const n of readdirSync(src).filter(isLog).slice(0, 3)) {
      const to = join(dir, n);
      writeFileSync(to, readFileSync(join(src, n), 'utf8').replace(/("session":"[^"]*)\d"/, `$1${digit}"`));
      const st = statSync(join(src, n));
      utimesSync(to, st.atime, st.mtime);
    }
  }
}
