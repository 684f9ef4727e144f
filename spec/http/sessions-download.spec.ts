// GET /api/sessions/download?keys=: the ticked sessions' logs, with their flow and confirmation logs, as one
// tar archive whose files are byte for byte the logs; an unknown key is 404, no key is 400.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launch, type Launched } from '../support/launch.ts';

const download = suite('sessions download');
let c: Launched;
download.before(async () => {
  c = await launch();
});
download.after(async () => {
  await c.stop();
});

/** The files of a ustar archive: name and bytes. */
function untar(buf: Buffer): { name: string; bytes: Buffer }[] {
  const out: { name: string; bytes: Buffer }[] = [];
  for (let at = 0; at + 512 <= buf.length; ) {
    const header = buf.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, ''), 8);
    let sum = 0;
    header.forEach((b, i) => (sum += i >= 148 && i < 156 ? 32 : b));
    assert.is(parseInt(header.subarray(148, 156).toString('ascii'), 8), sum, `${name}: checksum`);
    out.push({ name, bytes: buf.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

download('two sessions come as one tar: each log with its companions, whole', async () => {
  const keys = ['20260928T020401.117Z-14662', '20260928T020401.312Z-14780'];
  const res = await c.api(`/api/sessions/download?keys=${keys.join(',')}`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/x-tar');
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="sessions-2\.tar"$/);
  const files = untar(Buffer.from(await res.arrayBuffer()));
  assert.equal(
    files.map((f) => f.name),
    [
      `${keys[0]}/${keys[0]}.jsonl`,
      `${keys[0]}/${keys[0]}.flow.jsonl`,
      `${keys[1]}/${keys[1]}.jsonl`,
      `${keys[1]}/${keys[1]}.confirm.jsonl`,
    ],
  );
  const on = (rel: string) => readFileSync(join(c.dataDir, rel));
  assert.ok(files[0]!.bytes.equals(on(`served/shop/${keys[0]}.jsonl`)));
  assert.ok(files[1]!.bytes.equals(on(`served/shop/${keys[0]}.flow.jsonl`)));
  assert.ok(files[2]!.bytes.equals(on(`logs/retail/${keys[1]}.jsonl`)));
  assert.ok(files[3]!.bytes.equals(on(`logs/retail/${keys[1]}.confirm.jsonl`)));
});

download('an unknown key is 404 naming it; no key is 400', async () => {
  const res = await c.api('/api/sessions/download?keys=20260928T020401.117Z-14662,nope');
  assert.is(res.status, 404);
  assert.match(((await res.json()) as { error: string }).error, /no session "nope"/);
  for (const q of ['', '?keys=', '?keys=,']) {
    const bad = await c.api(`/api/sessions/download${q}`);
    assert.is(bad.status, 400, q);
    assert.match(((await bad.json()) as { error: string }).error, /^keys:/, q);
  }
});

download.run();
