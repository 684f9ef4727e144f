// How many sessions each of the list export's pool tasks takes. Between two tasks a worker waits for the
// event loop to hand it the next (a few ms each on a busy machine), so most of the export goes in big
// batches; the last ones shrink, so that no worker is left idle while the other ends a big one, and the first
// ones are the size they were, so the answer starts as soon.

/** The first batches' size (one for each task kept running). */
export const FIRST_BATCH = 128;
/** The biggest batch: some 5 MB of lines, waiting in the spool. */
export const BATCH_MAX = 384;
/** The smallest, at the end. */
export const BATCH_MIN = 32;

/**
 * The size of the next batch, with `left` sessions not yet given to a task, `running` tasks kept running and
 * `given` batches made so far: an eighth of what is left with four tasks running (twice as many batches as tasks
 * would take it all), within BATCH_MIN..BATCH_MAX.
 */
export function batchSize(left: number, running: number, given: number): number {
  const share = Math.ceil(left / (2 * running));
  const size = Math.min(given < running ? FIRST_BATCH : BATCH_MAX, Math.max(BATCH_MIN, share));
  return Math.min(size, left);
}
