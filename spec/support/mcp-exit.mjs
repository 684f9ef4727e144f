// A hostile MCP server for the probe's tests: it exits at once, with status 3, before reading anything.
process.exit(3);
