// A worker of the index lane (pool.ts: Lane) lowers its own CPU priority as it starts, so a request's worker
// gets the cores first whenever both have work.
import { setPriority } from 'node:os';

const nice = Number(process.env.ENGINE_CONSOLE_WORKER_NICE);
if (Number.isInteger(nice) && nice > 0) {
  try {
    setPriority(nice);
  } catch {
    // Where priorities cannot be changed, the lanes still keep their own queues.
  }
}
