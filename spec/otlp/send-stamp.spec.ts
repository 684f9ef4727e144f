// What the stream remembers a session as (`size:mtimeMs`, log then flow log) is read off the index's exact
// stamps instead of a stat per session per tick: it must equal what fs.Stats gives for the same file, or a
// session remembered by an earlier build would be sent again. Real files, random modification times.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendStamp } from '../../server/otlp/ended-sessions.ts';
import { exactStamp } from '../../server/store/stamp.ts';
import { tempDir } from '../support/fixtures.ts';
import { check } from '../props/check.ts';

const stamps = suite('otlp send stamp');
const dir = tempDir('engine-send-stamp-');
stamps.after(() => dir.cleanup());

const LOG = join(dir.dir, 'a.jsonl');
const FLOW = join(dir.dir, 'a.flow.jsonl');

/** Sets a file's mtime (seconds, fractional) and answers its index stamp and its fs.Stats `size:mtimeMs`. */
function stamped(path: string, bytes: number, mtimeS: number): { exact: string; stats: string; ms: number } {
  writeFileSync(path, 'x'.repeat(bytes));
  utimesSync(path, mtimeS, mtimeS);
  const st = statSync(path);
  return { exact: exactStamp(statSync(path, { bigint: true })), stats: `${st.size}:${st.mtimeMs}`, ms: st.mtimeMs };
}

stamps('a log alone, and with its flow log, read off the index stamp as fs.Stats gives it', async () => {
  const mtime = fc.double({ min: 1e9, max: 4e9, noNaN: true });
  await check(
    fc.property(fc.nat(4096), mtime, fc.nat(4096), mtime, (logBytes, logS, flowBytes, flowS) => {
      const log = stamped(LOG, logBytes, logS);
      const flow = stamped(FLOW, flowBytes, flowS);
      assert.equal(sendStamp(`${log.exact}|-|-`, false), { stamp: log.stats, changedMs: log.ms });
      assert.equal(sendStamp(`${log.exact}|${flow.exact}|-`, true), { stamp: `${log.stats}+${flow.stats}`, changedMs: Math.max(log.ms, flow.ms) });
    }),
    60,
  );
});

stamps('a stamp that is not a file stamp gives nothing to send by', () => {
  assert.is(sendStamp('-|-|-', false), null);
  assert.is(sendStamp('1:2:3:4|-|-', true), null);
  assert.is(sendStamp('', false), null);
});

stamps.run();
