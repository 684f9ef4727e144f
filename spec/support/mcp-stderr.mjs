// An MCP server for the probe's tests that cannot start: it says why on stderr (more lines than the tail
// keeps), then exits with status 1 before answering anything.
for (let i = 1; i <= 30; i++) process.stderr.write(`starting: step ${i}\n`);
// Exit once the last line is out: a pipe's write can still be in flight when it returns.
process.stderr.write('Error: ACME_API_KEY is not set\n', () => process.exit(1));
