// Command line of the generator: `tsx scripts/synth/main.ts --out DIR [options]` writes a synthetic data
// directory (home.ts) and prints one line saying what it wrote.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { generateHome, MODES } from './home.ts';
import type { Mode } from './session.ts';

const USAGE = `usage: tsx scripts/synth/main.ts --out DIR [--sessions N] [--domains shop,retail,travel]
       [--modes recorded,shadow,served] [--big MB,MB] [--seed N] [--now ISO|ms] [--days N]`;

function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} ${value}: a whole number, 0 or more`);
  return n;
}

function instant(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(n)) throw new Error(`--now ${value}: a time such as 2026-11-22T00:00:00Z, or ms since the epoch`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      sessions: { type: 'string' },
      domains: { type: 'string' },
      modes: { type: 'string' },
      big: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      days: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out) throw new Error(`--out is required\n${USAGE}`);
  const modes = list(values.modes);
  for (const m of modes ?? []) if (!(MODES as readonly string[]).includes(m)) throw new Error(`--modes ${m}: expected recorded, shadow or served`);
  const big = list(values.big)?.map((s) => {
    const n = Number(s);
    if (!(n > 0)) throw new Error(`--big ${s}: a size in MB, above 0`);
    return n;
  });
  const started = performance.now();
  const sessions = int('sessions', values.sessions);
  const seed = int('seed', values.seed);
  const nowMs = instant(values.now);
  const days = int('days', values.days);
  const domains = list(values.domains);
  const home = await generateHome({
    dir: resolve(values.out),
    ...(sessions !== undefined ? { sessions } : {}),
    ...(domains !== undefined ? { domains } : {}),
    ...(modes !== undefined ? { modes: modes as Mode[] } : {}),
    ...(big !== undefined ? { big } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(nowMs !== undefined ? { nowMs } : {}),
    ...(days !== undefined ? { days } : {}),
  });
  const ms = Math.round(performance.now() - started);
  const modesText = Object.entries(home.byMode).map(([m, n]) => `${n} ${m}`).join(', ');
  const bigText = home.big.length > 0 ? `, ${home.big.length} big log${home.big.length === 1 ? '' : 's'}` : '';
  for (const w of home.warnings) console.error(`synth: ${w}`);
  console.log(`synth: ${home.sessions.length} sessions (${modesText})${bigText}, ${home.flows.length} flows, a registry in ${home.dir} (${ms} ms)`);
}

main().catch((err: unknown) => {
  console.error(`synth: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
