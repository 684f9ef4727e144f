import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanDataDir } from '../../server/engine/scan.ts';
import { tempDir } from '../support/fixtures.ts';

const scan = suite('scan');

scan('files deeper than three levels, oracle-cache and console/ are not scanned', () => {
  const t = tempDir();
  try {
    mkdirSync(join(t.dir, 'a/b/c'), { recursive: true });
    writeFileSync(join(t.dir, 'a/b/ok.jsonl'), '');
    writeFileSync(join(t.dir, 'a/b/c/deep.jsonl'), '');
    mkdirSync(join(t.dir, 'oracle-cache'), { recursive: true });
    writeFileSync(join(t.dir, 'oracle-cache/x.jsonl'), '');
    mkdirSync(join(t.dir, 'console/trash/1'), { recursive: true });
    writeFileSync(join(t.dir, 'console/trash/1/y.jsonl'), '');
    writeFileSync(join(t.dir, 'z.flow.jsonl'), '');
    writeFileSync(join(t.dir, 'z.confirm.jsonl'), '');
    const s = scanDataDir(t.dir);
    assert.equal(s.sessions.map((f) => f.rel), ['a/b/ok.jsonl']);
  } finally {
    t.cleanup();
  }
});

scan('a link is followed only when it stays inside the data directory', () => {
  const outside = tempDir();
  const t = tempDir();
  try {
    writeFileSync(join(outside.dir, 'secret.jsonl'), '{}\n');
    mkdirSync(join(outside.dir, 'dir'));
    writeFileSync(join(outside.dir, 'dir/s.jsonl'), '{}\n');
    mkdirSync(join(t.dir, 'logs'));
    writeFileSync(join(t.dir, 'logs/in.jsonl'), '{}\n');
    symlinkSync(join(outside.dir, 'secret.jsonl'), join(t.dir, 'out.jsonl'));
    symlinkSync(join(outside.dir, 'dir'), join(t.dir, 'outdir'));
    symlinkSync(join(t.dir, 'logs/in.jsonl'), join(t.dir, 'alias.jsonl'));
    symlinkSync(join(t.dir, 'nowhere.jsonl'), join(t.dir, 'dangling.jsonl'));
    const s = scanDataDir(t.dir);
    assert.equal(s.sessions.map((f) => f.rel), ['alias.jsonl', 'logs/in.jsonl']);
  } finally {
    t.cleanup();
    outside.cleanup();
  }
});

scan.run();
