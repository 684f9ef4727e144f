// flow-show and flow-diff on a format-2 flow built from the shop fixture, to reach the sections the
// fixtures never print: per-site thresholds, the named-other and described-record columns, constants,
// sources by site and code features. Expected lines follow the template of flow-review.md §4–§5.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedText, fixtureHome } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/render.ts';
import { flowDiff } from '../../server/engine/diff.ts';
import { reviewView } from '../../server/engine/review.ts';

const v2 = suite('render-v2');
const shopText = readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8');

type Raw = Record<string, unknown> & { bindings: Record<string, unknown> & { sources: unknown[][] } };

function v2Flow(): string {
  const raw = JSON.parse(shopText) as Raw;
  raw.engine_flow = 2;
  raw.thresholds = { get_order_details: 0.5, get_user_details: 2 };
  raw.bindings.named_other = { get_order_details: [3, 4] };
  raw.bindings.described_read = { get_user_details: [1, 2] };
  raw.bindings.constants = [[['get_order_details', 'format'], 'full']];
  const orderSources = raw.bindings.sources[1] as [unknown, { found: unknown[] }];
  orderSources[1].found.push([['find_user_id_by_email', '$.orders[*]'], 5]);
  raw.bindings.site_sources = [
    { tool: 'get_order_details', arg: 'order_id', site: 'get_user_details', source: ['get_user_details', '$.orders[*]'], values: 2 },
    { tool: 'get_order_details', arg: 'order_id', site: 'get_user_details', source: ['find_user_id_by_email', '$.orders[*]'], values: 4 },
  ];
  raw.map = {
    fields: { get_order_details: [{ Scalar: 'status' }, { Len: '' }, { Len: 'items' }] },
    ids: [
      [['get_order_details', ['pending']], 1],
      [['get_order_details', ['delivered']], 2],
    ],
  };
  return JSON.stringify(raw);
}

v2('a format-2 flow shows its thresholds, switched-off sites and every optional section', () => {
  const text = renderFlowShow(loadFlow(v2Flow()), 0.3);
  // Our output, checked against flow-review.md §4.2, §4.4 and §4.5 (spec/fixtures/README.md); the lines
  // below are the ones the reference's template spells out for these sections.
  assert.fixture(text, expectedText('flow-show/shop-format-2.md'));
  assert.match(text, '| `get_user_details` | `get_order_details` (6) | get_order_details 100% (of 6) | hands back: switched off |\n');
  // (1 + 2 × 0.875) / 4 = 0.6875.
  assert.match(text, '| `get_user_details` | `user_id` | `find_user_id_by_email` at `$` (6 of 6) | 0.88 (6/6), 0.50 (0/0) | 0.88, as not mentioned | 0.69 (1/2) |\n');
  const order = ['## Sites', '## Bindings', '## Constants', '## Sources by site', '## Pinned inputs', '## Code features'].map((h) =>
    text.indexOf(`\n${h}\n`),
  );
  assert.equal(order, [...order].sort((a, b) => a - b));
  assert.equal(order.filter((i) => i <= 0), []);
});

v2('the view reports the per-site threshold and the switched-off site', () => {
  const view = reviewView(loadFlow(v2Flow()), 0.3);
  assert.equal(
    view.sites.map((s) => [s.threshold, s.active, s.choice?.acts]),
    [
      [null, true, true],
      [0.5, true, false],
      [2, false, false],
    ],
  );
});

v2('the diff from shop lists thresholds, new sources, constants, features and flags what the flow may now do', () => {
  const d = flowDiff(loadFlow(shopText), loadFlow(v2Flow()), 0.05, 0.3);
  assert.equal(d.review, [
    "a new binding: `get_order_details`'s `order_id` from `find_user_id_by_email` at `$.orders[*]`",
    'a new constant: `get_order_details`\'s `format` is always `"full"`',
  ]);
  const section = (title: string) => d.sections.find((s) => s.title === title)?.changes;
  assert.equal(section('Sites'), [
    'after `get_user_details`: no longer acts (switched off)',
    'after `get_order_details`: 0.50 (was: the served threshold)',
    'after `get_user_details`: off (was: the served threshold)',
  ]);
  assert.equal(section('With `reach`, at 0.3'), [
    'after `get_order_details`: hands back: `get_order_details` 0.50 × 0.93 = 0.46 (was: looks up `get_order_details` 0.50 × 0.93 = 0.46)',
    'after `get_user_details`: hands back: switched off (was: looks up `get_order_details` 1.00 × 0.93 = 0.93)',
  ]);
  assert.equal(section('Bindings'), [
    '`get_order_details` binds `order_id` from `find_user_id_by_email` at `$.orders[*]`',
    "`get_order_details`'s chance (another named): 0.93 → 0.81",
    "`get_user_details`'s chance (the described record read): 0.88 → 0.69",
  ]);
  assert.equal(section('Sources by site'), [
    '`get_order_details` `order_id` after `get_user_details`: first from `find_user_id_by_email` `$.orders[*]` (was: the most recent output)',
  ]);
  assert.equal(section('Constants'), ['`get_order_details` `format`: `"full"`']);
  assert.equal(section('Code features'), ['`get_order_details`: none → `status`, `len(output)`, `len(items)`']);
  // The sections above joined by flow-review.md §5.3's template (spec/fixtures/README.md).
  assert.fixture(d.markdown, expectedText('flow-diff/shop-to-format-2.md'));
});

v2.run();
