// GET /api/sessions/:key/call-lines: per call of the outline, the log's line its request is on (the line a
// `/sessions/<key>?line=<N>` address names), checked against the log itself; unknown sessions are 404.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { CallLinesSchema, SessionOutlineSchema } from '../../shared/session-views.ts';
import { launch, type Launched } from '../support/launch.ts';

const lines = suite('session call lines api');
let c: Launched;
lines.before(async () => {
  c = await launch();
});
lines.after(async () => {
  await c.stop();
});

for (const key of ['20260928T020401.117Z-14662', '20260928T020400.548Z-14457', '20260928T020401.312Z-14780']) {
  lines(`each call of ${key} is on the line named for it`, async () => {
    const outline = v.parse(SessionOutlineSchema, await (await c.api(`/api/sessions/${key}/outline`)).json());
    const res = await c.api(`/api/sessions/${key}/call-lines`);
    assert.is(res.status, 200);
    const got = v.parse(CallLinesSchema, await res.json());
    assert.is(got.lines.length, outline.calls.length);
    assert.ok(outline.calls.length > 0);
    const log = readFileSync(join(c.dataDir, outline.summary.path), 'utf8').split('\n');
    outline.calls.forEach((call, n) => {
      const line = got.lines[n];
      assert.ok(line !== null && line !== undefined, `call ${n} has a line`);
      const entry = JSON.parse(log[line - 1]!) as { message: { method?: string; id?: unknown; params?: { name?: string } } };
      assert.is(entry.message.method, 'tools/call', `line ${line}`);
      assert.is(typeof entry.message.id === 'string' ? entry.message.id : JSON.stringify(entry.message.id), call.id);
      assert.is(entry.message.params?.name, call.tool);
    });
  });
}

lines('an unknown session is 404 with a message', async () => {
  const res = await c.api('/api/sessions/20200101T000000.000Z-1/call-lines');
  assert.is(res.status, 404);
  assert.match(((await res.json()) as { error: string }).error, /no session/);
});

lines.run();
