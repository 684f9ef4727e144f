// How the property specs run fast-check: a fixed number of runs (PROPS_RUNS scales them all), and a seed
// that is printed with every failure (fast-check's report gives `seed` and `path`) and can be replayed with
// PROPS_SEED=<seed>. Not a spec itself.
import * as fc from 'fast-check';

const scale = Number(process.env.PROPS_RUNS_SCALE ?? 1);
const seed = process.env.PROPS_SEED === undefined ? undefined : Number(process.env.PROPS_SEED);

/** Runs the property `runs` times (scaled), synchronous or async; a failure throws with its seed. */
export async function check<T>(property: fc.IProperty<T> | fc.IAsyncProperty<T>, runs: number): Promise<void> {
  const numRuns = Math.max(1, Math.round(runs * scale));
  const params: fc.Parameters<T> = { numRuns, ...(seed === undefined ? {} : { seed }) };
  const out = await fc.check(property as fc.IAsyncProperty<T>, params);
  if (out.failed) {
    // The seed first, so it is seen; the shrunk counterexample and the error, cut (inputs can be huge).
    const cut = (s: string) => (s.length > 1500 ? `${s.slice(0, 1500)}… (${s.length} characters)` : s);
    const error = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(
      `property failed after ${out.numRuns} runs: replay with PROPS_SEED=${out.seed} (path ${out.counterexamplePath})\n` +
        `counterexample: ${cut(fc.stringify(out.counterexample))}\nerror: ${cut(error)}`,
    );
  }
}

/** A string as an error's message says it: what a typed failure of the module must be. */
export function messageOf(e: unknown): string {
  if (!(e instanceof Error)) throw new Error(`threw a non-Error: ${String(e)}`);
  return e.message;
}
