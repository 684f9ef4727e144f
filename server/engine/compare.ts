// Two sessions lined up (issue 11): each side's calls and flow decisions in order, then an alignment by tool
// and order that a person would agree with. A pair is two calls of the same tool (an agent's call may pair
// with a flow's lookup: that is the point of comparing without and with a flow); a pair with the same
// arguments outweighs two pairs that differ in them, so identical calls anchor the alignment. Calls of
// different tools never pair, and hand-backs and shadow decisions always stand alone on their side.
// Pure: it takes the two single-session views (and summaries) and returns the comparison.
import type { ClosestSession, CompareItem, CompareRow, SessionComparison } from '../../shared/compare.ts';
import type { SessionDetail, SessionSummary } from '../../shared/sessions.ts';
import { sortKeys } from './session/json.ts';
import type { IndexedSession } from './sessions.ts';

/** Weights of a pair: the same call twice, or the same tool called with other arguments. */
const SAME_CALL = 5;
const SAME_TOOL = 2;
/** Above this many cells the alignment is greedy (a long log against a long log), not the full table. */
const TABLE_CELLS_MAX = 4_000_000;
/** How far ahead the greedy alignment looks for a partner. */
const GREEDY_LOOKAHEAD = 200;

/** A row's side with what the alignment compares. */
interface Entry {
  item: CompareItem;
  /** The tool, for calls only: decisions never pair. */
  tool: string | null;
  /** The arguments as sorted JSON text, for calls only. */
  args: string | null;
}

const argsText = (value: unknown) => JSON.stringify(sortKeys(value ?? null));

/**
 * One session as the compare page reads it: its calls in log order, each decision that is not a lookup the
 * flow made (those are the lookup calls) right after the calls that followed the agent's call it ran after.
 */
export function sideOf(d: SessionDetail): Entry[] {
  const made = new Set<number>();
  for (const c of d.calls) if (c.by === 'flow' && c.decision !== null) made.add(c.decision);
  const standing = new Map<string, number[]>();
  d.decisions.forEach((dec, i) => {
    if (made.has(i)) return;
    const group = standing.get(dec.after);
    if (group) group.push(i);
    else standing.set(dec.after, [i]);
  });
  const agentCalls = new Map(d.calls.filter((c) => c.by === 'agent').map((c) => [c.id, c]));

  const out: Entry[] = [];
  const flush = (after: string) => {
    const group = standing.get(after);
    if (!group) return;
    standing.delete(after);
    const call = agentCalls.get(after);
    const t = call ? (call.result_t_ms ?? call.t_ms) : 0;
    for (const i of group) {
      const dec = d.decisions[i]!;
      // A lookup the proxy could not make is logged as a lookup but acts as a hand-back.
      const kind = dec.shadow ? 'shadow' : 'hand_back';
      out.push({
        item: {
          kind,
          tool: dec.shadow ? dec.tool : null,
          arguments: dec.shadow ? dec.arguments : null,
          call: null,
          decision: i,
          site: dec.site,
          reason: dec.reason,
          t_ms: t,
          ok: null,
          latency_ms: null,
        },
        tool: null,
        args: null,
      });
    }
  };

  let open: string | null = null;
  for (const c of d.calls) {
    if (c.by === 'agent') {
      if (open !== null) flush(open);
      open = c.id;
    }
    const lookup = c.by === 'flow';
    out.push({
      item: {
        kind: lookup ? 'lookup' : 'agent',
        tool: c.tool,
        arguments: c.arguments,
        call: c.id,
        decision: lookup ? c.decision : null,
        site: lookup && c.decision !== null ? (d.decisions[c.decision]?.site ?? null) : null,
        reason: null,
        t_ms: c.t_ms,
        ok: c.ok,
        latency_ms: c.latency_ms,
      },
      tool: c.tool,
      args: argsText(c.arguments),
    });
  }
  if (open !== null) flush(open);
  // Decisions after a call the log does not have (a cut log): at the end, in flow-log order.
  for (const after of [...standing.keys()]) flush(after);
  return out;
}

function weight(x: Entry, y: Entry): number {
  if (x.tool === null || x.tool !== y.tool) return 0;
  return x.args === y.args ? SAME_CALL : SAME_TOOL;
}

/** Index pairs (i in a, j in b), increasing in both, of the heaviest alignment. */
function pairsByTable(a: Entry[], b: Entry[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const score = new Uint32Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const w = weight(a[i - 1]!, b[j - 1]!);
      let best = Math.max(score[(i - 1) * width + j]!, score[i * width + j - 1]!);
      if (w > 0) best = Math.max(best, score[(i - 1) * width + j - 1]! + w);
      score[i * width + j] = best;
    }
  }
  const pairs: [number, number][] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = score[i * width + j]!;
    const w = weight(a[i - 1]!, b[j - 1]!);
    if (w > 0 && here === score[(i - 1) * width + j - 1]! + w) {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    } else if (here === score[(i - 1) * width + j]!) i--;
    else j--;
  }
  return pairs.reverse();
}

/** For logs too long for the table: each call of a takes the next partner of b within the look-ahead. */
function pairsGreedy(a: Entry[], b: Entry[]): [number, number][] {
  const pairs: [number, number][] = [];
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    let found = -1;
    let weak = -1;
    for (let k = j; k < Math.min(b.length, j + GREEDY_LOOKAHEAD); k++) {
      const w = weight(a[i]!, b[k]!);
      if (w === SAME_CALL) {
        found = k;
        break;
      }
      if (w === SAME_TOOL && weak === -1) weak = k;
    }
    const k = found !== -1 ? found : weak;
    if (k !== -1) {
      pairs.push([i, k]);
      j = k + 1;
    }
  }
  return pairs;
}

/** The rows: pairs in order, and between two pairs a's items alone, then b's. */
export function alignSides(a: Entry[], b: Entry[]): { rows: CompareRow[]; paired: number } {
  const pairs = a.length * b.length <= TABLE_CELLS_MAX ? pairsByTable(a, b) : pairsGreedy(a, b);
  const rows: CompareRow[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [a.length, b.length] as [number, number]]) {
    for (; i < pi; i++) rows.push({ a: a[i]!.item, b: null, same_arguments: null });
    for (; j < pj; j++) rows.push({ a: null, b: b[j]!.item, same_arguments: null });
    if (pi < a.length && pj < b.length) rows.push({ a: a[pi]!.item, b: b[pj]!.item, same_arguments: a[pi]!.args === b[pj]!.args });
    i = pi + 1;
    j = pj + 1;
  }
  return { rows, paired: pairs.length };
}

/** Session a against session b: b minus a in the difference. */
export function compareSessions(a: SessionDetail, b: SessionDetail): SessionComparison {
  const { rows, paired } = alignSides(sideOf(a), sideOf(b));
  const sa = a.summary;
  const sb = b.summary;
  return {
    a: sa,
    b: sb,
    rows,
    paired,
    difference: {
      llm_turns: sb.llm_turns - sa.llm_turns,
      tool_calls: sb.tool_calls - sa.tool_calls,
      errors: sb.errors - sa.errors,
      duration_ms: sb.duration_ms - sa.duration_ms,
      flow_lookups: sb.flow_lookups - sa.flow_lookups,
    },
  };
}

/**
 * The recorded session of the same domain closest to this one by the tools called: the largest share of
 * tools called in both over tools called in either; ties go to the nearer number of the agent's calls,
 * then to the newest. Null when the domain has no other recorded session.
 */
export function closestRecorded(target: IndexedSession, all: readonly IndexedSession[]): ClosestSession {
  const mine = new Set(target.tools);
  const t = target.summary;
  let best: { s: SessionSummary; similarity: number } | null = null;
  for (const x of all) {
    if (x.mode !== 'recorded' || x.domain !== t.domain || x.key === t.key) continue;
    const s = x.summary;
    const theirs = new Set(x.tools);
    let both = 0;
    for (const x of theirs) if (mine.has(x)) both++;
    const either = mine.size + theirs.size - both;
    const similarity = either === 0 ? 1 : both / either;
    if (best === null || better(s, similarity, best.s, best.similarity, t)) best = { s, similarity };
  }
  return { key: t.key, closest: best?.s.key ?? null, similarity: best?.similarity ?? null };
}

function better(s: SessionSummary, sim: number, than: SessionSummary, thanSim: number, target: SessionSummary): boolean {
  if (sim !== thanSim) return sim > thanSim;
  const gap = Math.abs(s.tool_calls - target.tool_calls);
  const thanGap = Math.abs(than.tool_calls - target.tool_calls);
  if (gap !== thanGap) return gap < thanGap;
  if (s.started_unix_ms !== than.started_unix_ms) return s.started_unix_ms > than.started_unix_ms;
  return s.key < than.key;
}
