// A broken MCP server for the probe's tests: it prints a greeting instead of JSON-RPC and exits with status 0.
process.stdout.write('hello\n', () => process.exit(0));
