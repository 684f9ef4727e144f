import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstWalk, logAt, namesOf } from '../../server/store/first-walk.ts';
import { mergeHeads, newestLogs } from '../../server/store/head-scan.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('store: newest logs by name');

/** A session id for second `s` of 2026-11-20, millisecond `ms`. */
const id = (s: number, ms = 0) => `20261120T${String(Math.floor(s / 3600)).padStart(2, '0')}${String(Math.floor(s / 60) % 60).padStart(2, '0')}${String(s % 60).padStart(2, '0')}.${String(ms).padStart(3, '0')}Z`;

function walkOrder(root: string): string[] {
  const walk = firstWalk(root);
  const names = namesOf(walk);
  return [...walk.flags].map((_, i) => logAt(walk, names, i).rel);
}

test('the head is the walk\'s newest logs, whatever order the directories list them in', () => {
  const { dir, cleanup } = tempDir();
  try {
    // A seeded shuffle of 600 logs over three directories, some seconds shared.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const d of ['logs/a', 'logs/b', 'shadow/a']) mkdirSync(join(dir, d), { recursive: true });
    const dirs = ['logs/a', 'logs/b', 'shadow/a'];
    for (let i = 0; i < 600; i++) writeFileSync(join(dir, dirs[Math.floor(rand() * 3)]!, `${id(Math.floor(rand() * 400))}-${i}.jsonl`), '{}\n');
    const order = walkOrder(dir);
    // Small heads make each directory's candidates (twice the head) overflow many times over.
    for (const count of [50, 5, 1]) {
      const head = newestLogs(dir, count);
      assert.ok(head);
      assert.is(head.found, 600);
      assert.equal(new Set(head.logs.map((l) => l.rel)), new Set(order.slice(0, head.logs.length)), `head of ${count}`);
      assert.ok(head.logs.length >= count);
    }
  } finally {
    cleanup();
  }
});

test('the head scanned in parts, each worker reading some of the directories, is the head scanned whole', () => {
  const { dir, cleanup } = tempDir();
  try {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const dirs = ['logs/a', 'logs/b', 'logs/c', 'served/a', 'served/b', 'shadow/a', 'shadow/c'];
    for (const d of dirs) mkdirSync(join(dir, d), { recursive: true });
    // Some seconds shared across directories (the same session id elsewhere), and a log at an upper level.
    for (let i = 0; i < 900; i++) writeFileSync(join(dir, dirs[Math.floor(rand() * dirs.length)]!, `${id(Math.floor(rand() * 300))}.jsonl`), '{}\n');
    writeFileSync(join(dir, 'logs', `${id(299, 999)}-top.jsonl`), '{}\n');
    for (const count of [64, 7, 1]) {
      const whole = newestLogs(dir, count)!;
      for (const of of [2, 3]) {
        const parts = Array.from({ length: of }, (_, index) => newestLogs(dir, count, { index, of }));
        // Each part read its own directories: together they found every log once.
        assert.is(parts.reduce((n, p) => n + p!.found, 0), whole.found);
        const merged = mergeHeads(parts, count);
        assert.ok(merged);
        assert.equal(merged.logs, whole.logs, `${count} in ${of} parts`);
        assert.is(merged.found, whole.found);
      }
    }
    // A log not named by session id is placed by its mtime, which a part's head does not carry: the whole scan decides.
    writeFileSync(join(dir, 'logs/a', 'imported.jsonl'), '{}\n');
    const parts = [0, 1].map((index) => newestLogs(dir, 2_000, { index, of: 2 }));
    assert.is(mergeHeads(parts, 2_000), undefined);
    assert.is(mergeHeads([parts[0]!, null], 5), undefined);
  } finally {
    cleanup();
  }
});

test('a key group is whole in the head: the same id elsewhere, and logs not named by id that share a base', () => {
  const { dir, cleanup } = tempDir();
  try {
    for (const d of ['logs/a', 'logs/b']) mkdirSync(join(dir, d), { recursive: true });
    for (let s = 0; s < 20; s++) writeFileSync(join(dir, 'logs/a', `${id(s)}-1.jsonl`), '{}\n');
    // The newest second is in both directories: cut at 1, the head must still hold both.
    writeFileSync(join(dir, 'logs/b', `${id(19)}-1.jsonl`), '{}\n');
    const two = newestLogs(dir, 1);
    assert.equal(two?.logs.map((l) => l.rel).sort(), [`logs/a/${id(19)}-1.jsonl`, `logs/b/${id(19)}-1.jsonl`]);
    // "x y" and "x_y" share the key base x_y: placed by modification time, the newer brings the older.
    writeFileSync(join(dir, 'logs/a/x y.jsonl'), '{}\n');
    writeFileSync(join(dir, 'logs/b/x_y.jsonl'), '{}\n');
    utimesSync(join(dir, 'logs/a/x y.jsonl'), 4_000_000_000, 4_000_000_000);
    utimesSync(join(dir, 'logs/b/x_y.jsonl'), 1_000_000, 1_000_000);
    assert.equal(newestLogs(dir, 1)?.logs.map((l) => l.rel), ['logs/a/x y.jsonl', 'logs/b/x_y.jsonl']);
  } finally {
    cleanup();
  }
});

test('only files in reach: a directory or a link out is no log; companions are named', () => {
  const { dir, cleanup } = tempDir();
  const outside = tempDir();
  try {
    mkdirSync(join(dir, 'logs/a'), { recursive: true });
    writeFileSync(join(dir, 'logs/a', `${id(1)}-1.jsonl`), '{}\n');
    writeFileSync(join(dir, 'logs/a', `${id(1)}-1.flow.jsonl`), '');
    mkdirSync(join(dir, 'logs/a', `${id(9)}-dir.jsonl`));
    writeFileSync(join(outside.dir, 'far.jsonl'), '{}\n');
    symlinkSync(join(outside.dir, 'far.jsonl'), join(dir, 'logs/a', `${id(8)}-out.jsonl`));
    symlinkSync(join(dir, 'logs/a', `${id(1)}-1.jsonl`), join(dir, 'logs/a', `${id(7)}-in.jsonl`));
    mkdirSync(join(dir, 'console'));
    writeFileSync(join(dir, 'console', `${id(9)}-own.jsonl`), '{}\n');
    const head = newestLogs(dir, 10);
    assert.equal(head?.logs, [
      { rel: `logs/a/${id(7)}-in.jsonl`, name: `${id(7)}-in.jsonl`, flowLog: false, confirmLog: false },
      { rel: `logs/a/${id(1)}-1.jsonl`, name: `${id(1)}-1.jsonl`, flowLog: true, confirmLog: false },
    ]);
    assert.equal(walkOrder(dir), head?.logs.map((l) => l.rel));
  } finally {
    cleanup();
    outside.cleanup();
  }
});

test.run();
