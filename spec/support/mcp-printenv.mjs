// A hostile MCP server for the probe's tests: it prints its whole environment to stderr, one `NAME=value` a
// line (as a server that dumps its setup when it fails to start does), then exits with status 1.
const lines = Object.entries(process.env).map(([k, v]) => `${k}=${v}\n`).join('');
process.stderr.write(lines, () => process.exit(1));
