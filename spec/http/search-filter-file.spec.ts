// GET /api/search with the search filters in a file of the run in the index cache directory, read by the
// search workers: the same answers (items, cursors, `searched`, `total`) as a console keeping them in memory
// over the same sessions, a log appended to after its filter was made still found, and the file the run's
// own (0600) and gone after a clean stop.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SearchAnswerSchema } from '../../shared/search.ts';
import { FILTER_BYTES } from '../../server/store/search-filters.ts';
import { tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const search = suite('search api: filters in a file');
const cache = tempDir();
let inFile: Launched;
let inMemory: Launched;

const filterFiles = () => readdirSync(cache.dir).filter((n) => n.startsWith('search-filters.'));
const fileSize = () => filterFiles().reduce((sum, n) => sum + statSync(join(cache.dir, n)).size, 0);
/** The fixture home's readable sessions, each with a filter once the pass is done. */
const SESSIONS = 12;

search.before(async () => {
  [inFile, inMemory] = await Promise.all([launch({ env: { ENGINE_CONSOLE_INDEX_CACHE: cache.dir } }), launch()]);
  // Until the filter pass has put every session's filter in the file (a filter is written by the time a search
  // is handed its slot: each search here writes those put since).
  for (let i = 0; i < 200 && fileSize() < SESSIONS * FILTER_BYTES; i++) {
    await answer(inFile, { text: 'warming up' });
    await new Promise((r) => setTimeout(r, 50));
  }
});
search.after(async () => {
  await Promise.all([inFile.stop(), inMemory.stop()]);
  cache.cleanup();
});

/** The answer without its timing. */
async function answer(c: Launched, query: Record<string, string>): Promise<unknown> {
  const res = await c.api(`/api/search?${new URLSearchParams(query)}`);
  assert.is(res.status, 200, JSON.stringify(query));
  const { took_ms: _, ...rest } = v.parse(SearchAnswerSchema, await res.json());
  return rest;
}

async function same(query: Record<string, string>): Promise<unknown> {
  const [a, b] = await Promise.all([answer(inFile, query), answer(inMemory, query)]);
  assert.equal(a, b, JSON.stringify(query));
  return a;
}

search('the run keeps its filters in a file of its own', () => {
  const names = filterFiles();
  assert.is(names.length, 1);
  const st = statSync(join(cache.dir, names[0]!));
  assert.is(st.mode & 0o777, 0o600);
  assert.is(st.size, SESSIONS * FILTER_BYTES);
});

search('answers are those of the filters in memory: rare phrases, common ones page by page, filters', async () => {
  for (const text of ['#w41A', 'no-such-phrase-anywhere', 'example.com', 'refund', 'Hello there']) await same({ text });
  for (const query of [{ domain: 'shop' }, { mode: 'shadow' }, { in: 'arguments' }] as Record<string, string>[]) await same({ text: 'order', ...query });
  let cursor = '';
  for (let page = 0; page < 20; page++) {
    const a = (await same({ text: 'example.com', limit: '1', cursor })) as { next_cursor: string | null };
    if (a.next_cursor === null) break;
    cursor = a.next_cursor;
  }
});

search('a log appended to after its filter was made is found', async () => {
  const log = join(inFile.dataDir, 'logs', readdirSync(join(inFile.dataDir, 'logs'))[0]!);
  const name = readdirSync(log).find((n) => /^\d{8}T.*-\d+\.jsonl$/.test(n))!;
  appendFileSync(join(log, name), `${JSON.stringify({ t_ms: 9, from: 'context', message: { role: 'user', content: 'Gwx-appended-5531' } })}\n`);
  const res = await inFile.api(`/api/search?${new URLSearchParams({ text: 'gwx-appended-5531' })}`);
  const a = v.parse(SearchAnswerSchema, await res.json());
  assert.equal(a.items.map((i) => `${i.session_id}.jsonl`), [name]);
});

search('a clean stop removes the file', async () => {
  await inFile.stop();
  assert.equal(filterFiles(), []);
  inFile = await launch({ env: { ENGINE_CONSOLE_INDEX_CACHE: cache.dir } });
});

search.run();
