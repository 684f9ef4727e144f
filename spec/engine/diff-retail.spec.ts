// The CLI's texts for the mock's retail flow (texts.json retail_review, diff_shop_retail) have no flow file
// beside them. As the reference's second reader did, this rebuilds that flow from what the texts show
// (retail_tools, retail_provenance, the site table, the bindings and the arbiter) and checks that flow-show
// and flow-diff reproduce both texts byte for byte.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTexts, fixtureHome } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/render.ts';
import { flowDiff } from '../../server/engine/diff.ts';
import { endsWith } from '../support/assert.ts';

const retail = suite('diff-retail');

interface ToolRow { name: string; kind: string; summary: string; args: Record<string, string> }

function predicate(id: string, question: string) {
  return { id, favors: 'any_lookup', question, yes: 'yes', no: 'no' };
}

/** The mock's retail flow, rebuilt from texts.json. */
function rebuiltRetail(texts: Record<string, unknown>): string {
  const tools = texts.retail_tools as ToolRow[];
  const names = tools.map((t) => t.name).sort();
  const id = (tool: string) => 1 + names.indexOf(tool);
  const sym = (tool: string) => id(tool) * 4 * 4096;
  const counts = (pairs: [number, number][]) => ({ by_action: pairs, total: pairs.reduce((s, [, n]) => s + n, 0) });
  const review = texts.retail_review as string;
  const question = (pid: string) => new RegExp(`- \`${pid}\` \\(weighed\\): (.*)`).exec(review)![1]!;
  const predicates = [
    predicate('list_pending', question('list_pending')),
    predicate('needs_options', question('needs_options')),
    predicate('must_ask', question('must_ask')),
  ];
  const flow = {
    engine_flow: 1,
    provenance: texts.retail_provenance,
    vocab: ['Respond', ...names.map((n) => ({ Tool: n }))],
    manifest: {
      domain: 'retail',
      tools: Object.fromEntries(tools.map((t) => [t.name, t.kind])),
      docs: Object.fromEntries(tools.map((t) => [t.name, { summary: t.summary, args: t.args }])),
    },
    map: { fields: {}, ids: [] },
    group: 1,
    habit: {
      base: {
        order: 2,
        alpha: 0.5,
        vocab_size: names.length + 2,
        levels: [
          [],
          [
            [[sym('find_user_id_by_email')], counts([[id('get_user_details'), 1]])],
            [[sym('find_user_id_by_name_zip')], counts([[id('get_user_details'), 2]])],
            [[sym('get_order_details')], counts([[0, 1], [id('get_order_details'), 7], [id('get_product_details'), 1]])],
            [[sym('get_product_details')], counts([[0, 3], [id('get_product_details'), 1]])],
            [[sym('get_user_details')], counts([[id('get_order_details'), 3]])],
          ],
          [],
        ],
      },
      beta: 0.5,
      top: [],
    },
    sites: {
      reads: tools.filter((t) => t.kind === 'read').map((t) => t.name),
      next: [
        [['find_user_id_by_email', false], { get_user_details: 1 }],
        [['find_user_id_by_name_zip', false], { get_user_details: 2 }],
        [['get_order_details', false], { get_order_details: 7, get_product_details: 1 }],
        [['get_product_details', false], { get_product_details: 1 }],
        [['get_user_details', false], { get_order_details: 3 }],
      ],
      feeds: {},
    },
    predicates,
    weighed: predicates,
    folds: [
      {
        weights: [1.152, 0.187, -0.499, -0.253, 0.515, -0.196, 0.628, 0.447],
        rates: {
          sites: [
            ['find_user_id_by_email', [4, 2, 4]],
            ['get_order_details', [5, 3, 5]],
            ['get_product_details', [3, 2, 3]],
            ['get_user_details', [3, 2, 3]],
          ],
          agree: 0.6,
          cover: 1,
        },
      },
    ],
    bindings: {
      args: {
        find_user_id_by_email: [1, { email: 1 }],
        find_user_id_by_name_zip: [2, { first_name: 2, last_name: 2, zip: 2 }],
        get_order_details: [10, { order_id: 10 }],
        get_product_details: [4, { product_id: 4 }],
        get_user_details: [3, { user_id: 3 }],
      },
      sources: [
        [['find_user_id_by_email', 'email'], { values: 1, found: [] }],
        [['get_order_details', 'order_id'], { values: 10, found: [[['get_user_details', '$.orders[*]'], 10]] }],
        [['get_product_details', 'product_id'], { values: 4, found: [[['get_order_details', '$.items[*].product_id'], 4]] }],
        [['get_user_details', 'user_id'], { values: 3, found: [[['find_user_id_by_email', '$'], 1], [['find_user_id_by_name_zip', '$'], 2]] }],
      ],
      agreed: {
        get_order_details: [[10, 10], [0, 0]],
        get_product_details: [[0, 0], [2, 4]],
        get_user_details: [[2, 2], [0, 0]],
      },
    },
    model: 'jev-latest',
  };
  return JSON.stringify(flow);
}

retail('the rebuilt retail flow renders the CLI review with its arbiter, byte for byte', async () => {
  const texts = await cliTexts();
  assert.fixture(renderFlowShow(loadFlow(rebuiltRetail(texts)), 0.3), texts.retail_review as string);
});

retail('flow-diff from the mock shop to retail reproduces the CLI text and its ten review items', async () => {
  const texts = await cliTexts();
  // The mock's shop flow is the fixture's with its source named claude-sonnet-5.
  const shop = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as { provenance: { sources: string[] } };
  shop.provenance.sources = ['claude-sonnet-5'];
  const d = flowDiff(loadFlow(JSON.stringify(shop)), loadFlow(rebuiltRetail(texts)), 0.05, 0.3);
  const expected = texts.diff_shop_retail as string;
  // The CLI's last line ("engine: 10 change(s) need review") goes to stderr, not into the Markdown.
  const trailer = `engine: ${d.review.length} change(s) need review\n`;
  endsWith(expected, trailer);
  assert.fixture(d.markdown, expected.slice(0, -trailer.length));
  assert.is(d.review.length, 10);
});

retail.run();
