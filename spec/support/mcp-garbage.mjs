// A hostile MCP server for the probe's tests: before each answer it prints lines that are not its answer
// (text, broken JSON, JSON that is not an object, an answer to another id, a notification, and a request of
// its own). With `never` as its argument it prints only that, forever, and never answers.
import { createInterface } from 'node:readline';

const never = process.argv[2] === 'never';
const noise = () => {
  process.stdout.write('hello, this is not JSON\n');
  process.stdout.write('{"jsonrpc": "2.0", "id": 1, "result": \n');
  process.stdout.write('[1, 2, 3]\n');
  process.stdout.write('"a string"\n');
  process.stdout.write('{"jsonrpc":"2.0","id":99,"result":{}}\n');
  process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n');
  process.stdout.write('{"jsonrpc":"2.0","id":"srv-1","method":"roots/list"}\n');
  process.stdout.write('\u0000\u0001\u00ff binary-ish \r\n');
};

if (never) {
  setInterval(noise, 5);
} else {
  const lines = createInterface({ input: process.stdin });
  let page = 0;
  lines.on('line', (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.id === undefined || msg.method === undefined) return; // notifications and our error answers
    noise();
    if (msg.method === 'initialize') {
      const result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'garbage', version: '0.0.1' } };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n`);
    } else if (msg.method === 'tools/list') {
      // Two pages, to exercise the cursor.
      page += 1;
      const tools =
        page === 1
          ? [{ name: 'zeta', annotations: { readOnlyHint: false, destructiveHint: true }, inputSchema: { type: 'object', properties: { id: { type: 'string' }, n: { type: ['integer', 'null'] }, x: {} }, required: ['id'] } }]
          : [{ name: 'alpha', description: 'reads', annotations: { readOnlyHint: true } }];
      const result = page === 1 ? { tools, nextCursor: 'p2' } : { tools };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n`);
    }
  });
}
