// Builds a session's timeline from its detail (ui.md §7.3.3): LLM turns holding the agent's calls, each
// call with the flow's decisions after it, the extra lookups and the flow run; conversation messages in
// between; sorted by time. Structural types, so the function needs only the fields it reads.

export interface TCall {
  id: string;
  by: 'agent' | 'flow';
  t_ms: number;
  result_t_ms: number | null;
  after: string | null;
  decision: number | null;
}
export interface TDecision {
  after: string;
  prob: number | null;
  binding: number | null;
}
export interface TRun {
  after: string;
}
export interface TTurn {
  index: number;
  start_ms: number;
  end_ms: number;
  calls: string[];
}
export interface TMessage {
  t_ms: number;
}

export interface DecisionItem<C, D> {
  decision: D;
  index: number;
  lookup: C | null;
}
export interface CallItem<C, D, R> {
  call: C;
  decisions: DecisionItem<C, D>[];
  extraLookups: C[];
  run: R | null;
}
export type TimelineEntry<C, D, R, M> =
  | { type: 'turn'; t: number; turn: TTurn; calls: CallItem<C, D, R>[] }
  | { type: 'message'; t: number; message: M };

export function buildTimeline<C extends TCall, D extends TDecision, R extends TRun, M extends TMessage>(input: {
  calls: C[];
  decisions: D[];
  runs: R[];
  turns: TTurn[];
  context: M[];
}): TimelineEntry<C, D, R, M>[] {
  const byId = new Map<string, C>();
  for (const c of input.calls) byId.set(c.id, c);

  const lookupOf = new Map<number, C>();
  const extraAfter = new Map<string, C[]>();
  for (const c of input.calls) {
    if (c.by !== 'flow') continue;
    if (c.decision !== null) lookupOf.set(c.decision, c);
    else if (c.after !== null) push(extraAfter, c.after, c);
  }

  const decisionsAfter = new Map<string, DecisionItem<C, D>[]>();
  input.decisions.forEach((decision, index) => {
    push(decisionsAfter, decision.after, { decision, index, lookup: lookupOf.get(index) ?? null });
  });

  const runAfter = new Map<string, R>();
  for (const r of input.runs) if (!runAfter.has(r.after)) runAfter.set(r.after, r);

  const item = (call: C): CallItem<C, D, R> => ({
    call,
    decisions: decisionsAfter.get(call.id) ?? [],
    extraLookups: extraAfter.get(call.id) ?? [],
    run: runAfter.get(call.id) ?? null,
  });

  type Entry = TimelineEntry<C, D, R, M>;
  const entries: { e: Entry; order: number }[] = [];
  let order = 0;
  const held = new Set<string>();
  const turns = [...input.turns].sort((a, b) => a.index - b.index);
  for (const turn of turns) {
    const calls: CallItem<C, D, R>[] = [];
    for (const id of turn.calls) {
      const c = byId.get(id);
      if (!c) continue;
      held.add(id);
      calls.push(item(c));
    }
    entries.push({ e: { type: 'turn', t: turn.start_ms, turn, calls }, order: order++ });
  }
  let next = turns.length === 0 ? 0 : Math.max(...turns.map((t) => t.index)) + 1;
  for (const c of input.calls) {
    if (c.by !== 'agent' || held.has(c.id)) continue;
    const turn: TTurn = { index: next++, start_ms: c.t_ms, end_ms: c.result_t_ms ?? c.t_ms, calls: [c.id] };
    entries.push({ e: { type: 'turn', t: c.t_ms, turn, calls: [item(c)] }, order: order++ });
  }
  for (const message of input.context) {
    entries.push({ e: { type: 'message', t: message.t_ms, message }, order: order++ });
  }
  entries.sort((a, b) => {
    if (a.e.t !== b.e.t) return a.e.t - b.e.t;
    const ra = a.e.type === 'message' ? 0 : 1;
    const rb = b.e.type === 'message' ? 0 : 1;
    return ra - rb || a.order - b.order;
  });
  return entries.map((x) => x.e);
}

/** A decision's value: prob × (binding ?? 1); null when prob is null. */
export function decisionValue(d: { prob: number | null; binding: number | null }): number | null {
  return d.prob === null ? null : d.prob * (d.binding ?? 1);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
