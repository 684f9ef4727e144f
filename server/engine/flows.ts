// The flow file (`*.flow.json`, marker "engine_flow": 1 or 2) as the CLI reads it: the model, the loader
// and the properties every view derives from it (site names, options, lookups, the served decider, where it
// acts). A flow is plain data so it can cross the worker pool. Loading follows the CLI's order: probe the
// version, check it, read the whole structure, the format-1 restrictions, then the program; any failure is
// an Error whose message is why the flow "does not load" (the list shows it, the detail answers 422).
import type { DeciderName, Provenance, SurpriseGate } from '../../shared/flows.ts';
import {
  describe,
  readFlowParts,
  type BackoffModel,
  type Bindings,
  type CodeMap,
  type Fold,
  type Habit,
  type Manifest,
  type Predicate,
  type Promotion,
  type SiteKey,
  type Sites,
  type VocabAction,
} from './flow-schema.ts';
import { compareText } from './format.ts';
import { readProgram, type DistCall, type Expr, type Program, type Stmt } from './program-schema.ts';
import { errorText } from '../../shared/error-text.ts';

// ---------------------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------------------

export { readProgram, type Addr, type BinaryOp, type DistCall, type Expr, type Program, type Stmt } from './program-schema.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface Flow {
  engine_flow: number;
  /** manifest.domain: "the flow's domain" everywhere. */
  domain: string;
  provenance: Provenance;
  vocab: VocabAction[];
  manifest: Manifest;
  map: CodeMap;
  group: number;
  habit: Habit;
  sites: Sites;
  predicates: Predicate[];
  weighed: Predicate[];
  folds: Fold[];
  bindings: Bindings;
  model: string;
  /** null: the standard program. */
  program: Program | null;
  promoted: Promotion | null;
  thresholds: Record<string, number>;
  contracts: Record<string, string> | null;
  reach: BackoffModel | null;
  /** A later engine's surprise gate; null without one. */
  surprise: SurpriseGate | null;
}

// ---------------------------------------------------------------------------------------------------------
// The program's check against the registry (program-schema.ts reads it)
// ---------------------------------------------------------------------------------------------------------

/** The flow's registry: the two distributions and their arities. */
const DISTRIBUTIONS: Record<string, number> = { Decide: 2, Outcome: 1 };
/** The data the flow's program is compiled with. */
const DATA_VARIABLES = ['call', 'call_failed', 'max_lookups'];

/** Names resolve: variables are bound, distributions are the registry's, `break` sits inside a loop. */
function checkProgram(program: Program): void {
  const scopes: Set<string>[] = [new Set(DATA_VARIABLES)];
  const bound = (name: string) => scopes.some((s) => s.has(name));
  const expr = (e: Expr): void => {
    switch (e.op) {
      case 'f64':
      case 'int':
      case 'bool':
        return;
      case 'var':
        if (!bound(e.name)) throw new Error(`unknown variable \`${e.name}\``);
        return;
      case 'array':
        e.items.forEach(expr);
        return;
      case 'index':
        expr(e.array);
        expr(e.index);
        return;
      case 'len':
        expr(e.array);
        return;
      case 'neg':
      case 'not':
        expr(e.arg);
        return;
      case 'call':
        throw new Error(`unknown function \`${e.func}\`: the flow's registry has none`);
      default:
        expr(e.lhs);
        expr(e.rhs);
    }
  };
  const dist = (d: DistCall): void => {
    const arity = DISTRIBUTIONS[d.name];
    if (arity === undefined) throw new Error(`unknown distribution \`${d.name}\`: the flow's registry has Decide and Outcome`);
    if (d.args.length !== arity) {
      throw new Error(`\`${d.name}\` takes ${arity} argument${arity === 1 ? '' : 's'}, given ${d.args.length}`);
    }
    d.args.forEach(expr);
  };
  const block = (stmts: Stmt[], inLoop: boolean): void => {
    scopes.push(new Set());
    for (const s of stmts) {
      const scope = scopes[scopes.length - 1]!;
      switch (s.stmt) {
        case 'sample':
          if (s.addr.index) expr(s.addr.index);
          dist(s.dist);
          scope.add(s.var);
          break;
        case 'let':
          expr(s.value);
          scope.add(s.var);
          break;
        case 'assign':
          if (!bound(s.var)) throw new Error(`assigns to \`${s.var}\`, which no let binds`);
          expr(s.value);
          break;
        case 'observe':
          if (s.addr.index) expr(s.addr.index);
          dist(s.dist);
          expr(s.value);
          break;
        case 'factor':
          expr(s.logw);
          break;
        case 'for':
          expr(s.start);
          expr(s.end);
          scopes.push(new Set([s.var]));
          block(s.body, true);
          scopes.pop();
          break;
        case 'if':
          expr(s.cond);
          block(s.then, inLoop);
          block(s.else, inLoop);
          break;
        case 'break':
          if (!inLoop) throw new Error('`break` outside a loop');
          break;
      }
    }
    if (stmts === program.body) expr(program.ret);
    scopes.pop();
  };
  block(program.body, false);
}

// ---------------------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------------------

const FORMAT_2_BINDINGS =
  'a flow with bindings scored where another value was named or the described record read, with sources ordered by site, with lists bound, with bare calls counted, or with constants, is format 2';

/** The file's `engine_flow` when the text is JSON with a u32 there, else 0 (the list shows it even when the flow does not load). */
export function probeFormatVersion(text: string): number {
  try {
    const value: unknown = JSON.parse(text);
    if (isObj(value)) {
      const v = value.engine_flow;
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff) return v;
    }
  } catch {
    // not JSON: 0
  }
  return 0;
}

/** Parses a flow file's text. Throws an Error whose message says why the flow does not load. */
export function loadFlow(text: string): Flow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`not an engine flow: ${errorText(e)}`);
  }
  if (!isObj(value)) throw new Error(`not an engine flow: ${describe(value)}, expected an object with \`engine_flow\``);
  const o = value;
  const version = o.engine_flow;
  if (version === undefined) throw new Error('not an engine flow: missing field `engine_flow`');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0 || version > 0xffffffff) {
    throw new Error(`not an engine flow: \`engine_flow\` is ${describe(version)}, expected a format number`);
  }
  if (version !== 1 && version !== 2) throw new Error(`flow format ${version} is not supported (this build reads 1 and 2)`);

  const parts = readFlowParts(o);
  const flow: Flow = {
    engine_flow: version,
    domain: parts.manifest.domain,
    provenance: parts.provenance,
    vocab: parts.vocab,
    manifest: parts.manifest,
    map: parts.map,
    group: parts.group,
    habit: parts.habit,
    sites: parts.sites,
    predicates: parts.predicates,
    weighed: parts.weighed,
    folds: parts.folds,
    bindings: parts.bindings,
    model: parts.model,
    program: null,
    promoted: parts.promoted,
    thresholds: parts.thresholds,
    contracts: parts.contracts,
    reach: parts.reach,
    surprise: parts.surprise,
  };
  // surprise.rs's own checks, in its words: a format-1 reader would ignore the gate.
  if (flow.surprise && flow.surprise.window === 0) throw new Error('a surprise gate averages over one step or more');
  if (version === 1) {
    if (Object.keys(flow.thresholds).length > 0) throw new Error('a flow with per-site thresholds is format 2');
    if (flow.surprise) throw new Error('a flow with a surprise gate is format 2');
    const b = flow.bindings;
    if (
      Object.keys(b.named_other).length > 0 ||
      Object.keys(b.described_read).length > 0 ||
      b.site_sources.length > 0 ||
      b.lists.length > 0 ||
      Object.keys(b.bare).length > 0 ||
      b.constants.length > 0
    ) {
      throw new Error(FORMAT_2_BINDINGS);
    }
  }
  // An absent or null program is the standard one (serde's Option).
  const programValue = o.program;
  if (programValue !== undefined && programValue !== null) {
    try {
      const program = readProgram(programValue);
      checkProgram(program);
      flow.program = program;
    } catch (e) {
      throw new Error(`the flow's program: ${errorText(e)}`);
    }
  }
  return flow;
}

// ---------------------------------------------------------------------------------------------------------
// Derived properties (flow-review.md §1.5)
// ---------------------------------------------------------------------------------------------------------

export function hasArbiter(flow: Flow): boolean {
  return flow.folds.length > 0;
}

export function hasReach(flow: Flow): boolean {
  return flow.reach !== null;
}

/** What the proxy serves the flow with unless told otherwise. */
export function servedDecider(flow: Flow): DeciderName {
  if (hasArbiter(flow)) return 'arbiter';
  return hasReach(flow) ? 'reach' : 'habit';
}

/** "tool" or "tool (error)": keys promoted.sites and thresholds. */
export function siteName([tool, failed]: SiteKey): string {
  return failed ? `${tool} (error)` : tool;
}

/** `tool` or `tool` (failed), as texts show a site. */
export function siteLabel([tool, failed]: SiteKey): string {
  return failed ? `\`${tool}\` (failed)` : `\`${tool}\``;
}

export function compareSiteKeys(a: SiteKey, b: SiteKey): number {
  return compareText(a[0], b[0]) || Number(a[1]) - Number(b[1]);
}

/** The flow's sites (the keys of sites.next), sorted by (tool, failed). */
export function siteKeys(flow: Flow): SiteKey[] {
  return flow.sites.next.map(([key]) => key).sort(compareSiteKeys);
}

/** The counts of what the agent looked up next at a site, or undefined for an unknown site. */
export function nextAt(flow: Flow, [tool, failed]: SiteKey): Record<string, number> | undefined {
  return flow.sites.next.find(([k]) => k[0] === tool && k[1] === failed)?.[1];
}

/** The lookups offered at a site, sorted. */
export function options(flow: Flow, site: SiteKey): string[] {
  if (flow.sites.every_read) return [...flow.sites.reads].sort(compareText);
  return Object.keys(nextAt(flow, site) ?? {}).sort(compareText);
}

/** The distinct tools the flow may look up, over all its sites, sorted. */
export function lookups(flow: Flow): string[] {
  const all = new Set<string>();
  for (const site of siteKeys(flow)) for (const o of options(flow, site)) all.add(o);
  return [...all].sort(compareText);
}

export function switchedOff(flow: Flow, site: SiteKey): boolean {
  const t = flow.thresholds[siteName(site)];
  return t !== undefined && t > 1;
}

/** Whether the flow may act after a site: promoted (or no promotion) and not switched off. */
export function actsAt(flow: Flow, site: SiteKey): boolean {
  const promotedHere = flow.promoted === null || flow.promoted.sites[siteName(site)]?.promoted === true;
  return promotedHere && !switchedOff(flow, site);
}

export function thresholdAt(flow: Flow, site: SiteKey, served: number): number {
  return flow.thresholds[siteName(site)] ?? served;
}

/** Sites with promoted: true, and all scored sites; null without a promotion. */
export function promotionCounts(flow: Flow): { sites_promoted: number; sites_scored: number } | null {
  if (flow.promoted === null) return null;
  const records = Object.values(flow.promoted.sites);
  return { sites_promoted: records.filter((r) => r.promoted).length, sites_scored: records.length };
}

/** The name the review gives an action id: "respond", a tool's name, or undefined outside the vocabulary. */
export function actionName(flow: Flow, id: number): string | undefined {
  const a = flow.vocab[id];
  if (a === undefined) return undefined;
  return a === 'Respond' ? 'respond' : a.Tool;
}

/** The vocabulary id of a tool's action (vocab.length when unknown). */
export function toolId(flow: Flow, tool: string): number {
  const i = flow.vocab.findIndex((a) => a !== 'Respond' && a.Tool === tool);
  return i === -1 ? flow.vocab.length : i;
}

/** START: the padding symbol before the first step. */
const START_SYMBOL = 4294967295;

/** A step's symbol: (action × 4 + outcome) × 4096 + feature. */
export function decodeSymbol(symbol: number): { action: number; outcome: number; feature: number } | null {
  if (symbol === START_SYMBOL) return null;
  const step = Math.floor(symbol / 4096);
  return { action: Math.floor(step / 4), outcome: step % 4, feature: symbol % 4096 };
}

/** A back-off model's smoothed prediction after a history of symbols (flow-review.md §2.6). */
export function predict(model: BackoffModel, history: number[]): number[] {
  let p = new Array<number>(model.vocab_size).fill(1 / model.vocab_size);
  for (let j = 0; j <= model.order; j++) {
    const ctx: number[] = [];
    for (let i = history.length - j; i < history.length; i++) ctx.push(i >= 0 ? history[i]! : START_SYMBOL);
    const level = model.levels[j];
    const found = level?.find(([c]) => c.length === ctx.length && c.every((s, i) => s === ctx[i]));
    if (!found) continue;
    const counts = found[1];
    const byAction = new Map(counts.by_action);
    p = p.map((pa, a) => ((byAction.get(a) ?? 0) + model.alpha * pa) / (counts.total + model.alpha));
  }
  return p;
}
