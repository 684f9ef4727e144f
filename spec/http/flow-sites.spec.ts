// GET /api/flows/:key/sites over HTTP on a temp copy of the fixture home: the sites of shop.flow.json with
// the fixture sessions behind each, a new session showing up, and the statuses (400, 404, 422).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { FlowSitesSchema } from '../../shared/flow-sites.ts';
import { launch, type Launched } from '../support/launch.ts';
import { holds } from '../support/assert.ts';

const sites = suite('flow sites api');
let c: Launched;
sites.before(async () => {
  c = await launch();
});
sites.after(async () => {
  await c.stop();
});

async function evidence(path: string) {
  const res = await c.api(path);
  assert.is(res.status, 200, path);
  return v.parse(FlowSitesSchema, await res.json());
}

async function error(path: string, status: number): Promise<string> {
  const res = await c.api(path);
  assert.is(res.status, status, path);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

const brief = (e: Awaited<ReturnType<typeof evidence>>) =>
  e.sites.map((x) => [x.site, x.in_flow, x.sessions, x.lookups, x.hand_backs, x.shadow, x.items.map((i) => `${i.key.slice(-5)} ${i.mode}`)]);

sites('the sites of shop.flow.json with the fixture sessions behind each, newest first, with counts', async () => {
  const e = await evidence('/api/flows/shop/sites');
  assert.is(e.key, 'shop');
  assert.is(e.domain, 'shop');
  const five = ['14768 shadow', '14759 shadow', '14750 shadow', '14715 served', '14662 served'];
  assert.equal(brief(e), [
    ['find_user_id_by_email', true, 5, 2, 0, 3, five],
    ['get_order_details', true, 5, 2, 2, 6, five],
    ['get_user_details', true, 5, 2, 0, 3, five],
    ['cancel_pending_order', false, 3, 0, 1, 2, ['14768 shadow', '14750 shadow', '14662 served']],
  ]);
  // The promoted copy is of the same domain: the same sessions stand behind its sites.
  assert.equal(brief(await evidence('/api/flows/shop.promoted/sites')), brief(e));
});

sites('limit caps the sessions listed per site, not their count', async () => {
  const e = await evidence('/api/flows/shop/sites?limit=1');
  assert.equal(e.sites.map((x) => [x.sessions, x.items.length]), [[5, 1], [5, 1], [5, 1], [3, 1]]);
  assert.match(await error('/api/flows/shop/sites?limit=-1', 400), /^limit: a whole number, 0 or more/);
});

sites('a session written since shows at once', async () => {
  const stem = 'served/shop/20260928T020401.117Z-14662';
  copyFileSync(join(c.dataDir, `${stem}.jsonl`), join(c.dataDir, 'served/shop/again.jsonl'));
  copyFileSync(join(c.dataDir, `${stem}.flow.jsonl`), join(c.dataDir, 'served/shop/again.flow.jsonl'));
  const e = await evidence('/api/flows/shop/sites');
  assert.equal(e.sites.map((x) => x.sessions), [6, 6, 6, 4]);
  holds(e.sites[0]!.items.map((i) => i.key), 'again');
});

sites('an unknown flow is 404 and a flow that does not load is 422', async () => {
  assert.is(await error('/api/flows/nope/sites', 404), 'no flow "nope"');
  writeFileSync(join(c.dataDir, 'broken.flow.json'), '{"engine_flow": 7}');
  assert.is(await error('/api/flows/broken/sites', 422), 'broken.flow.json does not load: flow format 7 is not supported (this build reads 1 and 2)');
});

sites.run();
