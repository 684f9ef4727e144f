import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTexts, fixtureHome, fixturesDir, referenceDir } from '../support/fixtures.ts';
import { loadFlow, readProgram } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/flow-show.ts';
import { programText } from '../../server/engine/program-text.ts';

const render = suite('render');
const flowAt = (path: string) => loadFlow(readFileSync(path, 'utf8'));
const shop = flowAt(join(fixtureHome, 'shop.flow.json'));
const promoted = flowAt(join(fixtureHome, 'shop.promoted.flow.json'));

/** texts.json names the shop's source claude-sonnet-5 and has the older promotion phrase (reference README). */
const asOurs = (text: string) =>
  text.replaceAll('claude-sonnet-5', 'quickstart').replaceAll('made later in the session', 'made in a later LLM turn');

/** The expected flow-show of shop.flow.json, from flow-review.md §4.7. */
function referenceShopText(): string {
  const page = readFileSync(join(referenceDir, 'flow-review.md'), 'utf8');
  const start = page.indexOf('````markdown\n', page.indexOf('### 4.7'));
  const end = page.indexOf('\n````', start);
  return `${page.slice(start + '````markdown\n'.length, end)}\n`;
}

render('flow-show of the shop flow at 0.3 equals the reference text byte for byte', () => {
  assert.fixture(renderFlowShow(shop, 0.3), referenceShopText());
});

render('flow-show of the shop flow equals the CLI text in texts.json', async () => {
  const texts = await cliTexts();
  assert.fixture(renderFlowShow(shop, 0.3), asOurs(texts.shop_review as string));
});

render('flow-show of the promoted flow equals the CLI text, with the promotion table', async () => {
  const texts = await cliTexts();
  const text = renderFlowShow(promoted, 0.3);
  assert.fixture(text, asOurs(texts.shop_promoted_review as string));
  assert.ok(text.includes('| `cancel_pending_order` | 2 | 0 | — | 0.00 | 0 | no |'));
});

render('at 0.95 only the threshold and the three verdicts change', () => {
  const text = renderFlowShow(shop, 0.95);
  const expected = referenceShopText()
    .replace('at a threshold of 0.3', 'at a threshold of 0.95')
    .replace('looks up `get_user_details` 1.00', 'hands back: `get_user_details` 1.00')
    .replace('looks up `get_order_details` 0.50', 'hands back: `get_order_details` 0.50')
    .replace('looks up `get_order_details` 1.00', 'hands back: `get_order_details` 1.00');
  assert.fixture(text, expected);
});

render('the old habit flow renders with the habit decider and no pinned inputs', () => {
  const text = renderFlowShow(flowAt(join(fixturesDir, 'flows/retail-5-sessions.flow.json')), 0.3);
  assert.ok(text.includes('It has no arbiter: it decides with the habit alone and asks no one.\n'));
  assert.ok(
    text.includes(
      '| `get_order_details` | `get_order_details` (6), `get_product_details` (2) | get_order_details 67%, get_product_details 22%, respond 11% (of 9) | looks up `get_order_details` 0.67 × 0.90 = 0.60 |\n',
    ),
  );
  assert.ok(
    text.includes(
      '| `find_user_id_by_name_zip` | `get_order_details` (1) | get_order_details 100% (of 1) | looks up `get_order_details` 1.00 × 0.90 = 0.90 |\n',
    ),
  );
  assert.ok(text.includes('| `get_product_details` | `product_id` | `get_order_details` at `$.items[*].product_id` (3 of 3) | 0.50 (0/0), 0.60 (2/3) |\n'));
  assert.not.ok(text.includes('## Pinned inputs'));
  assert.not.ok(text.includes('## Arbiter'));
  assert.ok(text.endsWith('|\n'));
});

render('the shipped-arbiter flow renders its arbiter section', () => {
  const text = renderFlowShow(flowAt(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json')), 0.3);
  assert.ok(text.includes('Its arbiter was fitted on 4,513 held-out decisions and asks `jev-latest`.\n'));
  const arbiter = text.slice(text.indexOf('## Arbiter'));
  assert.ok(arbiter.startsWith('## Arbiter\n\nOne fit, which judges every session.\n\n| Weight on | Value |\n|---|---|\n'));
  for (const w of ['0.272', '0.167', '0.345', '0.231', '0.934', '0.256', '0.303', '0.323']) assert.ok(arbiter.includes(` | ${w} |\n`), w);
  assert.ok(arbiter.includes('| predicate `list_pending` | 0.934 |\n'));
  assert.ok(arbiter.includes('at the held-out decisions of 18 sites: its pick was the agent\'s step at 75%, and the agent\'s step was among its options at 99%.\n'));
  assert.ok(arbiter.includes('- `must_ask` (weighed): Does the agent need something'));
});

render('a program that is not the standard run prints with minimal parentheses and says so', () => {
  const program = readProgram({
    fugue_program: 1,
    body: [
      { stmt: 'let', var: 'x', value: { op: 'mul', lhs: { op: 'add', lhs: { op: 'int', value: 1 }, rhs: { op: 'int', value: 2 } }, rhs: { op: 'f64', value: 3 } } },
      { stmt: 'let', var: 'y', value: { op: 'neg', arg: { op: 'f64', value: 2 } } },
      {
        stmt: 'if',
        cond: { op: 'lt', lhs: { op: 'var', name: 'x' }, rhs: { op: 'sub', lhs: { op: 'int', value: 4 }, rhs: { op: 'sub', lhs: { op: 'int', value: 1 }, rhs: { op: 'int', value: 1 } } } },
        then: [{ stmt: 'factor', logw: { op: 'var', name: 'y' } }],
        else: [{ stmt: 'assign', var: 'x', value: { op: 'bool', value: true } }],
      },
    ],
    ret: { op: 'var', name: 'x' },
  });
  assert.is(
    programText(program),
    'let x = (1 + 2) * 3.0;\nlet y = -(2.0);\nif x < 4 - (1 - 1) {\n    factor(y);\n} else {\n    x = true;\n}\npure(x)',
  );
  const raw = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as { program: { body: unknown[] } };
  raw.program.body.unshift({ stmt: 'let', var: 'extra', value: { op: 'int', value: 1 } });
  const text = renderFlowShow(loadFlow(JSON.stringify(raw)), 0.3);
  assert.ok(text.includes('**This is not the standard run.** Review it as code the flow runs.\n\n~~~text\nlet extra = 1;\nlet prev = call;\n'));
});

render.run();
