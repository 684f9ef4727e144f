// A flow of a newer engine, with a surprise gate, through the API: its summary carries the gate and the
// lookups' tools, its review text the Surprise section, its diff with the flow without one the Surprise change.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { FlowDetailSchema, FlowDiffViewSchema, FlowListSchema } from '../../shared/flows.ts';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const gated = suite('flow with a surprise gate');
const home = copyHome();
let c: Launched;
const GATE = { window: 4, threshold: 1.25, quantile: 0.95 };
const TEXT =
  "hands back for the rest of a session once 4 of the agent's steps in a row average more than 1.25 nats of surprise, the 0.95 quantile of held-out training sessions' most surprising windows";

gated.before(async () => {
  const file = join(home.dir, 'shop.promoted.flow.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), engine_flow: 2, surprise: GATE }));
  c = await launch({ dataDir: home.dir });
});
gated.after(async () => {
  await c?.stop();
  home.cleanup();
});

gated('the list: the gate and the lookups’ tools; a flow without a gate has null', async () => {
  const items = v.parse(FlowListSchema, await (await c.api('/api/flows')).json()).items;
  const promoted = items.find((f) => f.key === 'shop.promoted')!;
  const shop = items.find((f) => f.key === 'shop')!;
  assert.equal(promoted.surprise, GATE);
  assert.is(shop.surprise, null);
  assert.equal(shop.lookup_tools, ['get_order_details', 'get_user_details']);
  assert.is(shop.lookup_tools.length, shop.lookups);
});

gated('the review text has the Surprise section after Promotion, before Bindings', async () => {
  const d = v.parse(FlowDetailSchema, await (await c.api('/api/flows/shop.promoted')).json());
  const md = d.review_markdown;
  const at = md.indexOf('\n## Surprise\n\nThe flow ' + TEXT + ' (`learn --surprise`). ');
  assert.ok(at > md.indexOf('\n## Promotion\n') && at < md.indexOf('\n## Bindings\n'), md);
});

gated('the diff from the flow without a gate says what the gate does, and needs no review for it', async () => {
  const d = v.parse(FlowDiffViewSchema, await (await c.api('/api/flows/diff?from=shop&to=shop.promoted')).json());
  assert.equal(d.sections.map((s) => s.title), ['Promotion', 'Surprise']);
  assert.equal(d.sections[1]!.changes, [`none: it never hands back for surprise → it ${TEXT}`]);
  assert.equal(d.review, []);
});

gated.run();
