// Worker tasks of the stage area: everything that reads a whole flow, diffs two, or writes a commit or
// rollback runs here, off the event loop. Each answers plain data, and says whether a failure is a refusal
// (the files do not fit what was asked: 409) or a file that cannot be read (422).
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../data/atomic.ts';
import { flowDiff } from '../../engine/diff.ts';
import { loadFlow } from '../../engine/flows.ts';
import {
  Refused,
  candidate,
  cleanNote,
  commitStaged,
  comparisonView,
  history,
  loadState,
  rollbackFlow,
  stagePaths,
  unrecorded,
  versionView,
} from '../../engine/stage.ts';
import { renderStageReport } from '../../engine/stage-render.ts';
import { DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT } from '../../../shared/limits.ts';
import type { ComparisonView, VersionView } from '../../../shared/stage.ts';

export type StageTaskResult<T> = { ok: true; value: T } | { ok: false; message: string; refused: boolean };

/** The part of the stage view that comes from the files (the route adds keys, paths and the summary). */
export interface StageFiles {
  last: ComparisonView | null;
  report_markdown: string | null;
  evidence: boolean;
  refused: string | null;
  /** flow-diff(committed → staged) at its defaults, when asked for and both flows load. */
  diff: { review: string[]; changes: string[]; sections: { title: string; changes: string[] }[]; markdown: string } | null;
  versions: VersionView[];
  unrecorded: boolean;
}

function failed(e: unknown): { ok: false; message: string; refused: boolean } {
  return { ok: false, message: e instanceof Error ? e.message : String(e), refused: e instanceof Refused };
}

/** Both flows, each if it loads; null when either does not. */
async function bothFlows(committed: string, staged: string) {
  try {
    const [a, b] = await Promise.all([readFile(committed, 'utf8'), readFile(staged, 'utf8')]);
    return [loadFlow(a), loadFlow(b)] as const;
  } catch {
    return null;
  }
}

/**
 * The stage view's file part for the deployment of the committed flow `committed` (an absolute path).
 * `withDiff`: both flows are in the catalog, so the view carries what committing would change.
 */
export async function stageView(input: { committed: string; withDiff: boolean }): Promise<StageTaskResult<StageFiles>> {
  try {
    const paths = stagePaths(input.committed);
    const state = await loadState(paths.state);
    const last = state?.last ?? null;
    let refused: string | null = null;
    let learned: number | null = null;
    try {
      learned = (await candidate(paths)).learned_unix_ms;
    } catch (e) {
      refused = e instanceof Error ? e.message : String(e);
    }
    let diff: StageFiles['diff'] = null;
    if (input.withDiff) {
      const flows = await bothFlows(paths.committed, paths.staged);
      if (flows) {
        const d = flowDiff(flows[0], flows[1], DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT);
        diff = { review: d.review, changes: d.changes, sections: d.sections, markdown: d.markdown };
      }
    }
    const records = await history(paths);
    const isUnrecorded = await unrecorded(paths, records);
    const latest = records.at(-1)?.version;
    return {
      ok: true,
      value: {
        last: last === null ? null : comparisonView(last),
        report_markdown: last === null ? null : renderStageReport(last, paths.committed),
        evidence: last !== null && learned !== null && last.learned_unix_ms === learned,
        refused,
        diff,
        versions: [...records].reverse().map((r) => versionView(r, r.version === latest && !isUnrecorded)),
        unrecorded: isUnrecorded,
      },
    };
  } catch (e) {
    return failed(e);
  }
}

/** Commit the staged flow of the deployment of `committed`, with the state's last comparison as evidence. */
export async function stageCommit(input: {
  committed: string;
  note: string | null;
  nowMs: number;
}): Promise<StageTaskResult<VersionView>> {
  try {
    const paths = stagePaths(input.committed);
    const state = await loadState(paths.state);
    const record = await commitStaged(paths, cleanNote(input.note), state?.last ?? null, input.nowMs, writeFileAtomic);
    return { ok: true, value: versionView(record, true) };
  } catch (e) {
    return failed(e);
  }
}

/** Roll the committed flow back to version `to` (null: the one before the current). */
export async function stageRollback(input: {
  committed: string;
  to: number | null;
  note: string | null;
  nowMs: number;
}): Promise<StageTaskResult<VersionView>> {
  try {
    const paths = stagePaths(input.committed);
    const record = await rollbackFlow(paths, input.to, cleanNote(input.note), input.nowMs, writeFileAtomic);
    return { ok: true, value: versionView(record, true) };
  } catch (e) {
    return failed(e);
  }
}
