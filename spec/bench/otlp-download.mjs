// Downloads GET /api/sessions/otlp into a file as a browser or curl would, and prints what it got as JSON
// ({ status, ms, bytes, lines }). Run as its own process by the bench: in the bench's process, whose heap
// holds the generated home, the same download took several times the CPU, taken from the console on a
// 2-core machine. `node otlp-download.mjs URL FILE`, the token (if any) in ENGINE_TOKEN.
import { createWriteStream } from 'node:fs';
import { get } from 'node:http';
import { pipeline } from 'node:stream/promises';

const [url, file] = process.argv.slice(2);
const token = process.env.ENGINE_TOKEN;
const t0 = performance.now();
const res = await new Promise((resolve, reject) => {
  get(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} }, resolve).on('error', reject);
});
let bytes = 0;
let lines = 0;
if (res.statusCode === 200) {
  res.on('data', (b) => {
    bytes += b.length;
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  });
  await pipeline(res, createWriteStream(file));
} else res.resume();
process.stdout.write(JSON.stringify({ status: res.statusCode, ms: performance.now() - t0, bytes, lines }));
