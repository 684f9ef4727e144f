// The raw log of a log too big to fetch whole (over 4 MiB), in a real browser: an event opens to its own
// line, asked for alone (GET /api/sessions/:key/events/:i/line), and the whole log is never downloaded; a
// line past 64 KiB shows cut, with its size. Axe on the opened view.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyHome } from '../support/fixtures.ts';
import { openUi, type Ui } from './support.ts';

const raw = suite<{ ui: Ui; home: { dir: string; cleanup: () => void } }>('e2e raw big log');

const KEY = '20261104T000000.000Z-7170';
const ANSWER = 'x'.repeat(5 * 1024 * 1024);
const LINES = [
  { engine_mcp_log: 2, session: KEY, started_unix_ms: 1793750400000, server_command: ['files-mcp'], domain: 'files', agent_model: 'agent' },
  { t_ms: 4, from: 'client', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'huge.txt' } } } },
  { t_ms: 9, from: 'server', message: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: ANSWER }], isError: false } } },
].map((l) => JSON.stringify(l));

raw.before(async (ctx) => {
  ctx.home = copyHome();
  mkdirSync(join(ctx.home.dir, 'logs/files'), { recursive: true });
  writeFileSync(join(ctx.home.dir, 'logs/files', `${KEY}.jsonl`), LINES.join('\n') + '\n');
  ctx.ui = await openUi({ dataDir: ctx.home.dir });
});
raw.after(async (ctx) => {
  await ctx.ui?.stop();
  ctx.home?.cleanup();
});

raw('an event of a big log opens to its own line, without the whole log', async ({ ui }) => {
  const p = ui.page;
  const asked: string[] = [];
  p.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await ui.goto(`/sessions/${KEY}`);
  await p.getByRole('tab', { name: 'Raw log' }).click();
  await p.getByTestId('raw-event-0').waitFor();
  await p.getByTestId('raw-event-toggle-0').click();
  const first = p.getByTestId('raw-event-line-0');
  await first.waitFor();
  assert.equal(JSON.parse((await first.textContent()) ?? ''), JSON.parse(LINES[1]!));
  // The answer's line is over 64 KiB: shown cut, with its size.
  await p.getByTestId('raw-event-toggle-1').click();
  const second = p.getByTestId('raw-event-line-1');
  await second.waitFor();
  const shown = (await second.textContent()) ?? '';
  assert.ok(shown.length < 70 * 1024, `shown ${shown.length} characters`);
  assert.ok(LINES[2]!.startsWith(shown), 'the cut line is the head of the real one');
  await p.getByText(`cut: ${Buffer.byteLength(LINES[2]!)} bytes in all`).waitFor();
  assert.equal(
    asked.filter((a) => a.endsWith('/line')),
    [`/api/sessions/${KEY}/events/0/line`, `/api/sessions/${KEY}/events/1/line`],
  );
  assert.not.ok(asked.some((a) => a.endsWith('/raw')), 'the whole log is not fetched');
  await ui.check('raw-big-log');
  ui.assertNoErrors();
});

raw.run();
