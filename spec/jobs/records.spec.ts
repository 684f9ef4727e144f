// Job files past their bounds: a record too big to be one is skipped without being read, and the output's
// tail of a huge log is read from its end only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOB_OUTPUT_TAIL_BYTES } from '../../shared/limits.ts';
import { jobsDir, loadJobs, logPath, readOutput } from '../../server/jobs/store.ts';
import { tempDir } from '../support/fixtures.ts';

const records = suite('job records past their bounds');

records('a record past 1 MiB is skipped; the tail of a 200 MB log is its last line-started 64 KiB', async () => {
  const t = tempDir();
  try {
    mkdirSync(jobsDir(t.dir), { recursive: true });
    const big = join(jobsDir(t.dir), 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 2 * 1024 * 1024);
    assert.equal(await loadJobs(t.dir), []);
    const log = logPath(t.dir, 'j1');
    writeFileSync(log, '');
    truncateSync(log, 200 * 1024 * 1024);
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('');
    appendFileSync(log, lines);
    const tail = await readOutput(t.dir, 'j1', false);
    const expected = lines.slice(lines.length - JOB_OUTPUT_TAIL_BYTES);
    assert.is(tail, expected.slice(expected.indexOf('\n') + 1));
  } finally {
    t.cleanup();
  }
});

records.run();
