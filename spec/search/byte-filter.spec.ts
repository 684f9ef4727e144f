// The byte filter in front of the search: a phrase's letterless run is looked for as plain bytes first, yet a
// log that spells those characters as `\u` escapes, or in another case around them, is still found; and a
// log is read whole to its end, however its lines fall across the reader's chunks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkReader } from '../../server/search/chunks.ts';
import { type LogHits, searchLog } from '../../server/search/log-search.ts';
import { compilePhrase } from '../../server/search/phrase.ts';
import { tempDir } from '../support/fixtures.ts';

const filter = suite<{ dir: string; cleanup: () => void }>('search byte filter');

filter.before((ctx) => {
  const t = tempDir();
  ctx.dir = t.dir;
  ctx.cleanup = t.cleanup;
});
filter.after((ctx) => ctx.cleanup());

const header = JSON.stringify({ engine_mcp_log: 2, session: 's', started_unix_ms: 0, server_command: ['x'], domain: 'shop', agent_model: null });
const said = (raw: string) => `{"t_ms":1,"from":"context","message":{"role":"user","content":"${raw}"}}`;

function hits(dir: string, name: string, lines: string[], text: string): LogHits {
  const path = join(dir, name);
  writeFileSync(path, [header, ...lines].join('\n') + '\n');
  const out: LogHits = { hits: [], count: 0 };
  searchLog(new ChunkReader(), path, 'session', compilePhrase(text), { tool: null, in: 'all' }, out, 20);
  return out;
}

filter('digits written as \\u escapes still match a phrase whose letterless run is digits', ({ dir }) => {
  const found = hits(dir, 'escaped.jsonl', [said('order #W\\u0035\\u0033\\u00392a, please')], 'w5392A');
  assert.is(found.count, 1);
  assert.equal(found.hits[0]!.snippet.slice(...found.hits[0]!.at), 'W5392a');
  assert.is(found.hits[0]!.line, 2);
});

filter('the letterless run found but the letters in another case: a match; the run absent: none', ({ dir }) => {
  assert.is(hits(dir, 'case.jsonl', [said('tracking 1z999aa10123456784 sent')], '1Z999AA10123456784').count, 1);
  assert.is(hits(dir, 'absent.jsonl', [said('tracking 1z999aa10123456785 sent')], '1Z999AA10123456784').count, 0);
});

filter('a log longer than the reader\'s chunk is read to its end, its line numbers whole', ({ dir }) => {
  const filler = said('x'.repeat(4000));
  const lines = Array.from({ length: 600 }, () => filler);
  lines.push(said('the last line holds W77z'));
  const found = hits(dir, 'long.jsonl', lines, 'w77Z');
  assert.is(found.count, 1);
  assert.is(found.hits[0]!.line, 602);
});

filter.run();
