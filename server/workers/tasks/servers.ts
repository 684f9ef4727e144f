// Worker tasks of the servers area: reading servers.json and loading a server's flow happen here, off the
// event loop (both can be large). Each returns plain data, `{ ok: true, value }` or `{ ok: false, message }`.
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ToolInfo } from '../../../shared/sessions.ts';
import { hasArbiter, hasReach, loadFlow, type Flow } from '../../engine/flows.ts';
import { toolWarnings } from '../../engine/warnings.ts';
import { errorText } from '../../../shared/error-text.ts';
import { type Failure, type Result, ok } from '../../result.ts';
import { entrySlices, parseRegistry, RegistryUnreadable, type EntriesText } from '../../engine/registry-file.ts';

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

/** servers.json read and checked: its entries in slices of text, or why it cannot be read (`unreadable`: its content). */
export type RegistryRead = Result<{ missing: boolean; slices: EntriesText[] }, Failure & { unreadable: boolean }>;

/** Reads and checks servers.json here: a registry of tens of thousands of entries costs the event loop only its slices. */
export async function registryTask(input: { path: string }): Promise<RegistryRead> {
  let text: string;
  try {
    text = await readFile(input.path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ok({ missing: true, slices: [] });
    return { ok: false, message: `reading servers.json: ${errorText(e)}`, unreadable: false };
  }
  try {
    return ok({ missing: false, slices: entrySlices(parseRegistry(text).servers) });
  } catch (e) {
    return { ok: false, message: errorText(e), unreadable: e instanceof RegistryUnreadable };
  }
}
