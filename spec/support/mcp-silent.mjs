// A hostile MCP server for the probe's tests: it reads its input and never answers. It also starts a
// grandchild that would outlive it, so a test can check the whole process group is killed. With a path as
// its argument it writes its own pid and the grandchild's there, one a line.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
if (process.argv[2]) writeFileSync(process.argv[2], `${process.pid}\n${grandchild.pid}\n`);
process.on('SIGTERM', () => {}); // ignores a polite stop: only a kill ends it
process.stdin.resume();
setInterval(() => {}, 1000);
