// A session's search filter as the index task reads it from the files: the log with its companions, a
// companion gone or swapped for a FIFO, and files too big to be worth a filter.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_READ_MAX, sessionFilter } from '../../server/search/filter-files.ts';
import { filterMayHold, phraseBits } from '../../server/search/trigram-filter.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('search filter files');
const t = tempDir();
test.after(() => t.cleanup());

const mayHold = (filter: Uint8Array | null, phrase: string) => filter === null || filterMayHold(filter, 0, phraseBits(phrase)!);

test('the log and its companions are all in the filter; a companion that is gone holds nothing', () => {
  const log = join(t.dir, 'a.jsonl');
  writeFileSync(log, '{"m":"from the log"}\n');
  writeFileSync(join(t.dir, 'a.flow.jsonl'), '{"reason":"from the flow log"}\n');
  writeFileSync(join(t.dir, 'a.confirm.jsonl'), '{"arguments":{"x":"Confirmed-Quokka"}}\n');
  const filter = sessionFilter({ path: log, flowLog: join(t.dir, 'a.flow.jsonl'), confirmLog: join(t.dir, 'a.confirm.jsonl') });
  assert.ok(filter !== null);
  for (const phrase of ['FROM THE LOG', 'flow log', 'confirmed-quokka']) assert.ok(mayHold(filter, phrase), phrase);
  assert.not.ok(mayHold(filter, 'Wombat-absent'));
  const gone = sessionFilter({ path: log, flowLog: null, confirmLog: join(t.dir, 'missing.confirm.jsonl') });
  assert.ok(gone !== null && mayHold(gone, 'from the log') && !mayHold(gone, 'confirmed-quokka'));
});

test('a companion swapped for a FIFO does not hold the reader; files over the limit get no filter', () => {
  const log = join(t.dir, 'b.jsonl');
  writeFileSync(log, '{"m":"hello there"}\n');
  execFileSync('mkfifo', [join(t.dir, 'b.confirm.jsonl')]);
  const started = performance.now();
  const filter = sessionFilter({ path: log, flowLog: null, confirmLog: join(t.dir, 'b.confirm.jsonl') });
  assert.ok(performance.now() - started < 1_000);
  assert.ok(mayHold(filter, 'hello there'));
  writeFileSync(join(t.dir, 'c.jsonl'), `{"m":"${'x'.repeat(FILTER_READ_MAX)}"}\n`);
  assert.is(sessionFilter({ path: join(t.dir, 'c.jsonl'), flowLog: null, confirmLog: null }), null);
});

test.run();
