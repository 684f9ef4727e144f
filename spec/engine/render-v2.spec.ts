// flow-show and flow-diff on a format-2 flow built from the shop fixture, to reach the sections the
// fixtures never print: per-site thresholds, the named-other and described-record columns, constants,
// sources by site and code features. Expected lines follow the template of flow-review.md §4–§5.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/flow-show.ts';
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
  assert.ok(
    text.includes(
      '\n\nA search set the threshold at 2 of these sites (`thresholds`), and the table uses those. A site set above 1 is switched off.\n\n| After |',
    ),
  );
  assert.ok(text.includes('| `get_order_details` | `get_order_details` (6) | get_order_details 50%, respond 50% (of 12) | hands back: `get_order_details` 0.50 × 0.93 = 0.46 |\n'));
  assert.ok(text.includes('| `get_user_details` | `get_order_details` (6) | get_order_details 100% (of 6) | hands back: switched off |\n'));
  assert.ok(
    text.includes(
      'With nothing tried, the chance is 1/2. Where the customer had named another value at the sources, a column counts the values the binding would pass instead, and how many of them the agent went on to pass: the chance there. Where the record the customer described had been read (another of the same list returned a value they gave, such as their phone number), a column counts the same for the next of that list.\n',
    ),
  );
  assert.ok(
    text.includes(
      "| Lookup | Argument | Bound from (values found there, of the values it took) | Chance it is the agent's (right/tried): not mentioned, mentioned | Another named (used/passed) | The described record read (used/passed) |\n|---|---|---|---|---|---|\n",
    ),
  );
  assert.ok(text.includes('| `find_user_id_by_email` | `email` | nothing: the flow never makes this lookup | — | — | — |\n'));
  assert.ok(
    text.includes(
      '| `get_order_details` | `order_id` | `find_user_id_by_email` at `$.orders[*]` (5 of 12); `get_user_details` at `$.orders[*]` (12 of 12) | 0.93 (12/12), 0.50 (0/0) | 0.81 (3/4) | 0.93, as not mentioned |\n',
    ),
  );
  // (1 + 2 × 0.875) / 4 = 0.6875.
  assert.ok(text.includes('| `get_user_details` | `user_id` | `find_user_id_by_email` at `$` (6 of 6) | 0.88 (6/6), 0.50 (0/0) | 0.88, as not mentioned | 0.69 (1/2) |\n'));
  assert.ok(
    text.includes(
      '\n## Constants\n\nArguments the agent passed with one value in every call of a lookup (`learn --constants`), which the binding passes as it did:\n\n- `get_order_details` `format`: `"full"`\n',
    ),
  );
  assert.ok(
    text.includes(
      '\n## Sources by site\n\nWhere an argument has more than one source, the order the binding tries them at a site: the sources the agent took its values from there, most used first, each the most recent output first. At other sites, the most recent output first.\n\n- `get_order_details` `order_id`, after `get_user_details`: `find_user_id_by_email` `$.orders[*]` (4), `get_user_details` `$.orders[*]` (2)\n',
    ),
  );
  assert.ok(
    text.endsWith(
      '\n## Code features\n\nOutput fields that sharpen the habit. Their values are copied from training outputs into the flow (`map.ids`).\n\n- `get_order_details`: `status`, `len(output)`, `len(items)`; 2 combinations of values\n',
    ),
  );
  const order = ['## Sites', '## Bindings', '## Constants', '## Sources by site', '## Pinned inputs', '## Code features'].map((h) =>
    text.indexOf(`\n${h}\n`),
  );
  assert.equal(order, [...order].sort((a, b) => a - b));
  assert.ok(order.every((i) => i > 0));
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
});

v2.run();
