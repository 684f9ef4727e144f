// Worker tasks of the servers area: reading and loading a server's flow happens here, off the event loop
// (a flow can be large). Each returns plain data, `{ ok: true, value }` or `{ ok: false, message }`.
import { readFileSync, statSync } from 'node:fs';
import type { ToolInfo } from '../../../shared/sessions.ts';
import { hasArbiter, hasReach, loadFlow, type Flow } from '../../engine/flows.ts';
import { toolWarnings } from '../../engine/warnings.ts';
import { errorText } from '../../../shared/error-text.ts';
import { type Result, ok } from '../../result.ts';

/** What the registry needs to know of a server's flow. */
export interface ServerFlowFacts {
  /** The path names a regular file (links followed). */
  file: boolean;
  /** Why the flow does not load; null when it loads (or is not a file). */
  error: string | null;
  /** manifest.domain when it loads. */
  domain: string | null;
  arbiter: boolean;
  reach: boolean;
}

function readFlow(path: string): Flow {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`reading it: ${errorText(e)}`);
  }
  return loadFlow(text);
}

export function serverFlowTask(input: { path: string }): Result<ServerFlowFacts> {
  const st = statSync(input.path, { throwIfNoEntry: false });
  if (!st?.isFile()) return ok({ file: false, error: null, domain: null, arbiter: false, reach: false });
  try {
    const flow = readFlow(input.path);
    return ok({ file: true, error: null, domain: flow.manifest.domain, arbiter: hasArbiter(flow), reach: hasReach(flow) });
  } catch (e) {
    return ok({ file: true, error: errorText(e), domain: null, arbiter: false, reach: false });
  }
}

/** The probe's flow_warnings: the listed tools against the flow at `path`; none when it does not load. */
export function probeWarningsTask(input: { path: string; tools: ToolInfo[] }): Result<string[]> {
  try {
    return ok(toolWarnings(readFlow(input.path), input.tools, 'the server'));
  } catch {
    return ok([]);
  }
}
