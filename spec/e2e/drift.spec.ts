// Drift in a real browser, run by the test-double CLI: start a drift check from a flow's page and, once the
// CLI has exited with its alarm, read the alarm on the flow.
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, tempDir } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const drift = suite<{ ui: Ui; cleanups: (() => void)[] }>('e2e drift');

const SOUNDING = {
  domain: 'shop',
  decider: 'habit',
  settings: { hazard: 0.01, window: 10, threshold: 0.5 },
  sessions: Array.from({ length: 14 }, (_, i) => ({ id: `s${i}`, decisions: 2, surprise: 0.2, disagreement: 0, unknown: 0, change: 0 })),
  alarms: [{ at: 13, change: 9, probability: 0.83, moved: [{ site: 'decide#1', before: null, after: { decisions: 4, agreement: 0.5, surprise: 1.1 } }] }],
  sounding: true,
  unknown_tools: { refund_order: 10 },
};

drift.before(async (ctx) => {
  const home = copyHome();
  const scratch = tempDir('engine-e2e-drift-');
  ctx.cleanups = [home.cleanup, scratch.cleanup];
  const control = join(realpathSync(scratch.dir), 'control.json');
  writeFileSync(control, JSON.stringify({ drift: { exit: 1, report: SOUNDING } }));
  ctx.ui = await openUi({ dataDir: realpathSync(home.dir), env: { FAKE_ENGINE_CONTROL: control } });
});
drift.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.cleanups.forEach((f) => f());
});

drift('Check for drift on a flow starts the job prefilled; its alarm then shows on the flow', async ({ ui }) => {
  const p = ui.page;
  await ui.goto('/flows/shop');
  await p.getByTestId('flow-drift').click();
  await p.waitForURL(/\/jobs\/new\?kind=drift&flow=shop/);
  await p.getByTestId('job-command').filter({ hasText: /^engine drift --flow \S+\/shop\.flow\.json --sessions \S+\/logs\/shop --oracle replay / }).waitFor();
  await p.getByTestId('job-start').click();
  await p.waitForURL(/\/jobs\/[^/]+$/);
  await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
  await ui.goto('/flows/shop');
  const alarm = p.getByTestId('drift-alarm');
  await alarm.waitFor();
  const text = (await alarm.textContent()) ?? '';
  assert.match(text, 'The agent may have changed under this flow');
  assert.match(text, 'over 14 sessions, a change likeliest 5 sessions ago, at 83%');
  assert.match(text, 'decide#1');
  assert.match(text, 'refund_order');
  await ui.goto('/flows');
  await p.getByTestId('drift-badge-shop').waitFor();
  await ui.check('flow-drift-alarm');
});

drift.run();
