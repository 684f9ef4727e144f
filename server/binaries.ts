// Which engine binaries this console can see (console-api.md §1.4): the path given, else the one beside the
// console, else the first on PATH; and the first line each prints for --version, asked once at start.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { Binary } from '../shared/meta.ts';
import { findOnPath, isFile } from './path-search.ts';

export async function findBinary(name: string, besideDir: string, pathEnv: string | undefined, explicit?: string): Promise<string | null> {
  if (explicit) return explicit;
  const suffix = process.platform === 'win32' ? '.exe' : '';
  const beside = join(besideDir, name + suffix);
  if (await isFile(beside)) return beside;
  return findOnPath(name + suffix, pathEnv);
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

export async function describeBinary(found: Promise<string | null>): Promise<Binary | null> {
  const path = await found;
  return path === null ? null : { path, version: await versionOf(path) };
}
