// Worker tasks of the stage area: reading the state and the history, checking a commit's candidate (which
// loads and diffs both flows), and writing a commit or rollback run here, off the event loop. Each answers plain data, and says whether a failure is a refusal
// (the files do not fit what was asked: 409) or a file that cannot be read (422).
import { writeFileAtomic } from '../../data/atomic.ts';
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
import type { ComparisonView, VersionView } from '../../../shared/stage.ts';
import { errorText } from '../../../shared/error-text.ts';
import { type Result, ok } from '../../result.ts';

/** A failure says whether it is a refusal (409) or a file that cannot be read (422). */
export type StageFailure = { ok: false; message: string; refused: boolean };
export type StageTaskResult<T> = Result<T, StageFailure>;

/** The part of the stage view that comes from the files (the route adds keys, paths and the summary). */
export interface StageFiles {
  last: ComparisonView | null;
  report_markdown: string | null;
  evidence: boolean;
  refused: string | null;
  versions: VersionView[];
  unrecorded: boolean;
}

function failed(e: unknown): StageFailure {
  return { ok: false, message: errorText(e), refused: e instanceof Refused };
}

/** The stage view's file part for the deployment of the committed flow `committed` (an absolute path). */
export async function stageView(input: { committed: string }): Promise<StageTaskResult<StageFiles>> {
  try {
    const paths = stagePaths(input.committed);
    const state = await loadState(paths.state);
    const last = state?.last ?? null;
    let refused: string | null = null;
    let learned: number | null = null;
    try {
      learned = (await candidate(paths)).learned_unix_ms;
    } catch (e) {
      refused = errorText(e);
    }
    const records = await history(paths);
    const isUnrecorded = await unrecorded(paths, records);
    const latest = records.at(-1)?.version;
    return ok({
      last: last === null ? null : comparisonView(last),
      report_markdown: last === null ? null : renderStageReport(last, paths.committed),
      evidence: last !== null && learned !== null && last.learned_unix_ms === learned,
      refused,
      versions: [...records].reverse().map((r) => versionView(r, r.version === latest && !isUnrecorded)),
      unrecorded: isUnrecorded,
    });
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
    return ok(versionView(record, true));
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
    return ok(versionView(record, true));
  } catch (e) {
    return failed(e);
  }
}
