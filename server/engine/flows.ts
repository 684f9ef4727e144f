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
import { errorText } from '../../shared/error-text.ts';

// ---------------------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------------------

// The fugue program (JSON form): statements tagged by "stmt", expressions by "op".
export type BinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'and' | 'or';
export type Expr =
  | { op: 'f64'; value: number }
  | { op: 'int'; value: number }
  | { op: 'bool'; value: boolean }
  | { op: 'var'; name: string }
  | { op: 'array'; items: Expr[] }
  | { op: 'index'; array: Expr; index: Expr }
  | { op: 'len'; array: Expr }
  | { op: 'neg'; arg: Expr }
  | { op: 'not'; arg: Expr }
  | { op: BinaryOp; lhs: Expr; rhs: Expr }
  | { op: 'call'; func: string; args: Expr[] };
export interface Addr { name: string; index: Expr | null }
export interface DistCall { name: string; args: Expr[] }
export type Stmt =
  | { stmt: 'sample'; var: string; addr: Addr; dist: DistCall }
  | { stmt: 'let'; var: string; value: Expr }
  | { stmt: 'assign'; var: string; value: Expr }
  | { stmt: 'observe'; addr: Addr; dist: DistCall; value: Expr }
  | { stmt: 'factor'; logw: Expr }
  | { stmt: 'for'; var: string; start: Expr; end: Expr; body: Stmt[] }
  | { stmt: 'if'; cond: Expr; then: Stmt[]; else: Stmt[] }
  | { stmt: 'break' };
export interface Program { fugue_program: number; body: Stmt[]; ret: Expr }

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
// Reading the program's JSON, strictly, with the messages of flow-schema.ts
// ---------------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

function fail(path: string, expected: string, value: unknown): never {
  throw new Error(`invalid type at \`${path}\`: ${describe(value)}, expected ${expected}`);
}

const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

function obj(value: unknown, path: string): Obj {
  if (!isObj(value)) fail(path, 'an object', value);
  return value;
}

function arr(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'an array', value);
  return value;
}

function req(o: Obj, name: string, path: string): unknown {
  if (!(name in o) || o[name] === undefined) {
    throw new Error(path === 'flow' ? `missing field \`${name}\`` : `missing field \`${name}\` in \`${path}\``);
  }
  return o[name];
}

/** An optional field: absent and null both read as absent (serde's Option). */
function opt(o: Obj, name: string): unknown {
  const v = o[name];
  return v === null ? undefined : v;
}

function str(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'a string', value);
  return value;
}

function num(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'a number', value);
  return value;
}

function uint(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(path, 'a whole number, 0 or more', value);
  return value;
}

function int(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(path, 'an integer', value);
  return value;
}

function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'true or false', value);
  return value;
}

function list<T>(value: unknown, path: string, each: (v: unknown, p: string) => T): T[] {
  return arr(value, path).map((v, i) => each(v, `${path}[${i}]`));
}

// ---------------------------------------------------------------------------------------------------------
// The program: strict JSON form (unknown fields rejected, as fugue does) and its check against the registry
// ---------------------------------------------------------------------------------------------------------

const BINARY_OPS: readonly BinaryOp[] = ['add', 'sub', 'mul', 'div', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or'];
const isBinaryOp = (op: string): op is BinaryOp => (BINARY_OPS as readonly string[]).includes(op);
/** fugue caps nesting (its JSON depth) at 100. */
const MAX_NESTING = 100;
/** The flow's registry: the two distributions and their arities. */
const DISTRIBUTIONS: Record<string, number> = { Decide: 2, Outcome: 1 };
/** The data the flow's program is compiled with. */
const DATA_VARIABLES = ['call', 'call_failed', 'max_lookups'];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function only(o: Obj, allowed: string[], path: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new Error(`unknown field \`${key}\` in \`${path}\``);
  }
}

function depthCheck(depth: number, path: string): void {
  if (depth > MAX_NESTING) throw new Error(`\`${path}\` nests deeper than ${MAX_NESTING} levels`);
}

function ident(value: unknown, path: string): string {
  const s = str(value, path);
  if (!IDENTIFIER.test(s)) throw new Error(`\`${path}\`: ${JSON.stringify(s)} is not an identifier`);
  return s;
}

function readExpr(value: unknown, path: string, depth: number): Expr {
  depthCheck(depth, path);
  const o = obj(value, path);
  const op = str(req(o, 'op', path), `${path}.op`);
  const sub = (name: string) => readExpr(req(o, name, path), `${path}.${name}`, depth + 1);
  switch (op) {
    case 'f64':
      only(o, ['op', 'value'], path);
      return { op, value: num(req(o, 'value', path), `${path}.value`) };
    case 'int':
      only(o, ['op', 'value'], path);
      return { op, value: int(req(o, 'value', path), `${path}.value`) };
    case 'bool':
      only(o, ['op', 'value'], path);
      return { op, value: bool(req(o, 'value', path), `${path}.value`) };
    case 'var':
      only(o, ['op', 'name'], path);
      return { op, name: ident(req(o, 'name', path), `${path}.name`) };
    case 'array':
      only(o, ['op', 'items'], path);
      return { op, items: list(req(o, 'items', path), `${path}.items`, (v, p) => readExpr(v, p, depth + 2)) };
    case 'index':
      only(o, ['op', 'array', 'index'], path);
      return { op, array: sub('array'), index: sub('index') };
    case 'len':
      only(o, ['op', 'array'], path);
      return { op, array: sub('array') };
    case 'neg':
    case 'not':
      only(o, ['op', 'arg'], path);
      return { op, arg: sub('arg') };
    case 'call': {
      only(o, ['op', 'func', 'args'], path);
      const args = opt(o, 'args');
      return {
        op,
        func: ident(req(o, 'func', path), `${path}.func`),
        args: args === undefined ? [] : list(args, `${path}.args`, (v, p) => readExpr(v, p, depth + 2)),
      };
    }
    default:
      if (isBinaryOp(op)) {
        only(o, ['op', 'lhs', 'rhs'], path);
        return { op, lhs: sub('lhs'), rhs: sub('rhs') };
      }
      throw new Error(`unknown op \`${op}\` at \`${path}\``);
  }
}

function readAddr(value: unknown, path: string, depth: number): Addr {
  const o = obj(value, path);
  only(o, ['name', 'index'], path);
  const index = opt(o, 'index');
  return {
    name: str(req(o, 'name', path), `${path}.name`),
    index: index === undefined ? null : readExpr(index, `${path}.index`, depth + 1),
  };
}

function readDist(value: unknown, path: string, depth: number): DistCall {
  const o = obj(value, path);
  only(o, ['name', 'args'], path);
  const args = opt(o, 'args');
  return {
    name: ident(req(o, 'name', path), `${path}.name`),
    args: args === undefined ? [] : list(args, `${path}.args`, (v, p) => readExpr(v, p, depth + 2)),
  };
}

function readBlock(value: unknown, path: string, depth: number): Stmt[] {
  depthCheck(depth, path);
  return list(value, path, (v, p) => readStmt(v, p, depth + 1));
}

function readStmt(value: unknown, path: string, depth: number): Stmt {
  depthCheck(depth, path);
  const o = obj(value, path);
  const kind = str(req(o, 'stmt', path), `${path}.stmt`);
  const expr = (name: string) => readExpr(req(o, name, path), `${path}.${name}`, depth + 1);
  const variable = () => ident(req(o, 'var', path), `${path}.var`);
  switch (kind) {
    case 'sample':
      only(o, ['stmt', 'var', 'addr', 'dist'], path);
      return {
        stmt: kind,
        var: variable(),
        addr: readAddr(req(o, 'addr', path), `${path}.addr`, depth + 1),
        dist: readDist(req(o, 'dist', path), `${path}.dist`, depth + 1),
      };
    case 'let':
    case 'assign':
      only(o, ['stmt', 'var', 'value'], path);
      return { stmt: kind, var: variable(), value: expr('value') };
    case 'observe':
      only(o, ['stmt', 'addr', 'dist', 'value'], path);
      return {
        stmt: kind,
        addr: readAddr(req(o, 'addr', path), `${path}.addr`, depth + 1),
        dist: readDist(req(o, 'dist', path), `${path}.dist`, depth + 1),
        value: expr('value'),
      };
    case 'factor':
      only(o, ['stmt', 'logw'], path);
      return { stmt: kind, logw: expr('logw') };
    case 'for':
      only(o, ['stmt', 'var', 'start', 'end', 'body'], path);
      return {
        stmt: kind,
        var: variable(),
        start: expr('start'),
        end: expr('end'),
        body: readBlock(req(o, 'body', path), `${path}.body`, depth + 1),
      };
    case 'if': {
      only(o, ['stmt', 'cond', 'then', 'else'], path);
      const otherwise = opt(o, 'else');
      return {
        stmt: kind,
        cond: expr('cond'),
        then: readBlock(req(o, 'then', path), `${path}.then`, depth + 1),
        else: otherwise === undefined ? [] : readBlock(otherwise, `${path}.else`, depth + 1),
      };
    }
    case 'break':
      only(o, ['stmt'], path);
      return { stmt: kind };
    default:
      throw new Error(`unknown stmt \`${kind}\` at \`${path}\``);
  }
}

/** Reads a program's JSON form: the version first, then the nodes. Throws the reason it does not read. */
export function readProgram(value: unknown): Program {
  const o = obj(value, 'program');
  const version = req(o, 'fugue_program', 'program');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new Error(`\`fugue_program\` must be a non-negative integer format version, found ${JSON.stringify(version)}`);
  }
  if (version !== 1) throw new Error(`program format ${version} is not supported (this build reads 1)`);
  only(o, ['fugue_program', 'body', 'ret'], 'program');
  return {
    fugue_program: version,
    body: readBlock(req(o, 'body', 'program'), 'program.body', 1),
    ret: readExpr(req(o, 'ret', 'program'), 'program.ret', 1),
  };
}

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
  const programValue = opt(o, 'program');
  if (programValue !== undefined) {
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
