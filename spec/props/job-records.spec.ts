// Properties of reading job records (console/jobs/*.json) at start: whatever the files hold (mutated real
// records, random JSON, bytes that are not JSON), loading never throws, keeps exactly the records the
// schema takes, and orders them by creation.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobSchema } from '../../shared/jobs.ts';
import { jobsDir, loadJobs } from '../../server/jobs/store.ts';
import { tempDir } from '../support/fixtures.ts';
import { check } from './check.ts';

const props = suite('props: job records');
const t = tempDir('engine-props-jobs-');
props.after(() => t.cleanup());

const job = {
  id: '20260928T020400.548Z-ab12',
  kind: 'doctor',
  title: 'doctor',
  params: { kind: 'doctor' },
  status: 'succeeded',
  created_unix_ms: 1790561040548,
  started_unix_ms: 1790561040549,
  finished_unix_ms: 1790561040600,
  exit_code: 0,
  output: '',
  artifacts: [{ kind: 'report', path: 'x.md', key: null }],
};
type Field = keyof typeof job;
const fields = Object.keys(job) as Field[];

const record: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.array(fc.constantFrom(...fields), { maxLength: 2 }), fc.array(fc.tuple(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 })), { maxLength: 2 })).map(([dropped, changes]) => {
    const o: Record<string, unknown> = { ...job };
    for (const f of dropped) delete o[f];
    for (const [f, value] of changes) o[f] = value;
    return JSON.stringify(o, null, 2);
  }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((j) => JSON.stringify(j)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

let round = 0;
let validInAll = 0;
props('loading records never throws and keeps exactly the valid ones, oldest first', async () => {
  await check(
    fc.asyncProperty(fc.array(record, { maxLength: 6 }), async (texts) => {
      const dir = join(t.dir, String(round++));
      mkdirSync(jobsDir(dir), { recursive: true });
      let valid = 0;
      texts.forEach((text, i) => {
        writeFileSync(join(jobsDir(dir), `r${i}.json`), text);
        try {
          if (v.safeParse(JobSchema, JSON.parse(text)).success) valid++;
        } catch {
          // not JSON: not a job
        }
      });
      validInAll += valid;
      const jobs = await loadJobs(dir);
      assert.is(jobs.length, valid);
      for (let i = 1; i < jobs.length; i++) assert.ok(jobs[i - 1]!.created_unix_ms <= jobs[i]!.created_unix_ms);
      rmSync(dir, { recursive: true, force: true });
    }),
    200,
  );
  // Not vacuous: many records were jobs.
  assert.ok(validInAll >= 20, `only ${validInAll} valid records`);
});

props.run();
