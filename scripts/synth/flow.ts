// A flow (`*.flow.json`, flow-review.md §1) learned from a domain's conversations the way the CLI's `learn`
// counts them: the habit (an order-2 back-off model over the agent's steps), the sites (which reads the agent
// made next after each call), the bindings (where each read's arguments came from) and the contracts. The
// numbers are plausible rather than the CLI's fit; what matters is that the engine loads the file and the
// review has something to show. Also the promoted copy (`promoted`) and a flow that does not load.
import type { Domain, Step, ToolSpec } from './worlds.ts';
import { STANDARD_JSON } from '../../server/engine/program-text.ts';

const START = 4294967295;
const ORDER = 2;

/** The standard program (flow-review.md §1.3.10) in its JSON form: the engine's own. */
export const STANDARD_PROGRAM = STANDARD_JSON;

export interface LearnOptions {
  compiledMs: number;
  sources: string[];
  /** Write `program` (the standard one); older flows leave it out. */
  program: boolean;
  /** Per-site thresholds: makes the flow format 2. */
  thresholds?: Record<string, number>;
}

/** A learned flow as a plain object, plus what sessions need to act it out. */
export interface LearnedFlow {
  json: Record<string, unknown>;
  /** site name → the reads the agent made next there, with counts. */
  next: Map<string, Map<string, number>>;
  /** The sites' names: each tool (and `tool (error)`) seen in training. */
  siteNames: string[];
}

type Counts = Map<number, number>;

function isFailed(step: Extract<Step, { kind: 'call' }>): boolean {
  return step.outcome.kind !== 'result' || step.outcome.isError;
}

export const siteName = (tool: string, failed: boolean) => (failed ? `${tool} (error)` : tool);

/** The contract of a tool's input schema (session-format §3.3). */
export function contractOf(t: ToolSpec): string {
  return Object.entries(t.properties)
    .map(([name, p]) => `${name}:${Array.isArray(p.type) ? p.type.join('|') : p.type}${t.required.includes(name) ? '!' : ''}`)
    .sort()
    .join(', ');
}

export function learnFlow(domain: Domain, conversations: Step[][], options: LearnOptions): LearnedFlow {
  const toolNames = domain.tools.map((t) => t.name).sort();
  const actionId = (tool: string) => toolNames.indexOf(tool) + 1;
  const reads = new Set(domain.tools.filter((t) => t.readOnly).map((t) => t.name));
  const specs = new Map(domain.tools.map((t) => [t.name, t]));

  const levels: Map<string, Counts>[] = Array.from({ length: ORDER + 1 }, () => new Map());
  const next = new Map<string, Map<string, number>>();
  const nextKeys = new Map<string, [string, boolean]>();
  const siteNames = new Set<string>();
  const args = new Map<string, [number, Map<string, number>]>();
  const sources = new Map<string, { values: number; found: Map<string, number> }>();

  const bump = <K>(m: Map<K, number>, k: K, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

  for (const steps of conversations) {
    const history = [START, START];
    const okSoFar = new Set<string>();
    const add = (action: number, outcome: number) => {
      for (let j = 0; j <= ORDER; j++) {
        const ctx = history.slice(history.length - j);
        const key = JSON.stringify(ctx);
        const level = levels[j]!;
        const counts = level.get(key) ?? new Map<number, number>();
        bump(counts, action);
        level.set(key, counts);
      }
      history.push((action * 4 + outcome) * 4096);
    };
    steps.forEach((step, i) => {
      if (step.kind === 'say') {
        if (step.role !== 'assistant') return;
        const answered = steps.slice(i + 1).some((s) => s.kind === 'say' && s.role === 'user');
        add(0, answered ? 2 : 3);
        return;
      }
      if (step.outcome.kind === 'none') return;
      const failed = isFailed(step);
      add(actionId(step.tool), failed ? 1 : 0);
      const site = siteName(step.tool, failed);
      siteNames.add(site);
      const following = steps[i + 1];
      if (following?.kind === 'call' && reads.has(following.tool)) {
        const m = next.get(site) ?? new Map<string, number>();
        bump(m, following.tool);
        next.set(site, m);
        nextKeys.set(site, [step.tool, failed]);
      }
      if (reads.has(step.tool)) {
        const [calls, passed] = args.get(step.tool) ?? [0, new Map<string, number>()];
        for (const a of Object.keys(step.args)) bump(passed, a);
        args.set(step.tool, [calls + 1, passed]);
        for (const [a, value] of Object.entries(step.args)) {
          if (typeof value !== 'string') continue;
          const key = JSON.stringify([step.tool, a]);
          const s = sources.get(key) ?? { values: 0, found: new Map<string, number>() };
          s.values += 1;
          const from = specs.get(step.tool)?.sources?.[a];
          if (from && okSoFar.has(from[0])) bump(s.found, JSON.stringify(from));
          sources.set(key, s);
        }
      }
      if (!failed) okSoFar.add(step.tool);
    });
  }

  const countsJson = (c: Counts) => {
    const byAction = [...c.entries()].sort((a, b) => a[0] - b[0]);
    return { by_action: byAction, total: byAction.reduce((s, [, n]) => s + n, 0) };
  };
  const compareCtx = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  const levelJson = (level: Map<string, Counts>) =>
    [...level.entries()]
      .map(([k, c]) => [JSON.parse(k) as number[], countsJson(c)] as const)
      .sort((a, b) => compareCtx(a[0], b[0]));
  const alpha = 0.6973960072663901;
  const base = { order: ORDER, alpha, vocab_size: toolNames.length + 2, levels: levels.map(levelJson) };
  const top = levelJson(levels[ORDER]!).map(([ctx, c]) => [[1, ctx], c]);

  const sortedNext = [...next.entries()]
    .map(([site, m]) => [nextKeys.get(site)!, Object.fromEntries([...m.entries()].sort())] as const)
    .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : Number(a[0][1]) - Number(b[0][1])));

  const argsJson = Object.fromEntries(
    [...args.entries()].sort().map(([t, [calls, passed]]) => [t, [calls, Object.fromEntries([...passed.entries()].sort())]]),
  );
  const sourcesJson = [...sources.entries()]
    .sort()
    .map(([k, s]) => [JSON.parse(k) as [string, string], { values: s.values, found: [...s.found.entries()].sort().map(([src, n]) => [JSON.parse(src) as [string, string], n]) }]);
  const agreed: Record<string, [[number, number], [number, number]]> = {};
  for (const [k, s] of sources) {
    const [t] = JSON.parse(k) as [string, string];
    const found = [...s.found.values()].reduce((a, b) => a + b, 0);
    if (found >= 2) agreed[t] = [[found, s.values], [0, 0]];
  }

  const json: Record<string, unknown> = {
    engine_flow: options.thresholds && Object.keys(options.thresholds).length > 0 ? 2 : 1,
    provenance: {
      engine: '0.1.0',
      sources: options.sources,
      habit_episodes: conversations.length,
      arbiter_cases: 0,
      compiled_unix_ms: options.compiledMs,
    },
    vocab: ['Respond', ...toolNames.map((t) => ({ Tool: t }))],
    manifest: {
      domain: domain.name,
      tools: Object.fromEntries(toolNames.map((t) => [t, specs.get(t)!.readOnly ? 'read' : 'write'])),
      docs: Object.fromEntries(
        toolNames.map((t) => {
          const spec = specs.get(t)!;
          const described = Object.entries(spec.properties).filter(([, p]) => p.description !== undefined);
          return [t, { summary: spec.description, args: Object.fromEntries(described.map(([a, p]) => [a, p.description])) }];
        }),
      ),
    },
    map: { fields: {}, ids: [] },
    group: 1,
    habit: { base, beta: alpha, top },
    sites: { reads: [...reads].sort(), next: sortedNext, feeds: {} },
    predicates: [],
    weighed: [],
    folds: [],
    bindings: { args: argsJson, sources: sourcesJson, agreed },
    model: '',
  };
  if (options.program) json.program = STANDARD_PROGRAM;
  if (json.engine_flow === 2) json.thresholds = options.thresholds;
  json.contracts = Object.fromEntries(toolNames.map((t) => [t, contractOf(specs.get(t)!)]));

  return { json, next, siteNames: [...siteNames].sort() };
}

/** The 90 % Wilson lower bound of k successes in n (flow-review.md §1.3.11). */
function wilsonLower(k: number, n: number): number {
  if (n === 0) return 0;
  const z = 1.6448536;
  const p = k / n;
  const lower = (p + (z * z) / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return Math.max(0, lower);
}

/** The flow after `engine promote`: a record per site, promoted where the agent used the lookups. */
export function promoteFlow(flow: LearnedFlow, usedShare: (site: string) => number): Record<string, unknown> {
  const bar = { threshold: 0.3, min_used: 0.7, min_lower: 0.5, min_tasks: 3 };
  const sites: Record<string, unknown> = {};
  for (const site of flow.siteNames) {
    const followed = [...(flow.next.get(site)?.values() ?? [])].reduce((a, b) => a + b, 0);
    const decisions = Math.max(followed, 2);
    const lookups = followed;
    const used = Math.round(lookups * usedShare(site));
    const tasks = Math.min(lookups, Math.max(0, Math.ceil(lookups * 0.8)));
    const lower = wilsonLower(used, lookups);
    sites[site] = {
      decisions,
      lookups,
      used,
      tasks,
      lower,
      promoted: lookups > 0 && used / lookups >= bar.min_used && lower >= bar.min_lower && tasks >= bar.min_tasks,
    };
  }
  const { contracts, ...rest } = flow.json;
  return { ...rest, promoted: { bar, sites }, contracts };
}

/** A flow file of a format this build cannot read: the list shows its error, the detail answers 422. */
export function brokenFlow(base: Record<string, unknown>): Record<string, unknown> {
  return { ...base, engine_flow: 7 };
}
