// Worker tasks of the flows area: reading and parsing a whole flow, rendering its review, and diffing two
// flows run here, off the event loop. Each answers plain data; a flow that does not load is a value (its
// error and format number), not a failure, because the list shows it.
import { readFile, stat } from 'node:fs/promises';
import { FLOW_FILE_MAX_BYTES } from '../../../shared/limits.ts';
import type { ReviewView } from '../../../shared/flows.ts';
import { flowDiff, type FlowDiff } from '../../engine/diff.ts';
import { loadFlow, probeFormatVersion, type Flow } from '../../engine/flows.ts';
import { renderFlowShow } from '../../engine/flow-show.ts';
import { reviewView } from '../../engine/review.ts';
import { readFlowLog } from '../../engine/session/companions.ts';
import { outlineDecision, type OutlinedDecision } from '../../engine/whatif.ts';
import { errorText } from '../../../shared/error-text.ts';
import { type Result, attempt, ok } from '../../result.ts';

/** A flow file as loaded: the flow, or why it does not load. */
export interface LoadedFlow {
  /** The file's engine_flow when it reads as a u32, else 0 (even when the flow does not load). */
  format_version: number;
  flow: Flow | null;
  error: string | null;
}

/** Reads and parses one flow file. */
export async function loadFlowTask(input: { path: string }): Promise<Result<LoadedFlow>> {
  let text: string;
  try {
    const size = (await stat(input.path)).size;
    if (size > FLOW_FILE_MAX_BYTES) {
      const error = `the file is ${(size / 1048576).toFixed(1)} MiB, more than the ${FLOW_FILE_MAX_BYTES / 1048576} MiB of flow the console reads`;
      return ok({ format_version: 0, flow: null, error });
    }
    text = await readFile(input.path, 'utf8');
  } catch (e) {
    return ok({ format_version: 0, flow: null, error: `reading it: ${errorText(e)}` });
  }
  const format_version = probeFormatVersion(text);
  try {
    return ok({ format_version, flow: loadFlow(text), error: null });
  } catch (e) {
    return ok({ format_version, flow: null, error: errorText(e) });
  }
}

/** The reviewer's view at a threshold and the flow-show text. */
export function flowReviewTask(input: { flow: Flow; threshold: number }): Result<{ view: ReviewView; markdown: string }> {
  return attempt(() => ({ view: reviewView(input.flow, input.threshold), markdown: renderFlowShow(input.flow, input.threshold) }));
}

/** flow-diff of two loaded flows. */
export function flowDiffTask(input: { from: Flow; to: Flow; tolerance: number; threshold: number }): Result<FlowDiff> {
  return attempt(() => flowDiff(input.from, input.to, input.tolerance, input.threshold));
}

/** The what-if's outline of each flow log (engine/whatif.ts); null for one that cannot be read. */
export function flowLogOutlinesTask(input: { paths: string[] }): (OutlinedDecision[] | null)[] {
  return input.paths.map((path) => {
    try {
      return readFlowLog(path).decisions.map(outlineDecision);
    } catch {
      // A line past the reader's bounds: the session is left out, as its view refuses it.
      return null;
    }
  });
}
