// Replay from the browser: a recorded session of @modelcontextprotocol/server-filesystem (a real server from
// the registry) whose file changed since. The server page says the never-a-write rule before the run; the run
// page shows the difference at its pointer, the two answers side by side, and the write it skipped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { askServer, writeSessionLog } from '../support/replay-logs.ts';
import { openUi, uiBuilt, type Ui } from './support.ts';

const e2e = suite('e2e replay');
let ui: Ui;
let home: { dir: string; cleanup: () => void };
let tmp: { dir: string; cleanup: () => void };
let files = '';
const filesystem = join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

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
  ui = await openUi({ dataDir: home.dir });
  const res = await ui.console.api('/api/servers', { method: 'POST', body: JSON.stringify({ name: 'files', upstream: { kind: 'stdio', command }, mode: 'record' }) });
  assert.is(res.status, 200, await res.text());
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
  assert.match((await differs.getByTestId('replay-call-session').getAttribute('href')) ?? '', /^\/sessions\/20270102T000000\.000Z-7$/);

  await page.getByTestId('replay-only-diffs').check();
  assert.is(await page.getByTestId('replay-call').count(), 2);
  await ui.check('replay-run');
  ui.assertNoErrors();
});

e2e.run();
