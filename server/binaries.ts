// Which engine binaries this console can see (console-api.md §1.4): the path given, else the one beside the
// console, else the first on PATH; and the first line each prints for --version, asked once at start.
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Binary } from '../shared/meta.ts';

const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;

export function findBinary(name: string, besideDir: string, pathEnv: string | undefined, explicit?: string): string | null {
  if (explicit) return explicit;
  const suffix = process.platform === 'win32' ? '.exe' : '';
  const beside = join(besideDir, name + suffix);
  if (isFile(beside)) return beside;
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name + suffix);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

/** `path --version`'s first line, or null when it fails or says nothing (5 s at most). */
export function versionOf(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ['--version'], { timeout: 5_000, windowsHide: true }, (err, stdout) => {
      const line = String(stdout).split('\n')[0]?.trim() ?? '';
      resolve(err || line === '' ? null : line);
    });
  });
}

export async function describeBinary(path: string | null): Promise<Binary | null> {
  return path === null ? null : { path, version: await versionOf(path) };
}
