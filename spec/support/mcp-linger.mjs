// A hostile MCP server for the probe's tests: it answers well (one tool), then never closes: it ignores the
// end of its input and SIGTERM, and leaves a grandchild behind. Only killing its process group ends it. With
// a path as its argument it writes its own pid and the grandchild's there, one a line.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
if (process.argv[2]) writeFileSync(process.argv[2], `${process.pid}\n${grandchild.pid}\n`);
process.on('SIGTERM', () => {});
setInterval(() => {}, 1000);
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const result =
    msg.method === 'initialize'
      ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'linger', version: '0.0.1' } }
      : { tools: [{ name: 'stay', annotations: { readOnlyHint: true } }] };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n`);
});
