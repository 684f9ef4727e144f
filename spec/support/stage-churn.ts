// A child process for the kill test: over the deployment of the committed flow named on the command line, it
// commits the staged flow and rolls it back, again and again, until it is killed. Each step goes through the
// engine's commitStaged / rollbackFlow with the console's writeFileAtomic, as the API's worker does. It
// prints `done` after each step, so the test kills it at a point it knows work is under way. With a second
// argument N it kills itself with SIGKILL right after its N-th whole-file write, to hit every boundary between
// the files of a commit and of a rollback exactly.
// Usage: tsx spec/support/stage-churn.ts /abs/NAME.flow.json [N]
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../server/data/atomic.ts';
import { commitStaged, rollbackFlow, stagePaths } from '../../server/engine/stage.ts';

const committed = process.argv[2];
if (!committed) throw new Error('name the committed flow');
const killAfter = process.argv[3] ? Number(process.argv[3]) : Infinity;
const paths = stagePaths(committed);
let writes = 0;
async function write(path: string, data: Uint8Array): Promise<void> {
  await writeFileAtomic(path, data);
  if (++writes >= killAfter) process.kill(process.pid, 'SIGKILL');
}

let now = 1_790_000_000_000;
process.stdout.write('ready\n');
for (;;) {
  now += 60_000;
  const same = readFileSync(paths.committed).equals(readFileSync(paths.staged));
  if (same) await rollbackFlow(paths, null, 'churn', now, write);
  else await commitStaged(paths, 'churn', null, now, write);
  process.stdout.write('done\n');
}
