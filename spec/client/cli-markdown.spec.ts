// The Markdown reader for the CLI's texts: structure in, a tree out, and nothing that could become markup.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineText, parseInline, parseMarkdown, safeHref, splitRow } from '../../client/src/lib/cli-markdown.ts';
import { fixturesDir } from '../support/fixtures.ts';

const cliMarkdown = suite('cli-markdown');

cliMarkdown('inline code, bold and emphasis become nodes, underscores stay text', () => {
  assert.equal(parseInline('looks up `get_order_details` **now** and *then* a_b_c'), [
    { t: 'text', text: 'looks up ' },
    { t: 'code', text: 'get_order_details' },
    { t: 'text', text: ' ' },
    { t: 'strong', children: [{ t: 'text', text: 'now' }] },
    { t: 'text', text: ' and ' },
    { t: 'em', children: [{ t: 'text', text: 'then' }] },
    { t: 'text', text: ' a_b_c' },
  ]);
});

cliMarkdown('raw HTML stays text', () => {
  const nodes = parseInline('<img src=x onerror=alert(1)> <script>x</script>');
  assert.equal(nodes, [{ t: 'text', text: '<img src=x onerror=alert(1)> <script>x</script>' }]);
});

cliMarkdown('only http and https links are links; javascript: keeps its label as text', () => {
  assert.equal(parseInline('[a](https://example.com)'), [{ t: 'link', href: 'https://example.com', children: [{ t: 'text', text: 'a' }] }]);
  assert.equal(parseInline('[click](javascript:alert(1))'), [{ t: 'text', text: 'click' }, { t: 'text', text: ')' }]);
  assert.is(safeHref(' JavaScript:alert(1)'), null);
  assert.is(safeHref('data:text/html,x'), null);
});

cliMarkdown('table rows split on pipes outside code spans', () => {
  assert.equal(splitRow('| `a|b` | c \\| d |'), ['`a|b`', 'c | d']);
});

cliMarkdown('a flow-show text reads as headings, paragraphs, lists, code and tables', () => {
  const texts = JSON.parse(readFileSync(join(fixturesDir, 'cli-outputs/texts.json'), 'utf8')) as Record<string, unknown>;
  const review = texts['shop_review'];
  assert.type(review, 'string');
  const blocks = parseMarkdown(review as string);
  const first = blocks[0]!;
  assert.is(first.t, 'heading');
  assert.ok(first.t === 'heading');
  assert.is(first.level, 1);
  assert.match(inlineText(first.children), /^Flow: /);
  const kinds = new Set(blocks.map((b) => b.t));
  for (const k of ['heading', 'paragraph', 'list', 'table', 'code']) assert.ok(kinds.has(k as never), `has a ${k}`);
  const table = blocks.find((b) => b.t === 'table');
  assert.is(table?.t, 'table');
  assert.ok(table?.t === 'table');
  assert.is(table.head.length, 4);
  assert.is(table.rows.length, 3);
  const code = blocks.find((b) => b.t === 'code');
  assert.is(code?.t, 'code');
  assert.ok(code?.t === 'code');
  assert.is(code.lang, 'text');
  assert.match(code.text, /^let prev = call;/);
});

cliMarkdown('a diff with a heading and a bullet list', () => {
  const blocks = parseMarkdown('# Flow diff: shop\n\n**Needs review:**\n\n- one\n- two `x`\n\n## Promotion\n\n- none → 3 of 4\n');
  assert.equal(blocks.map((b) => b.t), ['heading', 'paragraph', 'list', 'heading', 'list']);
  const list = blocks[2]!;
  assert.ok(list.t === 'list');
  assert.equal(list.items.map(inlineText), ['one', 'two x']);
});

cliMarkdown('numbered lists, quotes and rules', () => {
  const blocks = parseMarkdown('1. a\n2. b\n\n> quoted\n\n---\n');
  assert.equal(blocks.map((b) => b.t), ['list', 'quote', 'rule']);
  const numbered = blocks[0]!;
  assert.ok(numbered.t === 'list');
  assert.is(numbered.ordered, true);
});

cliMarkdown.run();
