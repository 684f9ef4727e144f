import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTexts, expectedText, fixtureHome, fixturesDir, referenceDir } from '../support/fixtures.ts';
import { loadFlow, readProgram } from '../../server/engine/flows.ts';
import { programText, renderFlowShow } from '../../server/engine/render.ts';

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
  assert.match(text, '| `cancel_pending_order` | 2 | 0 | — | 0.00 | 0 | no |');
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

// No real CLI text exists for the two retail fixture flows: the expected texts are our output, checked line by
// line against flow-review.md §4.2 (spec/fixtures/README.md).
render('the old habit flow renders with the habit decider and no pinned inputs', () => {
  const text = renderFlowShow(flowAt(join(fixturesDir, 'flows/retail-5-sessions.flow.json')), 0.3);
  assert.fixture(text, expectedText('flow-show/retail-5-sessions.md'));
  assert.match(text, 'It has no arbiter: it decides with the habit alone and asks no one.\n');
  assert.not.match(text, '## Pinned inputs');
  assert.not.match(text, '## Arbiter');
  assert.is(text.slice(-2), '|\n');
});

render('the shipped-arbiter flow renders its arbiter section', () => {
  const text = renderFlowShow(flowAt(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json')), 0.3);
  assert.fixture(text, expectedText('flow-show/retail-shipped-arbiter.md'));
  assert.match(text, 'Its arbiter was fitted on 4,513 held-out decisions and asks `jev-latest`.\n');
  const arbiter = text.slice(text.indexOf('## Arbiter'));
  assert.match(arbiter, /^## Arbiter\n\nOne fit, which judges every session\.\n\n\| Weight on \| Value \|\n\|---\|---\|\n/);
  for (const w of ['0.272', '0.167', '0.345', '0.231', '0.934', '0.256', '0.303', '0.323']) assert.match(arbiter, ` | ${w} |\n`, w);
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
  // The whole text is the reference's (§4.7) with the {STANDARD} sentence and the program text changed (§4.2).
  const expected = referenceShopText()
    .replace(
      'This is the standard run: decide, look up, and decide again, until the flow hands back or has made `max_lookups` lookups (`--flow-per-call`).',
      '**This is not the standard run.** Review it as code the flow runs.',
    )
    .replace('~~~text\nlet prev = call;\n', '~~~text\nlet extra = 1;\nlet prev = call;\n');
  assert.fixture(text, expected);
});

render.run();
