// One threshold, one truth: a served flow's page says which threshold its server serves it at and reads the
// flow there on request; a session's hand-back gauge is drawn against the threshold its reason names.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const serving = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e serving threshold');

serving.before(async (ctx) => {
  ctx.home = copyHome();
  // Server shop serves shop.flow.json at 0.4 (its sessions were decided at the proxy's 0.3).
  const file = join(ctx.home.dir, 'servers.json');
  const registry = JSON.parse(readFileSync(file, 'utf8')) as { servers: { name: string; threshold: number | null }[] };
  for (const s of registry.servers) if (s.name === 'shop') s.threshold = 0.4;
  writeFileSync(file, JSON.stringify(registry, null, 2));
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
serving.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

serving('the flow page says server shop serves it at 0.40 and shows it there on request', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop');
  const line = p.getByTestId('serving-shop');
  await line.waitFor();
  assert.match((await line.textContent()) ?? '', /Server shop serves this flow at 0\.40 \(its threshold in the registry\)/);
  assert.match((await p.getByTestId('acting').textContent()) ?? '', /At 0\.30 /);
  await p.getByTestId('serving-use-shop').click();
  await p.waitForURL(/threshold=0\.40/);
  await p.getByTestId('acting').filter({ hasText: /At 0\.40 / }).waitFor();
  await line.filter({ hasText: /the threshold shown here/ }).waitFor();
  // The Review tab reads the same threshold.
  await p.getByRole('tab', { name: 'Review' }).click();
  await p.getByText('engine flow-show, at a threshold of 0.40').waitFor();
  await ui.check('flow-serving-threshold');
});

serving('a hand-back "below 0.3" is drawn against 0.30, not the registry’s 0.40', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/sessions/20260928T020401.117Z-14662?tab=decisions');
  const row = p.locator('tr', { hasText: 'get_order_details at 0.05, below 0.3' });
  await row.first().waitFor();
  const meter = row.first().locator('[role="meter"]');
  assert.is(await meter.getAttribute('aria-label'), '0.05 against a threshold of 0.30');
});

serving.run();
