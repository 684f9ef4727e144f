// Staged learning for the demo's shop flow (init-doctor-stage.md §3): a staged flow learned from more
// conversations than the committed one, and its state file `shop.stage.json` with a ledger of how each
// flow did on the recent sessions and the last comparison, as `engine stage` leaves them. The comparison's
// changes come from the engine's own flow-diff, so the stage view shows what a commit would change.
import { flowDiff } from '../../server/engine/diff.ts';
import { loadFlow, siteKeys, siteName } from '../../server/engine/flows.ts';
import { compare, STATE_VERSION, type StageEntry, type Side } from '../../server/engine/stage.ts';
import type { Rng } from './rng.ts';

export interface StageFiles {
  /** NAME.staged.flow.json */
  staged: string;
  /** NAME.stage.json */
  state: string;
}

const WINDOW = 50;

/** The staged flow's text and the state's, given the committed and the staged flow as written. */
export function stageFiles(domain: string, committedText: string, stagedText: string, sessionIds: string[], rng: Rng): StageFiles {
  const committed = loadFlow(committedText);
  const staged = loadFlow(stagedText);
  const sites = siteKeys(committed).map(siteName);
  const side = (usedShare: number): Side => {
    const out: Side = { sites: {}, unanswered: 0 };
    for (const site of sites) {
      if (!rng.chance(site.endsWith('(error)') ? 0.15 : 0.6)) continue;
      const decisions = rng.int(1, 3);
      const lookups = rng.int(0, decisions);
      let used = 0;
      for (let i = 0; i < lookups; i++) if (rng.chance(usedShare)) used += 1;
      out.sites[site] = { decisions, lookups, used, served: 0 };
    }
    return out;
  };
  const ledger: StageEntry[] = sessionIds.map((session) => ({ session, committed: side(0.72), staged: side(0.86) }));
  const state = { engine_stage: STATE_VERSION, domain, sessions: sessionIds, ledger };
  const diff = flowDiff(committed, staged, 0.05, 0.3);
  const last = {
    ...compare(state, WINDOW, true),
    new: sessionIds.length,
    learned_unix_ms: staged.provenance.compiled_unix_ms,
    changes: diff.sections,
    needs_review: diff.review,
    carried: [],
  };
  // The state as the CLI writes it: absent sides and zero `unanswered` left out.
  const ledgerJson = ledger.map((e) => ({ session: e.session, committed: { sites: e.committed!.sites }, staged: { sites: e.staged!.sites } }));
  return { staged: stagedText, state: JSON.stringify({ engine_stage: STATE_VERSION, domain, sessions: sessionIds, ledger: ledgerJson, last }) + '\n' };
}
