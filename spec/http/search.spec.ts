// GET /api/search over HTTP on a temp copy of the fixture home: hits by part of the session, decoded text
// (quotes inside a result), keys never matched, filters, paging by cursor, a log growing after its search
// filter was made, and bad queries.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { SearchAnswerSchema, type SearchAnswer } from '../../shared/search.ts';
import { launch, type Launched } from '../support/launch.ts';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const search = suite('search api');
let c: Launched;
search.before(async () => {
  c = await launch();
});
search.after(async () => {
  await c.stop();
});

const SERVED = '20260928T020401.117Z-14662';

async function find(query: Record<string, string>): Promise<SearchAnswer> {
  const res = await c.api(`/api/search?${new URLSearchParams(query)}`);
  assert.is(res.status, 200, JSON.stringify(query));
  return v.parse(SearchAnswerSchema, await res.json());
}

search('an order id is found in the call that passed it, its answer, the conversation and the flow log', async () => {
  const a = await find({ text: '#w41A' });
  assert.is(a.total, 12);
  assert.is(a.searched, 12);
  assert.is(a.next_cursor, null);
  assert.equal(a.items.map((i) => i.key), [SERVED]);
  const hits = a.items[0]!.hits;
  const at = (line: number) => hits.filter((h) => h.line === line);
  assert.equal(at(19).map((h) => [h.where, h.tool]), [['arguments', 'cancel_pending_order']]);
  assert.equal(at(20).map((h) => [h.where, h.tool]), [['result', 'cancel_pending_order']]);
  assert.equal(at(21).map((h) => h.where), ['conversation']);
  assert.equal(at(12).map((h) => [h.where, h.tool]), [['arguments', 'get_order_details']]);
  assert.ok(hits.some((h) => h.where === 'flow'));
  for (const h of hits) assert.is(h.snippet.slice(h.at[0], h.at[1]).toLowerCase(), '#w41a');
  const lines = hits.filter((h) => h.where !== 'flow').map((h) => h.line);
  assert.equal(lines, [...lines].sort((x, y) => x - y));
  assert.is(hits.findIndex((h) => h.where === 'flow'), hits.length - 1);
});

search('a phrase with quotes matches the decoded text of a result, not its escaped JSON', async () => {
  const a = await find({ text: '"orders":["#W41a"' });
  assert.equal(a.items.map((i) => i.key), [SERVED]);
  const h = a.items[0]!.hits[0]!;
  assert.equal([h.line, h.where, h.tool], [11, 'result', 'get_user_details']);
  assert.equal((await find({ text: '\\"orders\\"' })).items, []);
});

search('keys and the engine\'s own fields match nothing', async () => {
  for (const text of ['engine_mcp_log', 'readOnlyHint', 't_ms', 'jsonrpc']) assert.equal((await find({ text })).items, [], text);
});

search('filters: domain, mode, tool and the part searched', async () => {
  const retail = await find({ text: 'example.com', domain: 'retail' });
  assert.is(retail.total, 1);
  assert.equal(retail.items.map((i) => i.domain), ['retail']);
  const served = await find({ text: 'example.com', mode: 'served' });
  assert.is(served.total, 2);
  const conv = await find({ text: '#W41a', in: 'conversation' });
  assert.ok(conv.items[0]!.hits.every((h) => h.where === 'conversation'));
  const tool = await find({ text: '#W41a', tool: 'get_order_details' });
  assert.ok(tool.items[0]!.hits.length > 0);
  assert.ok(tool.items[0]!.hits.every((h) => h.tool === 'get_order_details'));
  const none = await find({ text: '#W41a', from: '2030-01-01' });
  assert.is(none.total, 0);
});

search('pages follow the cursor to the same sessions, newest first, and end with a null cursor', async () => {
  const whole = await find({ text: 'example.com' });
  assert.ok(whole.items.length > 3);
  const keys: string[] = [];
  let cursor = '';
  let searched = 0;
  for (let page = 0; page < 20; page++) {
    const a = await find({ text: 'example.com', limit: '2', cursor });
    assert.ok(a.items.length <= 2);
    assert.ok(a.searched >= searched);
    searched = a.searched;
    keys.push(...a.items.map((i) => i.key));
    if (a.next_cursor === null) break;
    cursor = a.next_cursor;
  }
  assert.equal(keys, whole.items.map((i) => i.key));
  assert.is(searched, whole.total);
  const starts = whole.items.map((i) => i.started_unix_ms);
  assert.equal(starts, [...starts].sort((x, y) => y - x));
});

search('a log appended to after it was indexed is searched as it is now, not as its filter saw it', async () => {
  const stem = '20991231T000000.000Z-41777';
  const log = join(c.dataDir, 'logs', 'shop', `${stem}.jsonl`);
  const line = (t: number, text: string) => `${JSON.stringify({ t_ms: t, from: 'context', message: { role: 'user', content: text } })}\n`;
  // Big enough (~600 KB) that its re-reads are paced (feeder.ts): an append right after one waits for the next.
  const header = JSON.stringify({ engine_mcp_log: 2, session: stem, started_unix_ms: 4102358400000, server_command: ['shop-mcp'], domain: 'shop', agent_model: null });
  writeFileSync(log, `${header}\n${line(1, `first words ${'lorem ipsum '.repeat(50_000)}`)}`);
  assert.equal((await find({ text: 'first words' })).items.map((i) => i.session_id), [stem]);
  for (const [t, phrase] of [[2, 'Qvx-appended-8817'], [3, 'Zpw-appended-2290']] as const) {
    appendFileSync(log, line(t, `then ${phrase} came`));
    const a = await find({ text: phrase.toUpperCase() });
    assert.equal(a.items.map((i) => i.session_id), [stem], phrase);
    assert.equal(a.items[0]!.hits.map((h) => h.line), [t + 1]);
  }
});

search('bad queries answer 400 with a message', async () => {
  for (const q of ['', 'text=a', `text=${'x'.repeat(257)}`, 'text=ab&mode=live', 'text=ab&in=keys', 'text=ab&limit=x', 'text=ab&cursor=nope', 'text=ab&from=2026-13-01', 'text=ab&from=2026-02-02&to=2026-02-01']) {
    const res = await c.api(`/api/search?${q}`);
    assert.is(res.status, 400, q);
    assert.ok(v.parse(ErrorBodySchema, await res.json()).error.length > 0);
  }
});

search.run();
