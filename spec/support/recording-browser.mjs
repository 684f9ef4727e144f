// A stand-in for $BROWSER: it reports, over the Unix socket named by RECORDING_BROWSER_SOCKET, its own
// arguments, the page it was handed (its text and the modes of the file and its directory), and the command
// line of every process that carries the page's sign-in code or ENGINE_CONSOLE_TOKEN at that moment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const report = { argv, page: null, fileMode: null, dirMode: null, carriers: [] };
const secrets = [process.env.ENGINE_CONSOLE_TOKEN].filter(Boolean);
try {
  const file = fileURLToPath(argv[0]);
  report.page = readFileSync(file, 'utf8');
  report.fileMode = statSync(file).mode & 0o777;
  report.dirMode = statSync(dirname(file)).mode & 0o777;
  const code = /[?&]code=([0-9a-f]+)/.exec(report.page)?.[1];
  if (code) secrets.push(code);
} catch (e) {
  report.page = `unreadable: ${e.message}`;
}
for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
  let cmdline;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    continue;
  }
  if (secrets.some((s) => cmdline.includes(s))) report.carriers.push(`${pid}: ${cmdline}`);
}
const socket = connect(process.env.RECORDING_BROWSER_SOCKET);
socket.end(JSON.stringify(report));
