// Worker tasks of the jobs area: loading a flow is heavy (a whole file parsed), so the planner of a `stage`
// job asks a worker for the flow's domain instead of parsing on the event loop.
import { readFileSync } from 'node:fs';
import { loadFlow } from '../../engine/flows.ts';

/** The domain of the flow file at `path`, or why it does not load. */
export function flowDomainTask(path: string): { ok: true; value: string } | { ok: false; message: string } {
  try {
    return { ok: true, value: loadFlow(readFileSync(path, 'utf8')).domain };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
