// Where a replayed call's differences are, for highlighting its two answers: each differing pointer, and each
// pointer above one (so a text holding JSON is shown parsed when its inside differs).
import type { ReplayCall } from '../../../shared/replay.ts';

export interface Marks {
  /** Pointers whose value differs. */
  at: Set<string>;
  /** Strings (by pointer) whose JSON inside differs: shown parsed. */
  inText: Set<string>;
}

export function marksOf(call: ReplayCall): Marks {
  const at = new Set<string>();
  const inText = new Set<string>();
  for (const d of call.diffs) {
    at.add(d.path);
    const hash = d.path.indexOf('#');
    if (hash !== -1) inText.add(d.path.slice(0, hash));
  }
  return { at, inText };
}

export const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** Calls per tool and verdict, tools by name. */
export function countsByTool(calls: readonly ReplayCall[]): { tool: string; counts: Record<ReplayCall['verdict'], number> }[] {
  const by = new Map<string, Record<ReplayCall['verdict'], number>>();
  for (const c of calls) {
    const row = by.get(c.tool) ?? { same: 0, differs: 0, error: 0, skipped_write: 0, gone: 0 };
    row[c.verdict]++;
    by.set(c.tool, row);
  }
  return [...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tool, counts]) => ({ tool, counts }));
}
