// `npm run demo`: the console on a synthetic data directory, so the UI has something to show on any machine.
// The home is generated once under .demo/home (git-ignored) and kept; `--fresh` writes it anew. Every other
// argument goes to the console (`npm run demo -- --open`), whose stdio is ours, so its two lines show.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const home = join(root, '.demo', 'home');
const launcher = join(root, 'dist', 'bin', 'engine-console.js');
const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const passed = args.filter((a) => a !== '--fresh');

if (!existsSync(launcher)) {
  console.error(`demo: ${launcher} is missing: run npm run build first`);
  process.exit(1);
}
if (fresh || !existsSync(home)) {
  rmSync(home, { recursive: true, force: true });
  const made = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'synth', 'main.ts'), '--out', home, '--sessions', '150', '--seed', '7', '--big', '3'],
    { cwd: root, stdio: 'inherit' },
  );
  if (made.status !== 0) {
    rmSync(home, { recursive: true, force: true });
    process.exit(made.status ?? 1);
  }
}

const child = spawn(process.execPath, [launcher, '--data', home, ...passed], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the console through the terminal's process group; a SIGTERM sent to us is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
