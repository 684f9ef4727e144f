// A hostile MCP server for the probe's tests: it floods its output as fast as the pipe takes it (long lines
// without an end, then short ones) and never answers.
const long = Buffer.alloc(1024 * 1024, 0x61); // 1 MiB of "a", no newline
const short = Buffer.from('{"jsonrpc":"2.0","method":"noise"}\n'.repeat(2000));
let n = 0;
function pump() {
  for (;;) {
    const ok = process.stdout.write(n++ % 4 === 0 ? short : long);
    if (!ok) return process.stdout.once('drain', pump);
  }
}
process.stdout.on('error', () => process.exit(0));
pump();
