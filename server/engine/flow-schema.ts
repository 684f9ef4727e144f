// The flow file's structures (flow-review.md §1.2–1.3) as valibot schemas, checked in the order the CLI reads
// them, and the reason a value does not read, in words a user can act on (the CLI's are serde's; the wording
// is ours): "invalid type at `path`: what it is, expected what", "missing field `name` in `path`", "invalid
// length at `path`: n, expected a list of m". An optional field that is null reads as absent (serde's Option).
import * as v from 'valibot';
import type { Bar, Provenance, SiteRecord, SurpriseGate } from '../../shared/flows.ts';
import { ToolKindSchema } from '../../shared/sessions.ts';

// ---------------------------------------------------------------------------------------------------------
// What each kind of value expects (the schema's message is the "expected …" of its issue)
// ---------------------------------------------------------------------------------------------------------

const A_NUMBER = 'a number';
const A_UINT = 'a whole number, 0 or more';

const str = v.string('a string');
const num = v.pipe(v.number(A_NUMBER), v.finite(A_NUMBER));
const uint = v.pipe(v.number(A_UINT), v.integer(A_UINT), v.minValue(0, A_UINT));
const bool = v.boolean('true or false');
const anyList = v.array(v.unknown(), 'an array');

function list<T extends v.GenericSchema>(item: T) {
  return v.array(item, 'an array');
}

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
/** A JSON object, not an array (valibot's objects take arrays too). */
const anObject = v.custom<Record<string, unknown>>(isObj, 'an object');

function record<T extends v.GenericSchema>(item: T) {
  return v.pipe(anObject, v.record(v.string(), item));
}

function object<T extends v.ObjectEntries>(entries: T) {
  return v.pipe(anObject, v.object(entries));
}

/** A JSON array of exactly these items: the length is checked before the items. */
function tuple<const T extends v.TupleItems>(items: T) {
  return v.pipe(anyList, v.length(items.length, 'a list'), v.tuple(items));
}

/** An optional field: absent or null read as `empty`. */
function orElse<T extends v.GenericSchema>(schema: T, empty: v.InferOutput<T>) {
  return v.pipe(
    v.nullish(schema, null),
    v.transform((value): v.InferOutput<T> => value ?? empty),
  );
}

/** An optional field: absent or null read as null. */
function orNull<T extends v.GenericSchema>(schema: T) {
  return v.nullish(v.nullable(schema), null);
}

const strPair = tuple([str, str]);
const numPair = tuple([num, num]);

// ---------------------------------------------------------------------------------------------------------
// The structures
// ---------------------------------------------------------------------------------------------------------

/** Counts of the action that came next after a context. */
const CountsSchema = object({ by_action: list(tuple([uint, num])), total: num });

/** A back-off model: level j maps contexts of j symbols to counts. */
export const BackoffSchema = object({
  order: uint,
  alpha: num,
  vocab_size: uint,
  levels: list(list(tuple([list(uint), CountsSchema]))),
});

const HabitSchema = object({
  base: BackoffSchema,
  beta: num,
  top: list(tuple([tuple([uint, list(uint)]), CountsSchema])),
});

const ProvenanceSchema = v.pipe(
  object({
    engine: str,
    sources: list(str),
    habit_episodes: uint,
    arbiter_cases: uint,
    compiled_unix_ms: uint,
    conventions: orNull(str),
  }),
  v.transform(({ conventions, ...rest }): Provenance => (conventions == null ? rest : { ...rest, conventions })),
);

/** An action of the vocabulary: a message to the customer, or a tool call. */
const ActionSchema = v.lazy((input) => (input === 'Respond' ? v.literal('Respond') : object({ Tool: str })));

const ToolDocSchema = object({ summary: orElse(str, ''), args: orElse(record(str), {}) });

const ManifestSchema = object({
  domain: str,
  tools: record(v.picklist(ToolKindSchema.options, 'one of "read", "write", "generic"')),
  docs: orElse(record(ToolDocSchema), {}),
});

/** A code field: `{"Scalar": path}` or `{"Len": path}`. */
const FieldSchema = v.lazy((input) => {
  if (!isObj(input)) return v.custom<never>(() => false, 'an object');
  if ('Scalar' in input) return object({ Scalar: str });
  if ('Len' in input) return object({ Len: str });
  return v.custom<never>(() => false, 'a field {"Scalar": path} or {"Len": path}');
});

const CodeMapSchema = object({
  fields: record(list(FieldSchema)),
  ids: list(tuple([tuple([str, anyList]), uint])),
});

/** A site: after a call to `tool`, which failed or not. */
const SiteKeySchema = tuple([str, bool]);

const SitesSchema = object({
  reads: list(str),
  next: list(tuple([SiteKeySchema, record(num)])),
  feeds: orElse(record(list(tuple([strPair, num]))), {}),
  every_read: orElse(bool, false),
});

/** What a predicate favors: a site's name, or `{lookup, …}` (kept whole). */
const FavorsSchema = v.lazy((input) => (typeof input === 'string' ? str : v.pipe(anObject, v.looseObject({ lookup: str }))));

// `favors` is checked first, as the CLI reads it; the predicate keeps the file's order.
const PredicateSchema = v.pipe(
  object({ favors: FavorsSchema, id: str, question: str, yes: str, no: str }),
  v.transform(({ favors, id, question, yes, no }) => ({ id, favors, question, yes, no })),
);

// `rates` is checked before `weights`, as the CLI reads them; the fold keeps the file's order.
const FoldSchema = v.pipe(
  object({
    rates: object({ sites: list(tuple([str, tuple([num, num, num])])), agree: num, cover: num }),
    weights: list(num),
  }),
  v.transform(({ rates, weights }) => ({ weights, rates })),
);

const SourceStatsSchema = object({ values: num, found: list(tuple([strPair, num])) });
const SourceListSchema = list(tuple([strPair, SourceStatsSchema]));
const SiteSourceSchema = object({ tool: str, arg: str, site: str, source: strPair, values: num });

const BindingsSchema = object({
  args: record(tuple([num, record(num)])),
  sources: SourceListSchema,
  agreed: record(tuple([numPair, numPair])),
  named_other: orElse(record(numPair), {}),
  described_read: orElse(record(numPair), {}),
  site_sources: orElse(list(SiteSourceSchema), []),
  lists: orElse(SourceListSchema, []),
  bare: orElse(record(num), {}),
  constants: orElse(list(tuple([strPair, v.unknown()])), []),
});

const BarSchema = object({ threshold: num, min_used: num, min_lower: num, min_tasks: uint }) satisfies v.GenericSchema<unknown, Bar>;

const SiteRecordSchema = object({
  decisions: uint,
  lookups: uint,
  used: uint,
  served: orElse(uint, 0),
  tasks: uint,
  lower: num,
  promoted: bool,
}) satisfies v.GenericSchema<unknown, SiteRecord>;

const PromotionSchema = object({ bar: BarSchema, sites: record(SiteRecordSchema) });

/** surprise.rs's SurpriseGate: `quantile` may be absent or null (set by hand). */
const SurpriseGateSchema = v.pipe(
  object({ window: uint, threshold: num, quantile: orNull(num) }),
  v.transform(({ quantile, ...gate }): SurpriseGate => (quantile === null ? gate : { ...gate, quantile })),
);

/** The flow's parts after `engine_flow`, in the order the CLI reads them (the program is read apart). */
export const FlowPartsSchema = object({
  manifest: ManifestSchema,
  provenance: ProvenanceSchema,
  vocab: list(ActionSchema),
  map: CodeMapSchema,
  group: uint,
  habit: HabitSchema,
  sites: SitesSchema,
  predicates: list(PredicateSchema),
  weighed: list(PredicateSchema),
  folds: list(FoldSchema),
  bindings: BindingsSchema,
  model: str,
  promoted: orNull(PromotionSchema),
  thresholds: orElse(record(num), {}),
  contracts: orNull(record(str)),
  reach: orNull(BackoffSchema),
  surprise: orNull(SurpriseGateSchema),
});
export type FlowParts = v.InferOutput<typeof FlowPartsSchema>;

export type ActionCounts = v.InferOutput<typeof CountsSchema>;
export type BackoffModel = v.InferOutput<typeof BackoffSchema>;
export type Habit = v.InferOutput<typeof HabitSchema>;
export type VocabAction = v.InferOutput<typeof ActionSchema>;
export type ToolDoc = v.InferOutput<typeof ToolDocSchema>;
export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type CodeField = v.InferOutput<typeof FieldSchema>;
export type CodeMap = v.InferOutput<typeof CodeMapSchema>;
export type SiteKey = v.InferOutput<typeof SiteKeySchema>;
export type Sites = v.InferOutput<typeof SitesSchema>;
export type Predicate = v.InferOutput<typeof PredicateSchema>;
export type Fold = v.InferOutput<typeof FoldSchema>;
export type SourceStats = v.InferOutput<typeof SourceStatsSchema>;
export type SiteSource = v.InferOutput<typeof SiteSourceSchema>;
export type Bindings = v.InferOutput<typeof BindingsSchema>;
export type Agreed = Bindings['agreed'][string];
export type Promotion = v.InferOutput<typeof PromotionSchema>;

// ---------------------------------------------------------------------------------------------------------
// Why a value does not read
// ---------------------------------------------------------------------------------------------------------

/** A value as the messages name it. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value).slice(0, 40)}`;
  return `${typeof value} ${String(value)}`;
}

/** `manifest.tools.x`, `vocab[3]`: the keys from `from` (the top when empty), as the messages write them. */
export function pathText(items: readonly { key: unknown }[], from = ''): string {
  let out = from;
  for (const { key } of items) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}

/** The first issue of a read, as its message. */
export function readIssueText(issue: v.BaseIssue<unknown>): string {
  const items = issue.path ?? [];
  const last = items[items.length - 1];
  if (last?.origin === 'key') {
    const where = pathText(items.slice(0, -1));
    return where === '' ? `missing field \`${String(last.key)}\`` : `missing field \`${String(last.key)}\` in \`${where}\``;
  }
  const where = pathText(items);
  if (issue.type === 'length' && Array.isArray(issue.input)) {
    return `invalid length at \`${where}\`: ${issue.input.length}, expected a list of ${String(issue.requirement)}`;
  }
  return `invalid type at \`${where}\`: ${describe(issue.input)}, expected ${issue.message}`;
}

/** The flow's parts, or throws an Error saying why they do not read. */
export function readFlowParts(value: Record<string, unknown>): FlowParts {
  const read = v.safeParse(FlowPartsSchema, value, { abortEarly: true });
  if (!read.success) throw new Error(readIssueText(read.issues[0]));
  return read.output;
}
