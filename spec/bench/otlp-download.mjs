// Downloads GET /api/sessions/otlp into a file as a browser or curl would, and prints what it got as JSON
// ({ status, ms, bytes, lines }). Run as its own process by the bench: in the bench's process, whose heap
// holds the generated home, the same download took several times the CPU, taken from the console on a
// 2-core machine. Each chunk is written as it comes, with one system call, as curl writes: a write stream
// (a thread-pool hop and a stream's bookkeeping per 64 KB) took half as much CPU again, from the same cores.
// `node otlp-download.mjs URL FILE`, the token (if any) in ENGINE_TOKEN.
import { closeSync, openSync, writeSync } from 'node:fs';
import { get } from 'node:http';

const [url, file] = process.argv.slice(2);
const token = process.env.ENGINE_TOKEN;
const t0 = performance.now();
const res = await new Promise((resolve, reject) => {
  get(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} }, resolve).on('error', reject);
});
let bytes = 0;
let lines = 0;
if (res.statusCode === 200) {
  const fd = openSync(file, 'w');
  try {
    await new Promise((resolve, reject) => {
      res.on('data', (b) => {
        bytes += b.length;
        for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
        for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at);
      });
      res.on('end', resolve);
      res.on('error', reject);
      // A connection cut before the end ('aborted' in older Nodes) must not look like a whole download.
      res.on('aborted', () => reject(new Error('the answer was cut short')));
    });
  } finally {
    closeSync(fd);
  }
} else res.resume();
process.stdout.write(JSON.stringify({ status: res.statusCode, ms: performance.now() - t0, bytes, lines }));
