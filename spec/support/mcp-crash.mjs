// A hostile MCP server for the probe's tests: it answers initialize, then crashes on tools/list with an
// uncaught error (a stack on its own stderr, exit status 1), as a buggy server does mid-way.
import { createInterface } from 'node:readline';

createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') {
    const result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'crash', version: '0.0.1' } };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n`);
  } else if (msg.method === 'tools/list') {
    throw new Error('the hostile server crashed on purpose');
  }
});
