// A hostile MCP server for the probe's tests: it floods its output as fast as the pipe takes it (long lines
// without an end, then short ones) and never answers. With `stderr` as its argument it floods stderr instead.
const out = process.argv[2] === 'stderr' ? process.stderr : process.stdout;
const long = Buffer.alloc(1024 * 1024, 0x61); // 1 MiB of "a", no newline
const short = Buffer.from('{"jsonrpc":"2.0","method":"noise"}\n'.repeat(2000));
let n = 0;
function pump() {
  for (;;) {
    const ok = out.write(n++ % 4 === 0 ? short : long);
    if (!ok) return out.once('drain', pump);
  }
}
out.on('error', () => process.exit(0));
pump();
