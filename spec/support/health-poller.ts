// /api/health asked every few ms by a process of its own (spec/bench/health-poller.mjs) while a test or the
// bench makes the console work: this process's own reading of a big answer must not count as the console's.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './fixtures.ts';

/** Asks `url` every `everyMs` until stopped: stop() answers the latencies in ms. */
export function healthPoller(url: string, everyMs: number): { stop: () => Promise<number[]> } {
  const poller = spawn(process.execPath, [join(repoRoot, 'spec/bench/health-poller.mjs'), url, String(everyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  poller.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const polled = new Promise<number[]>((resolve, reject) => {
    poller.on('error', reject);
    poller.on('exit', () => {
      try {
        resolve(JSON.parse(out) as number[]);
      } catch {
        reject(new Error(`the health poller printed no latencies: ${JSON.stringify(out.slice(0, 200))}`));
      }
    });
  });
  return {
    stop: () => {
      poller.stdin!.end();
      return polled;
    },
  };
}
