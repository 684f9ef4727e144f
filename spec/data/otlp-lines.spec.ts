// The list export's batches as the data layer makes them (data/otlp.ts), over a store of a temp copy of the
// fixture home: while they are made the index lane's put-off work waits, and it may run again once the
// export ends, whether every batch was sent or the client went away after the first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { sessionsOtlpLines } from '../../server/data/otlp.ts';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import type { OtlpSkipped } from '../../server/workers/tasks/otlp.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';

const test = suite('data: otlp lines');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

/** Whether the put-off work gets its turn now (a turn that waits would not settle within a few ms). */
async function putOffRuns(store: Store): Promise<boolean> {
  return Promise.race([store.putOff.turn().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);
}

test('the put-off work waits while the export makes its batches, and runs again once it ends or is left', async () => {
  const home = copyHome();
  try {
    const store = new Store({ dataDir: home.dir, pool, hub: new Hub(), savedIndex: null, warn: () => {} });
    await store.open();
    await store.warm(30_000);
    const files = store.catalog().sessions;
    assert.ok(files.length > 5);
    const skipped: OtlpSkipped[] = [];

    const whole = sessionsOtlpLines({ store, pool }, files, false, skipped);
    assert.ok(!(await whole.next()).done);
    assert.not.ok(await putOffRuns(store));
    while (!(await whole.next()).done);
    assert.ok(await putOffRuns(store));

    const left = sessionsOtlpLines({ store, pool }, files, false, skipped);
    assert.ok(!(await left.next()).done);
    assert.not.ok(await putOffRuns(store));
    await left.return(undefined);
    assert.ok(await putOffRuns(store));
    assert.equal(skipped, []);
    store.close();
  } finally {
    home.cleanup();
  }
});

test.run();
