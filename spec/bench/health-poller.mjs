// Asks a URL every N ms until its stdin closes, then prints the latencies (ms) as JSON. Run as its own
// process by the bench, so that the bench's own download of a 30 MB answer (decoded on its event loop) does
// not show up as the console's latency: `node health-poller.mjs URL EVERY_MS [HEADER=VALUE]`.
const [url, every = '20', header] = process.argv.slice(2);
const headers = header ? { [header.slice(0, header.indexOf('='))]: header.slice(header.indexOf('=') + 1) } : {};
const latencies = [];
let done = false;
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  done = true;
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// One ask first, not counted: this process's first fetch loads Node's fetch and opens the connection, some
// 50 ms that are the poller's start, not the console's answer.
await (await fetch(url, { headers })).arrayBuffer();
let next = performance.now();
while (!done) {
  const t0 = performance.now();
  await (await fetch(url, { headers })).arrayBuffer();
  latencies.push(performance.now() - t0);
  next += Number(every);
  const wait = next - performance.now();
  if (wait > 0) await sleep(wait);
  else next = performance.now();
}
process.stdout.write(JSON.stringify(latencies));
