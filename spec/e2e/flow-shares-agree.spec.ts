// The Flow tab and the Review read one model: after each site, the sites table lists what the agent did next
// with the review's shares (respond and a write included, nothing invented as "handed back"), and each
// graph edge's share is the review's share of that lookup.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const shares = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e flow shares agree');

interface HabitTable { by_action: [number, number][]; total: number }

shares.before(async (ctx) => {
  ctx.home = copyHome();
  // After get_order_details the agent responded 9 times, looked it up again 9 times and cancelled twice.
  const file = join(ctx.home.dir, 'shop.flow.json');
  const flow = JSON.parse(readFileSync(file, 'utf8')) as { habit: { base: { levels: [number[], HabitTable][][] } } };
  const at = flow.habit.base.levels[1]!.find(([context]) => context.length === 1 && context[0] === 49152);
  assert.ok(at, 'the fixture has the get_order_details context');
  at[1].by_action = [[0, 9], [1, 2], [3, 9]];
  at[1].total = 20;
  writeFileSync(file, JSON.stringify(flow));
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
shares.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

/** The review's "What the agent did next" per site: tool → [action, "NN%"][]. */
function reviewNext(markdown: string): Map<string, [string, string][]> {
  const out = new Map<string, [string, string][]>();
  for (const line of markdown.split('\n')) {
    const m = /^\| `([^`]+)` \| [^|]* \| (.+) \(of [\d,]+\) \| /.exec(line);
    if (!m) continue;
    out.set(m[1]!, m[2]!.split(', ').map((part) => {
      const [action, pct] = part.split(' ');
      return [action!, pct!];
    }));
  }
  return out;
}

shares('the sites table and the graph show the review’s shares, at the page’s threshold', async ({ ui }) => {
  const p = ui.page;
  const detail = (await (await ui.console.api('/api/flows/shop')).json()) as { review_markdown: string };
  const review = reviewNext(detail.review_markdown);
  assert.equal(review.get('get_order_details'), [['get_order_details', '45%'], ['respond', '45%'], ['cancel_pending_order', '10%']]);

  await ui.goto('/flows/shop');
  await p.getByTestId('site-get_order_details').waitFor();
  for (const [site, expected] of review) {
    const items = p.getByTestId(`site-${site}`).getByTestId('next-shares').locator('li');
    const shown = await items.evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-action') ?? '', li.querySelector('.share-pct')?.textContent ?? '']));
    assert.equal(shown, expected, `after ${site}`);
  }
  assert.is(await p.getByText(/handed back to the model/).count(), 0, 'no share made up as handed back');

  const edges = await p.locator('.fg-edge').evaluateAll((gs) =>
    gs.map((g) => ({ title: g.querySelector('title')?.textContent ?? '', share: g.querySelector('.fg-share')?.textContent ?? '' })),
  );
  assert.ok(edges.length >= 3, 'the graph has its edges');
  for (const e of edges) {
    const m = /^After (\S+): (\S+?)(?: again)?, /.exec(e.title);
    assert.ok(m, e.title);
    const want = review.get(m[1]!)?.find(([action]) => action === m[2])?.[1];
    assert.is(e.share, want, `edge ${m[1]} → ${m[2]}`);
  }
  await p.getByRole('tab', { name: 'Review' }).click();
  await p.getByText('engine flow-show, at a threshold of 0.30').waitFor();
  await ui.check('flow-shares-agree');
});

shares.run();
