// A drift job that ended with its alarm shows an Alarm badge on the Jobs list and on its page; asking for a
// drift job of an engine without drift starts a learn job instead and says why.
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { JobSchema } from '../../shared/jobs.ts';
import { copyHome, tempDir } from '../support/fixtures.ts';
import { openUi } from './support.ts';

const jobs = suite('e2e job alarm and the drift fallback');

const QUIET_REPORT = { domain: 'shop', decider: 'habit', settings: { hazard: 0.01, window: 10, threshold: 0.5 }, sessions: [], alarms: [], sounding: true, unknown_tools: {} };

jobs('a drift job that sounded shows Alarm beside Succeeded, on the list and on its page', async () => {
  const home = copyHome();
  const scratch = tempDir('engine-e2e-alarm-');
  const control = join(realpathSync(scratch.dir), 'control.json');
  writeFileSync(control, JSON.stringify({ drift: { exit: 1, report: QUIET_REPORT } }));
  const ui = await openUi({ dataDir: realpathSync(home.dir), env: { FAKE_ENGINE_CONTROL: control } });
  try {
    const res = await ui.console.api('/api/jobs', { method: 'POST', body: JSON.stringify({ kind: 'drift', flow: 'shop', sessions: 'logs/shop' }) });
    assert.is(res.status, 202);
    const { id } = v.parse(JobSchema, await res.json());
    const p = ui.page;
    await ui.goto(`/jobs/${id}`);
    await p.getByRole('heading', { name: /Succeeded/ }).waitFor({ timeout: 15_000 });
    await p.getByTestId('job-alarm').waitFor();
    await ui.goto('/jobs');
    const row = p.locator('tr', { hasText: 'Drift of shop' });
    await row.getByTestId('job-alarm').waitFor();
    assert.match((await row.textContent()) ?? '', /Succeeded\s*Alarm/);
    await ui.check('jobs-alarm');
  } finally {
    await ui.stop();
    home.cleanup();
    scratch.cleanup();
  }
});

jobs('/jobs/new?kind=drift of an engine without drift is a learn job, with the reason', async () => {
  const ui = await openUi({ env: { FAKE_ENGINE_NO_DRIFT: '1' } });
  try {
    const p = ui.page;
    await ui.goto('/jobs/new?kind=drift&flow=shop');
    const notice = p.getByTestId('job-kind-unoffered');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /has no drift command \(it did not answer engine drift --help\), so no drift job\s+can run here: the form is a learn job instead/);
    await p.waitForURL(/kind=learn/);
    assert.is(await p.getByTestId('kind-learn').isChecked(), true);
    assert.is(await p.getByTestId('kind-drift').count(), 0, 'drift is not offered');
  } finally {
    await ui.stop();
  }
});

jobs.run();
