// A child process for the kill test: over the deployment of the committed flow named on the command line, it
// commits the staged flow and rolls it back, again and again, until it is killed. Each step goes through the
// engine's commitStaged / rollbackFlow with the console's writeFileAtomic, as the API's worker does.
// Usage: tsx spec/support/stage-churn.ts /abs/NAME.flow.json
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../server/data/atomic.ts';
import { commitStaged, rollbackFlow, stagePaths } from '../../server/engine/stage.ts';

const committed = process.argv[2];
if (!committed) throw new Error('name the committed flow');
const paths = stagePaths(committed);
let now = 1_790_000_000_000;
process.stdout.write('ready\n');
for (;;) {
  now += 60_000;
  const same = readFileSync(paths.committed).equals(readFileSync(paths.staged));
  if (same) await rollbackFlow(paths, null, 'churn', now, writeFileAtomic);
  else await commitStaged(paths, 'churn', null, now, writeFileAtomic);
}
