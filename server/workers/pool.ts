// The only module that knows Tinypool. Reading and parsing whole logs and flows, and diffing, run here, off
// the event loop, so one big file never stalls other requests; a request's tasks and the index's run in
// separate lanes (Lane). The workers are child processes, not
// threads: a thread that runs out of heap in one big allocation (a Map or array growing past what is left)
// takes the whole process down with it (V8's "CALL_AND_RETRY_LAST" fatal error), and with it every other
// request. A child that dies fails only its own task. Tasks are named by their export in tasks.ts
// and typed from their own signatures: a wrong name or input does not compile.
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Tinypool from 'tinypool';
import type * as Tasks from './tasks.ts';
import { HEAP_GUARD_ENV } from '../engine/session/heap-guard.ts';

type TaskTable = typeof Tasks;
export type TaskName = { [K in keyof TaskTable]: TaskTable[K] extends (input: never) => unknown ? K : never }[keyof TaskTable];
type TaskFn<K extends TaskName> = TaskTable[K] extends (input: infer I) => infer O ? (input: I) => O : never;
export type TaskInput<K extends TaskName> = Parameters<TaskFn<K>>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<TaskFn<K>>>;

/** The heap each worker may use (old generation), in MB. */
const WORKER_HEAP_MB = 128;
/**
 * The index lane's: its walk lists every file at once (some 220 MB of heap at a million sessions). A log is
 * still refused there at the request lane's size (ENGINE_CONSOLE_HEAP_GUARD_MB: heap-guard.ts), so the list
 * never summarizes a log whose page could not be read.
 */
const INDEX_WORKER_HEAP_MB = 1024;
/** Each worker's young generation semi-space, in MB. */
const SEMI_SPACE_MB = 16;
/** V8's heap limit for a request's worker: the old generation and three semi-spaces, as heap_size_limit says. */
const WORKER_HEAP_LIMIT_MB = WORKER_HEAP_MB + 3 * SEMI_SPACE_MB;

/**
 * A worker process ended while it ran the task: it reached its heap cap (a file whose view needs more) or
 * crashed. Only that task fails; Tinypool starts another process for the next. The HTTP layer answers 422:
 * the file, not the console, is at fault.
 */
export class WorkerDied extends Error {}

function workerDeath(err: unknown): WorkerDied | null {
  if (!(err instanceof Error)) return null;
  const code = (err as NodeJS.ErrnoException).code;
  // A child that exits mid-task ran out of its heap, unless something killed it.
  if (code === 'ERR_WORKER_OUT_OF_MEMORY' || /^Worker (terminated|exited)/.test(err.message)) {
    return new WorkerDied(`reading it needs more than the ${WORKER_HEAP_LIMIT_MB} MB of heap a worker may use, or its worker was killed`);
  }
  return null;
}

/**
 * Which workers run a task: a request's (`interactive`, the default) or the index's (`index`: its batches,
 * walk, head scan, sweep, deferred outlines). Each lane has its own processes, the index's at a lower CPU
 * priority, so a request's work never queues behind index batches and gets the cores first.
 */
export type Lane = 'interactive' | 'index';

/** The index lane's niceness (its children set it on themselves: workers/lane-priority.ts). */
export const INDEX_LANE_NICE = 10;

export interface Pool {
  run<K extends TaskName>(name: K, input: TaskInput<K>, lane?: Lane): Promise<TaskOutput<K>>;
  /** How many worker processes the pool may run: callers split batch work by it. */
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
  const poolOptions: ConstructorParameters<typeof Tinypool>[0] = {
    filename,
    minThreads: 0,
    maxThreads: threads,
    // A worker that parsed a big log holds its heap until it ends: let idle workers go soon, and cap each
    // heap so collection starts early: a 100 MB log's view needs about 40 MB of heap (its bytes live outside
    // it). The young generation may grow to 16 MB a semi-space: with 4 MB, a cold index of 100k sessions took
    // ~4 % more time and workers' CPU (four interleaved runs); each worker's peak RSS is ~15-25 MB more.
    // The reader refuses a log at half the cap (heap-guard.ts), so that a structure doubling in one
    // allocation still fits: past the cap, a worker dies only after a long time in last-resort collections.
    idleTimeout: 10_000,
    runtime: 'child_process',
    // Results cross as V8-serialized values (byte chunks stay bytes), not JSON text.
    serialization: 'advanced',
    // --expose-gc: the heap guard of the session reader (engine/session/heap-guard.ts) collects near the cap.
    execArgv: [`--max-old-space-size=${WORKER_HEAP_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, '--expose-gc', ...execArgv],
  };
  const indexExecArgv = [`--max-old-space-size=${INDEX_WORKER_HEAP_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, '--expose-gc', ...execArgv];
  // Tinypool is loaded with the first task, not at start: the first answer does not wait for it.
  const pools: Partial<Record<Lane, Promise<Tinypool>>> = {};
  let destroyed = false;
  // Once a request has used the pool, one of its workers stays up (the sweep's tasks, in the index lane, no
  // longer keep one warm for it): a request after a quiet minute does not wait for a process to start.
  const laneOptions: Record<Lane, typeof poolOptions> = {
    interactive: { ...poolOptions, minThreads: 1 },
    index: { ...poolOptions, execArgv: indexExecArgv, env: { ENGINE_CONSOLE_WORKER_NICE: String(INDEX_LANE_NICE), [HEAP_GUARD_ENV]: String(WORKER_HEAP_LIMIT_MB) } },
  };
  const ready = (lane: Lane) => (pools[lane] ??= import('tinypool').then(({ default: Pool }) => new Pool(laneOptions[lane])));
  return {
    threads,
    run: async (name, input, lane = 'interactive') => {
      // A task asked for after the pool is destroyed must not fork new workers that outlive it.
      if (destroyed) throw new Error('the console is stopping: its worker pool is closed');
      const p = await ready(lane);
      return (p.run(input, { name }) as Promise<never>).catch((err: unknown) => {
        throw workerDeath(err) ?? err;
      });
    },
    destroy: async () => {
      destroyed = true;
      await Promise.all(Object.values(pools).map(async (p) => (await p).destroy()));
    },
  };
}
