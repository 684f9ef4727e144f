// The one test entry point: finds every spec/**/*.spec.ts (or those whose path contains one of the
// arguments), runs them through uvu in a fixed order, and ends with the line `N passed, N failed`.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// spec/ mirrors the source: a folder per server/ folder, and a module at the top of server/ (probe.ts) has its
// spec at the top of spec/, ranked by its name.
const order = ['architecture', 'engine', 'data', 'store', 'events', 'jobs', 'workers', 'replay', 'otlp', 'http', 'probe', 'path-search', 'bin', 'props', 'client', 'e2e'];

function specs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'bench' && name !== 'support' && name !== 'fixtures') out.push(...specs(full));
    } else if (name.endsWith('.spec.ts')) out.push(full);
  }
  return out;
}

const rank = (file: string) => {
  const top = (relative(root, file).split('/')[0] ?? '').replace(/\.spec\.ts$/, '');
  const i = order.indexOf(top);
  return i === -1 ? order.length : i;
};

const filters = process.argv.slice(2);
const files = specs(root)
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

// uvu prints its own totals; we read them off stdout to print the closing line the CI looks for.
let captured = '';
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  if (captured.length > 4096) captured = captured.slice(-4096);
  return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;

const g = globalThis as { UVU_DEFER?: number; UVU_INDEX?: number; UVU_QUEUE?: unknown[][] };
g.UVU_DEFER = 1;
const uvu = await import('uvu');
let index = 0;
for (const file of files) {
  g.UVU_INDEX = index++;
  g.UVU_QUEUE!.push([relative(root, file)]);
  await import(pathToFileURL(file).href);
}
await uvu.exec(false);

// eslint-disable-next-line no-control-regex
const plain = captured.replace(/\x1b\[[0-9;]*m/g, '');
const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const failed = Math.max(0, total - passed - skipped);
process.stdout.write = write;
if (files.length === 0) console.log('no spec files matched');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 || files.length === 0 || total === 0 ? 1 : 0;
// Open handles from a failed suite must not keep CI waiting.
setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
