// A restart that takes its index from the saved file sees exactly what a fresh index of the same files sees,
// whatever happened to the files while the console was stopped: logs created, appended to, truncated,
// renamed, deleted, rewritten at the same size with a new mtime, companions come and gone, and directories
// swapped (same names, same sizes and mtimes: only the inodes tell them apart); with directories that were
// still long enough to be saved with the index, and kept at the restart where nothing touched them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { ageDirs } from '../support/aged-dirs.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { indexSnapshot } from '../store/index-snapshot.ts';
import { swapDirs, twins } from '../support/twin-dirs.ts';
import { check } from './check.ts';

const test = suite('props: a restarted index equals a fresh one');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

const KINDS = ['create', 'append', 'truncate', 'rename', 'delete', 'rewrite', 'companion', 'swap', 'swapTwins'] as const;
type Op = { kind: (typeof KINDS)[number]; a: number; b: number };
const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom(...KINDS), a: fc.nat(), b: fc.nat() });

const isLog = (n: string) => n.endsWith('.jsonl') && !n.endsWith('.flow.jsonl') && !n.endsWith('.confirm.jsonl');

function logsUnder(root: string): string[] {
  const out: string[] = [];
  for (const top of readdirSync(root)) {
    const dir = join(root, top);
    if (!statSync(dir).isDirectory()) continue;
    for (const sub of readdirSync(dir)) {
      const d = join(dir, sub);
      if (!statSync(d).isDirectory()) continue;
      for (const n of readdirSync(d).sort()) if (isLog(n)) out.push(join(d, n));
    }
  }
  return out.sort();
}

/** Session directories (two levels down, as the CLI writes them). */
function dirsUnder(root: string): string[] {
  return [...new Set(logsUnder(root).map((p) => dirname(p)))].sort();
}

/** Change one digit, keeping the size: the log reads differently, or not at all. */
function tweak(path: string, at: number): void {
  const text = readFileSync(path, 'utf8');
  const digits = [...text.matchAll(/\d/g)].map((m) => m.index);
  if (digits.length === 0) return;
  const i = digits[at % digits.length]!;
  const d = text[i]!;
  writeFileSync(path, text.slice(0, i) + String((Number(d) + 1) % 10) + text.slice(i + 1));
}

let fresh = 0;
function apply(root: string, op: Op): void {
  const logs = logsUnder(root);
  const log = logs[op.a % Math.max(1, logs.length)];
  const stem = log?.slice(0, -'.jsonl'.length);
  switch (op.kind) {
    case 'create': {
      if (!log) return;
      const dir = join(root, 'logs', op.b % 2 ? 'shop' : `made${op.b % 3}`);
      mkdirSync(dir, { recursive: true });
      copyFileSync(log, join(dir, `20991231T000000.${String(fresh++).padStart(3, '0')}Z-${op.b}.jsonl`));
      return;
    }
    case 'append':
      if (log) appendFileSync(log, op.b % 2 ? readFileSync(log, 'utf8').split('\n').filter(Boolean).at(-1) + '\n' : '{"not":"an entry"\n');
      return;
    case 'truncate':
      if (log) truncateSync(log, Math.floor(statSync(log).size / (2 + (op.b % 3))));
      return;
    case 'rename':
      if (log) renameSync(log, join(dirname(log), `20991230T000000.000Z-${op.b}-${fresh++}.jsonl`));
      return;
    case 'delete':
      if (log) rmSync(log);
      return;
    case 'rewrite': {
      if (!log) return;
      const before = statSync(log);
      tweak(log, op.b);
      // Same size, a new mtime (a second on: file systems with coarse stamps still see it).
      utimesSync(log, before.atime, new Date(before.mtimeMs + 1000 + (op.b % 1000)));
      return;
    }
    case 'companion': {
      if (!stem) return;
      const flow = `${stem}.flow.jsonl`;
      if (existsSync(flow)) rmSync(flow);
      else {
        const donor = logsUnder(root).map((p) => `${p.slice(0, -'.jsonl'.length)}.flow.jsonl`).find(existsSync);
        if (donor) copyFileSync(donor, flow);
      }
      return;
    }
    case 'swap': {
      const dirs = dirsUnder(root);
      if (dirs.length < 2) return;
      const x = dirs[op.a % dirs.length]!;
      const y = dirs[(op.a + 1 + (op.b % (dirs.length - 1))) % dirs.length]!;
      swapDirs(x, y);
      return;
    }
    case 'swapTwins':
      swapDirs(join(root, 'logs/twin-a'), join(root, 'logs/twin-b'));
      return;
  }
}

/** How a restart finds its first logs: from the walk alone, by name before the walk, or by name beside a saved index. */
type Head = 'none' | 'before' | 'beside';

async function indexed(dataDir: string, savedIndex: { file: string; write: boolean } | null, warn: (l: string) => void = () => {}, head: Head = 'before'): Promise<Store> {
  // Small slices, and at times no head, so saved entries are taken as the walk's logs are listed too.
  const s = new Store({ dataDir, pool, hub: new Hub(), savedIndex, warn, head: head !== 'none', headBesideBytes: head === 'beside' ? 0 : Infinity, listSlice: 4 });
  await s.open();
  await s.warm(30_000);
  await s.searchFiltersMade;
  return s;
}

test('after any changes between two runs, the restarted index equals a fresh one', async () => {
  await check(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), fc.constantFrom<Head>('none', 'before', 'beside'), fc.boolean(), async (ops, head, aged) => {
      const home = copyHome();
      const cache = tempDir();
      const saved = { file: join(cache.dir, 'index.bin'), write: true };
      const warnings: string[] = [];
      try {
        twins(home.dir);
        // Directories still for a while are saved with the index: those no op touches are kept at the restart.
        if (aged) ageDirs(home.dir);
        const first = await indexed(home.dir, saved);
        await first.save();
        first.close();
        for (const op of ops) apply(home.dir, op);
        const restarted = await indexed(home.dir, saved, (l) => warnings.push(l), head);
        const again = indexSnapshot(restarted);
        restarted.close();
        const clean = await indexed(home.dir, null);
        const expected = indexSnapshot(clean);
        clean.close();
        assert.equal(warnings, []);
        assert.equal(again, expected);
      } finally {
        home.cleanup();
        cache.cleanup();
      }
    }),
    12,
  );
});

test.run();
