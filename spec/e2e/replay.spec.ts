// Replay from the browser: a recorded session of @modelcontextprotocol/server-filesystem (a real server from
// the registry) whose file changed since. The server page says the never-a-write rule before the run; the run
// page shows the difference at its pointer, the two answers side by side, and the write it skipped, each call
// linked to its line of the session. A run of the test double that is going when its page opens is followed
// live through the `replay` events: the page moves on without a reload.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ReplayRunSchema } from '../../shared/replay.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { askServer, writeSessionLog } from '../support/replay-logs.ts';
import { openUi, uiBuilt, type Ui } from './support.ts';

const e2e = suite('e2e replay');
let ui: Ui;
let home: { dir: string; cleanup: () => void };
let tmp: { dir: string; cleanup: () => void };
let files = '';
const filesystem = join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const double = join(repoRoot, 'spec/support/mcp-replay-double.mjs');
const slowText = { result: { content: [{ type: 'text', text: '{"ms":60000}' }] } };

e2e.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  tmp = tempDir('replay-e2e-');
  home = copyHome();
  files = join(tmp.dir, 'files');
  mkdirSync(files);
  writeFileSync(join(files, 'order.json'), JSON.stringify({ status: 'pending', total: 12 }));
  writeFileSync(join(files, 'notes.txt'), 'keep\n');
  const command = [process.execPath, filesystem, files];
  const reads = [{ name: 'read_text_file', arguments: { path: join(files, 'order.json') } }];
  const asked = await askServer(command, reads);
  writeFileSync(join(files, 'order.json'), JSON.stringify({ status: 'shipped', total: 12 }));
  writeSessionLog({
    dir: join(home.dir, 'logs/files'),
    session: '20270102T000000.000Z-7',
    domain: 'files',
    startedMs: 1798848000000,
    tools: asked.tools,
    calls: [
      { ...reads[0]!, answer: asked.answers[0] ?? { error: 'missing' } },
      { name: 'write_file', arguments: { path: join(files, 'notes.txt'), content: 'gone\n' }, answer: { result: { content: [{ type: 'text', text: 'ok' }] } } },
    ],
  });
  writeSessionLog({
    dir: join(home.dir, 'logs/dbl'),
    session: '20270103T000000.000Z-8',
    domain: 'dbl',
    startedMs: 1798934400000,
    tools: [{ name: 'slow', annotations: { readOnlyHint: true } }],
    calls: [{ name: 'slow', arguments: { ms: 60_000 }, answer: slowText }],
  });
  ui = await openUi({ dataDir: home.dir });
  for (const [name, cmd] of [['files', command], ['dbl', [process.execPath, double]]] as const) {
    const res = await ui.console.api('/api/servers', { method: 'POST', body: JSON.stringify({ name, upstream: { kind: 'stdio', command: cmd }, mode: 'record' }) });
    assert.is(res.status, 200, await res.text());
  }
});

e2e.after(async () => {
  await ui?.stop();
  home?.cleanup();
  tmp?.cleanup();
});

e2e('the server page says the rule; the run shows the changed field, both answers, and the skipped write', async () => {
  await ui.goto('/servers/files');
  const { page } = ui;
  const rule = (await page.getByTestId('replay-rule').textContent()) ?? '';
  assert.match(rule, 'readOnlyHint: true');
  const plan = page.getByTestId('replay-plan');
  await plan.waitFor();
  const planned = (await plan.textContent()) ?? '';
  assert.match(planned, 'read_text_file (1 call)');
  assert.match(planned, 'write_file (1 call): marked as writing in the recording, never called');
  await page.getByTestId('replay-start-button').click();
  await page.waitForURL(/\/replays\/[0-9a-f]+$/);
  await page.locator('[data-testid="replay-status"]', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
  const differs = page.locator('[data-testid="replay-call"][data-verdict="differs"]');
  await differs.waitFor();
  assert.match((await differs.getByTestId('replay-diffs').textContent()) ?? '', '/content/0/text#/status: "pending" → "shipped"');
  assert.is(await page.locator('[data-testid="replay-call"][data-verdict="skipped_write"]').count(), 1);
  assert.is(readFileSync(join(files, 'notes.txt'), 'utf8'), 'keep\n');

  await differs.getByTestId('replay-call-toggle').click();
  const marked = differs.getByTestId('replay-live').locator('.replay-diff[data-path="/content/0/text#/status"]');
  assert.match((await marked.textContent()) ?? '', '"shipped"');
  assert.match((await differs.getByTestId('replay-recorded').locator('.replay-diff[data-path="/content/0/text#/status"]').textContent()) ?? '', '"pending"');
  assert.match((await differs.getByTestId('replay-call-session').getAttribute('href')) ?? '', /^\/sessions\/20270102T000000\.000Z-7\?line=6$/);

  const bySite = page.getByTestId('replay-by-site');
  assert.equal(await bySite.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))), [
    ['read_text_file', 'no', '1', '1'],
    ['write_file', 'no', '1', '0'],
  ]);

  await page.getByTestId('replay-only-diffs').check();
  assert.is(await page.getByTestId('replay-call').count(), 2);
  await ui.check('replay-run');
  ui.assertNoErrors();
});

e2e('a run that is going is followed live: its page moves on as the replay events say, without a reload', async () => {
  const { page } = ui;
  const started = await ui.console.api('/api/servers/dbl/replay', { method: 'POST', body: '{}' });
  assert.is(started.status, 202, await started.clone().text());
  const run = v.parse(ReplayRunSchema, await started.json());
  await ui.goto(`/replays/${run.id}`);
  await page.locator('[data-testid="replay-progress"]', { hasText: 'running: 0 of 1 calls' }).waitFor();
  await page.evaluate(() => document.body.setAttribute('data-before-the-event', 'yes'));
  // Stopped from outside the page: only the event stream can tell it.
  const cancelled = await ui.console.api(`/api/replays/${run.id}/cancel`, { method: 'POST' });
  assert.is(cancelled.status, 200, await cancelled.clone().text());
  await page.locator('[data-testid="replay-status"]', { hasText: 'cancelled' }).waitFor();
  assert.is(await page.getAttribute('body', 'data-before-the-event'), 'yes', 'the page was not loaded again');
  assert.is(await page.getByTestId('replay-cancel').count(), 0);
  ui.assertNoErrors();
});

e2e.run();
