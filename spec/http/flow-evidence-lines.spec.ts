// GET /api/flows/:key/sites: each listed session carries the line of its log that shows the flow's first
// decision at the site (a served lookup: the proxy's call; a hand-back or a decision in shadow: the agent's
// call it was made after), for the link /sessions/<key>?line=<N>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { FlowSitesSchema } from '../../shared/flow-sites.ts';
import { launch, type Launched } from '../support/launch.ts';

const lines = suite('flow evidence lines');
let c: Launched;
lines.before(async () => {
  c = await launch();
});
lines.after(async () => {
  await c.stop();
});

interface LogLine { from: string; message: { id: unknown; method?: string; params?: { name?: string } } }
const lineOf = (rel: string, n: number) => JSON.parse(readFileSync(join(c.dataDir, rel), 'utf8').split('\n')[n - 1]!) as LogLine;

lines('every listed session names the log line of its first decision at the site', async () => {
  const res = await c.api('/api/flows/shop/sites');
  assert.is(res.status, 200);
  const e = v.parse(FlowSitesSchema, await res.json());
  const served = 'served/shop/20260928T020401.117Z-14662.jsonl';
  const at = (site: string) => e.sites.find((s) => s.site === site)!.items.find((i) => i.key === '20260928T020401.117Z-14662')!;
  // A served lookup after get_order_details: the proxy's call to get_order_details, the third it made.
  assert.is(at('get_order_details').line, 14);
  const lookup = lineOf(served, 14);
  assert.equal([lookup.from, lookup.message.id, lookup.message.params?.name], ['proxy', 'engine-3', 'get_order_details']);
  // A hand-back after cancel_pending_order: the agent's call it came after.
  assert.is(at('cancel_pending_order').line, 19);
  const call = lineOf(served, 19);
  assert.equal([call.from, call.message.id, call.message.params?.name], ['client', 4, 'cancel_pending_order']);
  // Every item has a line, and each is a tools/call of the session's log.
  for (const s of e.sites) {
    for (const i of s.items) {
      assert.ok(i.line !== null, `${s.site} ${i.key}`);
      const rel = `${i.mode === 'served' ? 'served' : 'shadow'}/shop/${i.key}.jsonl`;
      assert.is(lineOf(rel, i.line).message.method, 'tools/call', `${rel}:${i.line}`);
    }
  }
});

lines.run();
