// A log written at any moment after start, even while the store is still opening (its walk, its cold
// index), is announced by key to the event streams open at that moment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangedEventSchema } from '../../shared/events.ts';
import { launch } from '../support/launch.ts';
import { fixtureHome } from '../support/fixtures.ts';

const test = suite('http: no start race');

const DELAYS_MS = [0, 10, 50, 100];

test('logs written 0, 10, 50 and 100 ms after start are each announced by key to a stream opened at start', async () => {
  const c = await launch();
  const ctl = new AbortController();
  try {
    const started = performance.now();
    const res = await c.api('/api/events', { signal: ctl.signal });
    assert.is(res.status, 200);
    const source = join(fixtureHome, 'logs/shop/20260928T020400.548Z-14457.jsonl');
    const written = DELAYS_MS.map(
      (ms) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            copyFileSync(source, join(c.dataDir, `logs/shop/race-${ms}.jsonl`));
            resolve();
          }, Math.max(0, ms - (performance.now() - started))),
        ),
    );
    await Promise.all(written);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const missing = new Set(DELAYS_MS.map((ms) => `race-${ms}`));
    const deadline = Date.now() + 6_000;
    let text = '';
    while (missing.size && Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
      if (!chunk || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      for (const m of text.matchAll(/event: changed\ndata: (.*)\n\n/g)) {
        for (const key of v.parse(ChangedEventSchema, JSON.parse(m[1]!)).keys) missing.delete(key);
      }
    }
    assert.equal([...missing], [], text);
  } finally {
    ctl.abort();
    await c.stop();
  }
});

test.run();
