import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTexts, expectedText, fixtureHome, fixturesDir } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { flowDiff } from '../../server/engine/diff.ts';

const diff = suite('diff');
const shopText = readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8');
const shop = loadFlow(shopText);
const promoted = loadFlow(readFileSync(join(fixtureHome, 'shop.promoted.flow.json'), 'utf8'));
const retail = loadFlow(readFileSync(join(fixturesDir, 'flows/retail-5-sessions.flow.json'), 'utf8'));
const arbiter = loadFlow(readFileSync(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json'), 'utf8'));

diff('shop to promoted shop equals the CLI flow-diff text byte for byte', async () => {
  const texts = await cliTexts();
  const d = flowDiff(shop, promoted, 0.05, 0.3);
  assert.fixture(d.markdown, texts.diff_shop_promoted as string);
  assert.equal(d.review, []);
  assert.equal(d.sections, [
    {
      title: 'Promotion',
      changes: ['none: it may act after every call → 3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3)'],
    },
  ]);
  assert.equal(d.changes, d.sections[0]!.changes);
});

diff('the reverse direction gives the single reversed promotion line', () => {
  const d = flowDiff(promoted, shop, 0.05, 0.3);
  assert.equal(d.changes, [
    '3 of 4 sites scored (at least 70% used, a lower bound of 0.50, 3 tasks, at 0.3) → none: it may act after every call',
  ]);
  assert.equal(d.review, []);
});

diff('a flow against itself has no changes', () => {
  const d = flowDiff(shop, shop, 0.05, 0.3);
  assert.equal(d.sections, []);
  // flow-review.md §5.3 with an empty review and no section.
  assert.fixture(
    d.markdown,
    '# Flow diff: shop\n\nNothing needs review: the flow runs the same program, and calls no tool, makes no lookup, binds no argument and asks no model or question it did not before.\n',
  );
});

diff('shop to the arbiter flow flags new read tools, lookups, bindings and the arbiter, in order', () => {
  const d = flowDiff(shop, arbiter, 0.05, 0.3);
  assert.equal(
    d.sections.map((s) => s.title),
    ['Tools', 'Sites', 'With the habit alone, at 0.3', 'What the agent did next in training', 'Bindings', 'Arbiter', 'Provenance'],
  );
  assert.equal(d.review.slice(4), [
    'a new lookup: `get_order_details` after `find_user_id_by_name_zip`',
    'a new lookup: `get_product_details` after `get_order_details`',
    "a new binding: `get_product_details`'s `product_id` from `get_order_details` at `$.items[*].product_id`",
    'the flow now asks `jev-latest` at each decision, with the predicates `list_pending`, `needs_options`, `must_ask`',
  ]);
  assert.equal(d.changes, d.sections.flatMap((s) => s.changes));
  // Our output, checked against §5.3 and the shape of texts.json's diff_shop_retail (spec/fixtures/README.md).
  assert.fixture(d.markdown, expectedText('flow-diff/shop-to-shipped-arbiter.md'));
  assert.match(d.markdown, "\n- `get_user_details`'s chance (not mentioned): 0.88 → 0.75\n");
  assert.match(d.markdown, '\n- after `find_user_id_by_name_zip`, a new site: looks up `get_order_details` 1.00 × 0.90 = 0.90\n');
  assert.match(d.markdown, '\n- after `get_order_details`: respond 50% → 11%\n');
});

diff('dropping the arbiter is listed, not flagged', () => {
  const d = flowDiff(arbiter, retail, 0.05, 0.3);
  assert.equal(d.review, []);
  assert.equal(d.sections.find((s) => s.title === 'Arbiter')?.changes, ['no longer has an arbiter: the habit alone decides']);
  assert.fixture(d.markdown, expectedText('flow-diff/shipped-arbiter-to-retail.md'));
});

diff('a changed program is flagged with the lines it no longer and now runs', () => {
  const raw = JSON.parse(shopText) as { program: { body: unknown[] } };
  raw.program.body.splice(1, 1, { stmt: 'let', var: 'failed', value: { op: 'bool', value: false } });
  const d = flowDiff(shop, loadFlow(JSON.stringify(raw)), 0.05, 0.3);
  assert.equal(d.sections[0], {
    title: 'Run',
    changes: ['no longer runs `let failed = call_failed;`', 'now runs `let failed = false;`'],
  });
  assert.equal(d.review, ["the flow's run changed: its program is not the one it was"]);
});

diff('a site that stops clearing the threshold shows what it does now and before', () => {
  const raw = JSON.parse(shopText) as { bindings: { agreed: Record<string, unknown> } };
  raw.bindings.agreed.get_order_details = [
    [0, 12],
    [0, 0],
  ];
  const d = flowDiff(shop, loadFlow(JSON.stringify(raw)), 0.05, 0.3);
  assert.equal(d.changes, [
    'after `get_order_details`: hands back: `get_order_details` 0.50 × 0.07 = 0.04 (was: looks up `get_order_details` 0.50 × 0.93 = 0.46)',
    'after `get_user_details`: hands back: `get_order_details` 1.00 × 0.07 = 0.07 (was: looks up `get_order_details` 1.00 × 0.93 = 0.93)',
    "`get_order_details`'s chance (not mentioned): 0.93 → 0.07",
  ]);
  assert.fixture(d.markdown, expectedText('flow-diff/shop-order-binding-fails.md'));
});

diff.run();
