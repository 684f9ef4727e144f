// A flow's program (flow-format §1.3.10, fugue's JSON form) as valibot schemas, read as fugue reads it: each
// node's tag first, then its unknown fields, then its fields in order; nesting (the JSON depth) capped at 100.
// The reasons it does not read are flow-schema.ts's, plus the program's own rules (`RULES`).
import * as v from 'valibot';
import { describe, pathText } from './flow-schema.ts';

const BINARY_OPS = ['add', 'sub', 'mul', 'div', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or'] as const;
export type BinaryOp = (typeof BINARY_OPS)[number];

// The program's types are written out: valibot cannot infer a recursive schema's type.
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

/** fugue caps nesting (its JSON depth) at 100. */
const MAX_NESTING = 100;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---------------------------------------------------------------------------------------------------------
// The program's own rules: an issue's message names its rule, and the rule says it with the issue's path
// ---------------------------------------------------------------------------------------------------------

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

const RULES = {
  'nests too deep': (at: string) => `\`${at}\` nests deeper than ${MAX_NESTING} levels`,
  'an identifier': (at: string, input: unknown) => `\`${at}\`: ${JSON.stringify(input)} is not an identifier`,
  'a known op': (at: string, input: unknown) => `unknown op \`${textOf(isObj(input) ? input.op : '')}\` at \`${at}\``,
  'a known stmt': (at: string, input: unknown) => `unknown stmt \`${textOf(isObj(input) ? input.stmt : '')}\` at \`${at}\``,
  'a format version': (_at: string, input: unknown) =>
    `\`fugue_program\` must be a non-negative integer format version, found ${JSON.stringify(input)}`,
  'format 1': (_at: string, input: unknown) =>
    `program format ${String(isObj(input) ? input.fugue_program : input)} is not supported (this build reads 1)`,
} satisfies Record<string, (at: string, input: unknown) => string>;
type Rule = keyof typeof RULES;
const isRule = (message: string): message is Rule => Object.hasOwn(RULES, message);
/** An unknown field's issue sits at the field, so its path names the object and the field. */
const UNKNOWN_FIELD = 'a known field';

/** The first issue of a program's read, as its message (paths start at `program`). */
export function programIssueText(issue: v.BaseIssue<unknown>): string {
  const items = issue.path ?? [];
  const last = items[items.length - 1];
  if (last !== undefined && (last.origin === 'key' || issue.message === UNKNOWN_FIELD)) {
    const what = last.origin === 'key' ? 'missing' : 'unknown';
    return `${what} field \`${String(last.key)}\` in \`${pathText(items.slice(0, -1), 'program')}\``;
  }
  const at = pathText(items, 'program');
  if (isRule(issue.message)) return RULES[issue.message](at, issue.input);
  return `invalid type at \`${at}\`: ${describe(issue.input)}, expected ${issue.message}`;
}

// ---------------------------------------------------------------------------------------------------------
// The values
// ---------------------------------------------------------------------------------------------------------

const anObject = v.custom<Record<string, unknown>>(isObj, 'an object');
const aString = v.string('a string');
const aNumber = v.pipe(v.number('a number'), v.finite('a number'));
const anInteger = v.pipe(v.number('an integer'), v.integer('an integer'));
const aBool = v.boolean('true or false');
const identifier = v.pipe(aString, v.regex(IDENTIFIER, 'an identifier'));
const fails = (rule: Rule) => v.custom<never>(() => false, rule);

function list<T extends v.GenericSchema>(item: T) {
  return v.array(item, 'an array');
}

/** An optional field: absent or null read as `empty`. */
function orElse<T extends v.GenericSchema>(schema: T, empty: () => v.InferOutput<T>) {
  return v.nullish(schema, empty);
}

/** An object with these fields and no other, said before any field is read (v.strictObject says it after). */
function strict<T extends v.ObjectEntries>(entries: T) {
  const known = Object.keys(entries);
  return v.pipe(
    anObject,
    v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const input = dataset.value;
      const key = Object.keys(input).find((k) => !known.includes(k));
      if (key === undefined) return;
      addIssue({ message: UNKNOWN_FIELD, path: [{ type: 'object', origin: 'value', input, key, value: input[key] }] });
    }),
    v.object(entries),
  );
}

/** A node tagged by `tag`: its tag is read first (present, a string, known), then the node as `byTag` says. */
function tagged<T>(tag: string, unknown: Rule, byTag: Record<string, v.GenericSchema<unknown, T>>) {
  const head = v.pipe(anObject, v.looseObject({ [tag]: aString }), fails(unknown));
  return v.lazy((input): v.GenericSchema<unknown, T> => {
    const name = isObj(input) ? input[tag] : undefined;
    return (typeof name === 'string' && Object.hasOwn(byTag, name) ? byTag[name] : undefined) ?? head;
  });
}

// ---------------------------------------------------------------------------------------------------------
// The nodes, one schema per kind and depth (made when a program first reaches that depth)
// ---------------------------------------------------------------------------------------------------------

type Schema<T> = v.GenericSchema<unknown, T>;
const deeper = fails('nests too deep');

function atDepth<T>(make: (depth: number) => Schema<T>): (depth: number) => Schema<T> {
  const made = new Map<number, Schema<T>>();
  return (depth) => {
    if (depth > MAX_NESTING) return deeper;
    let schema = made.get(depth);
    if (schema === undefined) made.set(depth, (schema = make(depth)));
    return schema;
  };
}

const exprAt: (depth: number) => Schema<Expr> = atDepth((depth) => {
  const sub = v.lazy(() => exprAt(depth + 1));
  const items = list(v.lazy(() => exprAt(depth + 2)));
  const binary = strict({ op: v.picklist(BINARY_OPS), lhs: sub, rhs: sub });
  return tagged<Expr>('op', 'a known op', {
    f64: strict({ op: v.literal('f64'), value: aNumber }),
    int: strict({ op: v.literal('int'), value: anInteger }),
    bool: strict({ op: v.literal('bool'), value: aBool }),
    var: strict({ op: v.literal('var'), name: identifier }),
    array: strict({ op: v.literal('array'), items }),
    index: strict({ op: v.literal('index'), array: sub, index: sub }),
    len: strict({ op: v.literal('len'), array: sub }),
    neg: strict({ op: v.literal('neg'), arg: sub }),
    not: strict({ op: v.literal('not'), arg: sub }),
    call: strict({ op: v.literal('call'), func: identifier, args: orElse(items, () => []) }),
    ...Object.fromEntries(BINARY_OPS.map((op) => [op, binary])),
  });
});

/** An address and a distribution's call sit one level below their statement and check no depth themselves. */
function addrAt(depth: number) {
  return strict({ name: aString, index: v.nullish(v.lazy(() => exprAt(depth + 1)), null) });
}

function distAt(depth: number) {
  return strict({ name: identifier, args: orElse(list(v.lazy(() => exprAt(depth + 2))), () => []) });
}

const blockAt: (depth: number) => Schema<Stmt[]> = atDepth((depth) => list(v.lazy(() => stmtAt(depth + 1))));

const stmtAt: (depth: number) => Schema<Stmt> = atDepth((depth) => {
  const expr = v.lazy(() => exprAt(depth + 1));
  const block = v.lazy(() => blockAt(depth + 1));
  const addr = addrAt(depth + 1);
  const dist = distAt(depth + 1);
  return tagged<Stmt>('stmt', 'a known stmt', {
    sample: strict({ stmt: v.literal('sample'), var: identifier, addr, dist }),
    let: strict({ stmt: v.literal('let'), var: identifier, value: expr }),
    assign: strict({ stmt: v.literal('assign'), var: identifier, value: expr }),
    observe: strict({ stmt: v.literal('observe'), addr, dist, value: expr }),
    factor: strict({ stmt: v.literal('factor'), logw: expr }),
    for: strict({ stmt: v.literal('for'), var: identifier, start: expr, end: expr, body: block }),
    if: strict({ stmt: v.literal('if'), cond: expr, then: block, else: orElse(block, () => []) }),
    break: strict({ stmt: v.literal('break') }),
  });
});

const formatVersion = v.custom<number>((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0, 'a format version');
const programBody = strict({ fugue_program: v.literal(1), body: blockAt(1), ret: exprAt(1) });
/** What is wrong with a program that is not format 1 (read apart: its unknown fields wait for its version). */
const versionFirst = v.pipe(anObject, v.object({ fugue_program: formatVersion }), fails('format 1'));

/** A program: its format version first, then its unknown fields, then its nodes. */
export const ProgramSchema = v.lazy(
  (input): Schema<Program> => (isObj(input) && input.fugue_program === 1 ? programBody : versionFirst),
);

/** Reads a program's JSON form. Throws the reason it does not read. */
export function readProgram(value: unknown): Program {
  const read = v.safeParse(ProgramSchema, value, { abortEarly: true });
  if (!read.success) throw new Error(programIssueText(read.issues[0]));
  return read.output;
}
