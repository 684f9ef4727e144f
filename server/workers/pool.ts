// The only module that knows Tinypool. Reading and parsing whole logs and flows, and diffing, run here, off
// the event loop, so one big file never stalls other requests. Tasks are named by their export in tasks.ts
// and typed from their own signatures: a wrong name or input does not compile.
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import type * as Tasks from './tasks.ts';

type TaskTable = typeof Tasks;
export type TaskName = { [K in keyof TaskTable]: TaskTable[K] extends (input: never) => unknown ? K : never }[keyof TaskTable];
type TaskFn<K extends TaskName> = TaskTable[K] extends (input: infer I) => infer O ? (input: I) => O : never;
export type TaskInput<K extends TaskName> = Parameters<TaskFn<K>>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<TaskFn<K>>>;

export interface Pool {
  run<K extends TaskName>(name: K, input: TaskInput<K>): Promise<TaskOutput<K>>;
  /** How many threads the pool may use: callers split batch work by it. */
  readonly threads: number;
  destroy(): Promise<void>;
}

/** The worker entry beside the bundle (dist/workers/tasks.js), or the source when run through tsx. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const built = new URL('../workers/tasks.js', import.meta.url);
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(built))) return { filename: built.href, execArgv: [] };
  return { filename: new URL('./tasks.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

/** `entry`: the built worker file to use (tests run the source but need built workers). */
export function createPool(options: { entry?: string } = {}): Pool {
  const threads = Math.max(1, availableParallelism());
  const { filename, execArgv } = options.entry ? { filename: pathToFileURL(options.entry).href, execArgv: [] } : workerEntry();
  const pool = new Tinypool({
    filename,
    minThreads: 0,
    maxThreads: threads,
    // A thread that parsed a big log holds its heap until it ends: let idle threads go soon, and cap each
    // heap so collection starts early: a 100 MB log's view needs about 40 MB of heap (its bytes live outside
    // it), and a small young generation keeps a summary batch's short-lived garbage from swelling each thread.
    idleTimeout: 10_000,
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    execArgv,
  });
  return {
    threads,
    run: (name, input) => pool.run(input, { name }) as Promise<never>,
    destroy: () => pool.destroy(),
  };
}
