import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome, fixturesDir } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { bindingChance, lookupBinding, reviewView } from '../../server/engine/review.ts';

const review = suite('review');
const shop = loadFlow(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8'));
const promoted = loadFlow(readFileSync(join(fixtureHome, 'shop.promoted.flow.json'), 'utf8'));

review('the shop view at 0.3 weighs reach and looks up after every site (flow-review.md §3.2)', () => {
  const view = reviewView(shop, 0.3);
  assert.is(view.threshold, 0.3);
  assert.equal(
    view.sites.map((s) => [s.name, s.steps, s.weighed_by, s.hand_back_share, s.verdict]),
    [
      ['find_user_id_by_email', 6, 'reach', 0, 'looks up `get_user_details` 1.00 × 0.88 = 0.88'],
      ['get_order_details', 12, 'reach', 0.5, 'looks up `get_order_details` 0.50 × 0.93 = 0.46'],
      ['get_user_details', 6, 'reach', 0, 'looks up `get_order_details` 1.00 × 0.93 = 0.93'],
    ],
  );
  const middle = view.sites[1]!;
  assert.equal(middle.next, [
    { action: 'get_order_details', share: 0.5 },
    { action: 'respond', share: 0.5 },
  ]);
  assert.equal(middle.lookups, [
    {
      tool: 'get_order_details',
      count: 6,
      share: 0.5,
      weighed_share: 0.5,
      binding_chance: 0.9285714285714286,
      bindable: true,
      prob: 0.4642857142857143,
      acts: true,
    },
  ]);
  assert.equal(middle.choice, { tool: 'get_order_details', prob: 0.4642857142857143, acts: true });
  assert.is(middle.promoted, null);
  assert.is(middle.threshold, null);
  assert.is(view.promotion, null);
});

review('the tools, bindings and provenance read as the reference example', () => {
  const view = reviewView(shop, 0.3);
  assert.equal(view.tools[0], {
    name: 'cancel_pending_order',
    kind: 'write',
    summary: "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
    args: {},
    contract: 'order_id:string!, reason:string!',
  });
  assert.equal(view.bindings[0], {
    tool: 'find_user_id_by_email',
    calls: 6,
    chance: null,
    agreed: [
      [0, 0],
      [0, 0],
    ],
    args: [{ name: 'email', required: true, calls: 6, constant: null, sources: [] }],
  });
  assert.equal(view.bindings[1]!.chance, [0.9285714285714286, 0.5, 0.9285714285714286]);
  assert.equal(view.bindings[1]!.args[0]!.sources, [{ tool: 'get_user_details', path: '$.orders[*]', count: 12, share: 1 }]);
  assert.equal(view.provenance, {
    engine: '0.1.0',
    sources: ['quickstart'],
    habit_episodes: 6,
    arbiter_cases: 0,
    compiled_unix_ms: 1790561041051,
  });
});

review('a lookup without a source cannot bind, so its chance is none', () => {
  assert.is(bindingChance(shop, 'find_user_id_by_email'), null);
  assert.is(lookupBinding(shop, 'find_user_id_by_email')?.bindable, false);
  assert.is(bindingChance(shop, 'get_user_details'), 0.875);
});

review('at 0.95 every site hands back, and 0.46 against 0.47 splits the middle site', () => {
  const high = reviewView(shop, 0.95).sites;
  assert.is.not(high.length, 0);
  assert.equal(high.map((s) => s.choice?.acts), high.map(() => false));
  assert.is(reviewView(shop, 0.95).sites[0]!.verdict, 'hands back: `get_user_details` 1.00 × 0.88 = 0.88');
  assert.is(reviewView(shop, 0.46).sites[1]!.choice?.acts, true);
  assert.is(reviewView(shop, 0.47).sites[1]!.choice?.acts, false);
});

review('the promoted flow reports its bar and each site keeps its record', () => {
  const view = reviewView(promoted, 0.3);
  assert.equal(view.promotion, {
    bar: { threshold: 0.3, min_used: 0.7, min_lower: 0.5, min_tasks: 3 },
    sites_promoted: 3,
    sites_scored: 4,
  });
  assert.equal(view.sites.map((s) => [s.active, s.promoted?.promoted]), view.sites.map(() => [true, true]));
  assert.equal(
    view.sites.map((s) => s.verdict),
    reviewView(shop, 0.3).sites.map((s) => s.verdict),
  );
});

review('a site that is not promoted hands back, and one switched off says so', () => {
  const raw = JSON.parse(readFileSync(join(fixtureHome, 'shop.promoted.flow.json'), 'utf8')) as {
    engine_flow: number;
    promoted: { sites: Record<string, { promoted: boolean }> };
    thresholds?: Record<string, number>;
  };
  raw.promoted.sites.get_order_details!.promoted = false;
  raw.engine_flow = 2;
  raw.thresholds = { get_user_details: 1.5 };
  const view = reviewView(loadFlow(JSON.stringify(raw)), 0.3);
  assert.is(view.sites[1]!.verdict, 'hands back: not promoted');
  assert.is(view.sites[1]!.active, false);
  assert.is(view.sites[1]!.choice?.acts, false);
  assert.is(view.sites[2]!.verdict, 'hands back: switched off');
  assert.is(view.sites[2]!.threshold, 1.5);
});

review('the old habit flow weighs the habit alone', () => {
  const old = loadFlow(readFileSync(join(fixturesDir, 'flows/retail-5-sessions.flow.json'), 'utf8'));
  const view = reviewView(old, 0.3);
  assert.is.not(view.sites.length, 0);
  assert.equal(view.sites.map((s) => s.weighed_by), view.sites.map(() => 'habit'));
  assert.is(view.sites[2]!.verdict, 'looks up `get_order_details` 0.67 × 0.90 = 0.60');
});

review.run();
