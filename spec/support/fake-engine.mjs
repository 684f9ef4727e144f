#!/usr/bin/env node
// A stand-in for the engine CLI in job tests (passed to the console with --engine). It does what its
// environment says, so a test sets these in the console's environment (jobs inherit it):
//   FAKE_ENGINE_RECORD     append one JSON line per run: {argv, cwd, pid, salt_set, key_set}
//   FAKE_ENGINE_CONTROL    a JSON file read at each run; its fields (below, lower-case) override the env's,
//                          and a field named for the subcommand (e.g. "doctor": {...}) overrides those
//   FAKE_ENGINE_LINES      print N numbered lines, alternating stdout and stderr
//   FAKE_ENGINE_BYTES      print about N bytes of output in 1 KiB lines (to stdout)
//   FAKE_ENGINE_BURST      print N lines in one write (to stdout)
//   FAKE_ENGINE_WAIT_FOR   do not finish until this file exists (polls; gives up after 60 s)
//   FAKE_ENGINE_SLEEP_MS   sleep this long before finishing
//   FAKE_ENGINE_GRANDCHILD spawn a grandchild that sleeps, and write its pid to this file
//   FAKE_ENGINE_PIDFILE    write this process's pid to this file at start
//   FAKE_ENGINE_EXIT       exit with this code (default 0)
//   FAKE_ENGINE_VERSION    what `--version` prints after "engine " (default 0.1.0)
//   FAKE_ENGINE_NO_DRIFT   act as an older engine without `drift`: `drift --help` is refused as clap refuses
//                          an unknown subcommand (exit 2)
//   FAKE_ENGINE_WRITE      when it writes its outputs: "before" (at start, the default), "after" (once the
//                          wait and the sleep are over, so a job cancelled meanwhile writes nothing) or "none"
// `drift` writes its --json report as the engine's drift.rs serializes it: the control's `drift.report`
// object when given, else a quiet report over no sessions; exit 1 (its alarm) comes from `exit` as above.
// `<command> --help` answers (exit 0) without recording a run, as the console asks it to see what is offered.
// It writes a small file at each path named by --out, --json and --report (creating the parents); redact's
// --out is a directory, so it creates that instead; stage also writes NAME.staged.flow.json (the committed flow's bytes).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const argv = process.argv.slice(2);
if (argv[0] === '--version') {
  await new Promise((resolve) => process.stdout.write(`engine ${process.env.FAKE_ENGINE_VERSION ?? '0.1.0'}\n`, resolve));
  process.exit(0);
}
const command = argv[0] ?? '';
if (argv[1] === '--help') {
  if (command === 'drift' && process.env.FAKE_ENGINE_NO_DRIFT) {
    await new Promise((resolve) => process.stderr.write("error: unrecognized subcommand 'drift'\n", resolve));
    process.exit(2);
  }
  await new Promise((resolve) => process.stdout.write(`Usage: engine ${command} [OPTIONS]\n`, resolve));
  process.exit(0);
}

const settings = {
  record: process.env.FAKE_ENGINE_RECORD,
  lines: process.env.FAKE_ENGINE_LINES,
  bytes: process.env.FAKE_ENGINE_BYTES,
  burst: process.env.FAKE_ENGINE_BURST,
  wait_for: process.env.FAKE_ENGINE_WAIT_FOR,
  sleep_ms: process.env.FAKE_ENGINE_SLEEP_MS,
  grandchild: process.env.FAKE_ENGINE_GRANDCHILD,
  pidfile: process.env.FAKE_ENGINE_PIDFILE,
  exit: process.env.FAKE_ENGINE_EXIT,
  write: process.env.FAKE_ENGINE_WRITE,
};
if (process.env.FAKE_ENGINE_CONTROL && existsSync(process.env.FAKE_ENGINE_CONTROL)) {
  const control = JSON.parse(readFileSync(process.env.FAKE_ENGINE_CONTROL, 'utf8'));
  for (const [k, v] of Object.entries(control)) if (typeof v !== 'object' || v === null) settings[k] = v;
  if (control[command] && typeof control[command] === 'object') Object.assign(settings, control[command]);
}

// A pid file is written whole and renamed into place: a test reading it never sees it empty.
const writePid = (file, pid) => {
  writeFileSync(`${file}.tmp`, String(pid));
  renameSync(`${file}.tmp`, file);
};
if (settings.pidfile) writePid(settings.pidfile, process.pid);
if (settings.record) {
  const line = {
    argv,
    cwd: process.cwd(),
    pid: process.pid,
    salt_set: Boolean(process.env.ENGINE_REDACT_SALT),
    key_set: Boolean(process.env.TYPESAFE_API_KEY || process.env.TYPESAFE_API_KEY_FILE),
  };
  appendFileSync(settings.record, `${JSON.stringify(line)}\n`);
}

const write = (stream, text) => new Promise((resolve) => (stream.write(text) ? resolve() : stream.once('drain', resolve)));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function jsonReport(flag) {
  if (command !== 'drift') return { fake: command, flag };
  const quiet = { domain: 'shop', decider: 'habit', settings: { hazard: 0.01, window: 10, threshold: 0.5 }, sessions: [], alarms: [], sounding: false, unknown_tools: {} };
  return settings.report ?? quiet;
}

function writeOutputs() {
  for (const flag of ['--out', '--json', '--report']) {
    const i = argv.indexOf(flag);
    const path = i === -1 ? undefined : argv[i + 1];
    if (!path) continue;
    if (command === 'redact' && flag === '--out') {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    const body = path.endsWith('.json') ? `${JSON.stringify(jsonReport(flag), null, 2)}\n` : `# fake ${command} ${flag}\n`;
    writeFileSync(path, body);
  }
  // stage learns NAME.staged.flow.json beside the committed flow: here a copy of it.
  const flow = argv.indexOf('--flow');
  if (command === 'stage' && flow !== -1 && argv[flow + 1]?.endsWith('.flow.json')) {
    const committed = argv[flow + 1];
    writeFileSync(`${committed.slice(0, -'.flow.json'.length)}.staged.flow.json`, readFileSync(committed));
  }
}
if ((settings.write ?? 'before') === 'before') writeOutputs();

await write(process.stdout, `fake engine ${command}\n`);
const lines = Number(settings.lines ?? 0);
for (let n = 1; n <= lines; n++) {
  await write(n % 2 === 1 ? process.stdout : process.stderr, `line ${n} of ${lines} on ${n % 2 === 1 ? 'stdout' : 'stderr'}\n`);
}
const bytes = Number(settings.bytes ?? 0);
for (let done = 0, n = 1; done < bytes; n++) {
  const line = `${String(n).padStart(8, '0')} ${'x'.repeat(1014)}\n`;
  await write(process.stdout, line);
  done += line.length;
}
const burst = Number(settings.burst ?? 0);
if (burst > 0) {
  let text = '';
  for (let n = 1; n <= burst; n++) text += `burst ${n}\n`;
  await write(process.stdout, text);
}
if (settings.grandchild) {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
  writePid(settings.grandchild, child.pid);
}
if (settings.wait_for) {
  const until = Date.now() + 60_000;
  while (!existsSync(settings.wait_for) && Date.now() < until) await sleep(20);
}
if (settings.sleep_ms) await sleep(Number(settings.sleep_ms));
if (settings.write === 'after') writeOutputs();
await write(process.stdout, 'fake engine done\n');
// A write to a pipe can still be in flight when it returns: exiting at once lost the last lines when the
// console read slowly (a loaded machine). An empty write's callback comes once every write before it is out.
await Promise.all([process.stdout, process.stderr].map((s) => new Promise((resolve) => s.write('', resolve))));
process.exit(Number(settings.exit ?? 0));
