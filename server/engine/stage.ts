// Staged learning, as the CLI's `stage`, `flow-commit`, `flow-rollback` and `flow-log` keep it on disk
// (init-doctor-stage.md §3). Beside the committed flow NAME.flow.json sit the staged flow
// NAME.staged.flow.json, the learner's state NAME.stage.json (its `last` comparison is what a commit records
// as evidence) and NAME.history/, every committed version as N.flow.json (the exact bytes) with its record
// N.json. Commit and rollback check everything before the first write, so a refusal writes nothing; each file
// is then written whole through the `write` the caller hands in (temp file beside + rename), so a reader, or a
// process killed mid-commit, sees the old file or the new one, never a part.
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as v from 'valibot';
import { DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT, WILSON_Z } from '../../shared/limits.ts';
import { loadFlow, type Flow } from './flows.ts';
import { flowDiff } from './diff.ts';
import { compareText } from './format.ts';
import { DiffSectionSchema } from '../../shared/flows.ts';
import { VersionKindSchema, type ComparisonView, type Counts, type VersionKind, type VersionView } from '../../shared/stage.ts';
import { errorText } from '../../shared/error-text.ts';
import { issueText } from '../../shared/issue-text.ts';

/** What was asked does not fit the files: nothing staged, nothing to commit, no such version (the API's 409). */
export class Refused extends Error {
  override readonly name = 'Refused';
}

/** The format version of NAME.stage.json that this build reads. */
export const STATE_VERSION = 1;

// ---------------------------------------------------------------------------------------------------------
// Paths

/** The files of one deployment's flow, all beside the committed flow. */
export interface StagePaths {
  /** NAME.flow.json: the flow the proxy serves. */
  committed: string;
  /** NAME.staged.flow.json: the flow `engine stage` learns. */
  staged: string;
  /** NAME.stage.json: the staged learner's state. */
  state: string;
  /** NAME.history/: every committed version. */
  history: string;
}

/** The files beside `committed`, which must be named NAME.flow.json and not be a staged flow (`Paths::of`). */
export function stagePaths(committed: string): StagePaths {
  const name = basename(committed);
  const stem = name.endsWith('.flow.json') ? name.slice(0, -'.flow.json'.length) : '';
  if (stem === '') throw new Error(`${committed}: name the committed flow NAME.flow.json, as engine init does`);
  if (stem.endsWith('.staged')) {
    let bare = stem;
    while (bare.endsWith('.staged')) bare = bare.slice(0, -'.staged'.length);
    throw new Error(`${committed} is a staged flow: name the committed one, ${bare}.flow.json`);
  }
  const beside = (suffix: string) => join(dirname(committed), `${stem}${suffix}`);
  return {
    committed,
    staged: beside('.staged.flow.json'),
    state: beside('.stage.json'),
    history: beside('.history'),
  };
}

/** The deployment a flow file belongs to, as its committed flow or as its staged one (the console's `paths_of`). */
export function stagePathsOf(flowFile: string): StagePaths {
  const name = basename(flowFile);
  const suffix = '.staged.flow.json';
  if (name.endsWith(suffix) && name.length > suffix.length) {
    return stagePaths(join(dirname(flowFile), `${name.slice(0, -suffix.length)}.flow.json`));
  }
  return stagePaths(flowFile);
}

/** Version `n`'s flow bytes in the history. */
const versionFlowPath = (paths: StagePaths, n: number) => join(paths.history, `${n}.flow.json`);
/** Version `n`'s record in the history. */
const versionRecordPath = (paths: StagePaths, n: number) => join(paths.history, `${n}.json`);

// ---------------------------------------------------------------------------------------------------------
// The state file and the comparison

const count = v.pipe(v.number(), v.integer('a whole number'), v.minValue(0, 'a whole number, 0 or more'));

const CountSchema = v.object({ decisions: count, lookups: count, used: count, served: count });
/** One flow's decisions and lookups at a site, or in all. */
export type Count = v.InferOutput<typeof CountSchema>;

const PairSchema = v.object({ committed: CountSchema, staged: CountSchema });
/** The committed and the staged flow's counts. */
export type Pair = v.InferOutput<typeof PairSchema>;

const ComparisonSchema = v.object({
  domain: v.string(),
  learned_unix_ms: count,
  sessions: count,
  new: count,
  committed: v.boolean(),
  compared: count,
  sites: v.record(v.string(), PairSchema),
  total: PairSchema,
  unanswered: v.tuple([count, count]),
  changes: v.array(DiffSectionSchema),
  needs_review: v.array(v.string()),
  carried: v.array(v.string()),
});
/** How the staged flow compares with the committed one: what `engine stage` reports and a commit records. */
export type Comparison = v.InferOutput<typeof ComparisonSchema>;

const SideSchema = v.object({
  sites: v.record(v.string(), CountSchema),
  unanswered: v.optional(count, 0),
});
/** One flow's lookups in one session. */
export type Side = v.InferOutput<typeof SideSchema>;

const EntrySchema = v.object({
  session: v.string(),
  committed: v.optional(v.nullable(SideSchema)),
  staged: v.optional(v.nullable(SideSchema)),
});
/** One session, as each flow did on it when it arrived. */
export type StageEntry = v.InferOutput<typeof EntrySchema>;

const StateSchema = v.object({
  engine_stage: count,
  domain: v.string(),
  sessions: v.array(v.string()),
  ledger: v.array(EntrySchema),
  last: v.optional(v.nullable(ComparisonSchema)),
});
/** NAME.stage.json. */
export type StageState = v.InferOutput<typeof StateSchema>;

/** `text` as JSON read through `schema`; throws `parsing <path>: why` when it is not. */
function parsedAs<S extends v.GenericSchema>(schema: S, text: string, path: string): v.InferOutput<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`parsing ${path}: ${errorText(e)}`);
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) throw new Error(`parsing ${path}: ${issueText(parsed.issues, 'not as expected')}`);
  return parsed.output;
}

/** Parse the text of NAME.stage.json found at `path` (the path names it in errors). */
export function parseState(text: string, path: string): StageState {
  const state = parsedAs(StateSchema, text, path);
  if (state.engine_stage !== STATE_VERSION) {
    throw new Error(`${path}: stage format ${state.engine_stage} is not supported (this build reads ${STATE_VERSION})`);
  }
  return state;
}

/** NAME.stage.json, or null when there is none. */
export async function loadState(path: string): Promise<StageState | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (isMissing(e)) return null;
    throw new Error(`reading ${path}: ${errorText(e)}`);
  }
  return parseState(text, path);
}

const zero = (): Count => ({ decisions: 0, lookups: 0, used: 0, served: 0 });
const zeroPair = (): Pair => ({ committed: zero(), staged: zero() });

function add(to: Count, c: Count): void {
  to.decisions += c.decisions;
  to.lookups += c.lookups;
  to.used += c.used;
  to.served += c.served;
}

/**
 * The comparison on the ledger's last `window` sessions that both flows were scored on (the staged flow alone
 * when `committed` is false). `new`, `learned_unix_ms`, `carried` and the changes are the caller's to set.
 */
export function compare(state: StageState, window: number, committed: boolean): Comparison {
  const cmp: Comparison = {
    domain: state.domain,
    learned_unix_ms: 0,
    sessions: state.sessions.length,
    new: 0,
    committed,
    compared: 0,
    sites: {},
    total: zeroPair(),
    unanswered: [0, 0],
    changes: [],
    needs_review: [],
    carried: [],
  };
  const sites = new Map<string, Pair>();
  for (let i = state.ledger.length - 1; i >= 0 && cmp.compared < window; i--) {
    const entry = state.ledger[i]!;
    if (!entry.staged || (committed && !entry.committed)) continue;
    cmp.compared += 1;
    const sides: [Side | null | undefined, 'committed' | 'staged', 0 | 1][] = [
      [entry.committed, 'committed', 0],
      [entry.staged, 'staged', 1],
    ];
    for (const [side, which, at] of sides) {
      if (!side) continue;
      cmp.unanswered[at] += side.unanswered;
      for (const [site, c] of Object.entries(side.sites)) {
        let pair = sites.get(site);
        if (!pair) sites.set(site, (pair = zeroPair()));
        add(pair[which], c);
        add(cmp.total[which], c);
      }
    }
  }
  cmp.sites = Object.fromEntries([...sites].sort(([a], [b]) => compareText(a, b)));
  return cmp;
}

/** The lookups the agent never made. */
export const detours = (c: Count): number => c.lookups - c.used - c.served;

/** The lower bound of the Wilson interval for `k` successes in `n` trials (promote::wilson_lower). */
export function wilsonLower(k: number, n: number, z: number = WILSON_Z): number {
  if (n === 0) return 0;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - margin) / (1 + z2 / n));
}

/** The share of the lookups whose use is known that the agent made, with its 90% interval; null without any. */
export function usedShare(c: Count): { share: number; lower: number; upper: number } | null {
  const known = c.lookups - c.served;
  if (known <= 0) return null;
  return {
    share: c.used / known,
    lower: wilsonLower(c.used, known),
    upper: 1 - wilsonLower(known - c.used, known),
  };
}

/** A comparison in the CLI's field order, sites sorted, unknown fields dropped: how it is written back. */
function canonicalComparison(c: Comparison): Comparison {
  const countOf = (x: Count): Count => ({ decisions: x.decisions, lookups: x.lookups, used: x.used, served: x.served });
  const pairOf = (p: Pair): Pair => ({ committed: countOf(p.committed), staged: countOf(p.staged) });
  return {
    domain: c.domain,
    learned_unix_ms: c.learned_unix_ms,
    sessions: c.sessions,
    new: c.new,
    committed: c.committed,
    compared: c.compared,
    sites: Object.fromEntries(
      Object.entries(c.sites)
        .sort(([a], [b]) => compareText(a, b))
        .map(([site, p]) => [site, pairOf(p)]),
    ),
    total: pairOf(c.total),
    unanswered: [c.unanswered[0], c.unanswered[1]],
    changes: c.changes.map((s) => ({ title: s.title, changes: [...s.changes] })),
    needs_review: [...c.needs_review],
    carried: [...c.carried],
  };
}

/** A count as the API shows it: with its detours and its share. */
function countsView(c: Count): Counts {
  return {
    decisions: c.decisions,
    lookups: c.lookups,
    used: c.used,
    served: c.served,
    detours: detours(c),
    used_share: usedShare(c),
  };
}

/** A comparison as the API shows it: sites as a list in site order, the total with site "". */
export function comparisonView(c: Comparison): ComparisonView {
  const pair = (site: string, p: Pair) => ({ site, committed: countsView(p.committed), staged: countsView(p.staged) });
  return {
    learned_unix_ms: c.learned_unix_ms,
    sessions: c.sessions,
    new: c.new,
    committed: c.committed,
    compared: c.compared,
    sites: Object.entries(c.sites)
      .sort(([a], [b]) => compareText(a, b))
      .map(([site, p]) => pair(site, p)),
    total: pair('', c.total),
    unanswered: [c.unanswered[0], c.unanswered[1]],
    carried: [...c.carried],
  };
}

// ---------------------------------------------------------------------------------------------------------
// The history


const RecordSchema = v.object({
  version: count,
  kind: VersionKindSchema,
  unix_ms: count,
  restored: v.optional(v.nullable(count)),
  note: v.optional(v.nullable(v.string())),
  changes: v.optional(v.array(v.string()), []),
  evidence: v.optional(v.nullable(ComparisonSchema)),
});

/** One version of the committed flow: NAME.history/N.json. Absent optional fields are null here. */
export interface VersionRecord {
  version: number;
  kind: VersionKind;
  unix_ms: number;
  restored: number | null;
  note: string | null;
  changes: string[];
  evidence: Comparison | null;
}

/** A record as the CLI writes it: pretty JSON, 2-space indent, empty optional fields left out. */
export function recordJson(r: VersionRecord): string {
  const out: Record<string, unknown> = { version: r.version, kind: r.kind, unix_ms: r.unix_ms };
  if (r.restored !== null) out.restored = r.restored;
  if (r.note !== null) out.note = r.note;
  if (r.changes.length > 0) out.changes = r.changes;
  if (r.evidence !== null) out.evidence = canonicalComparison(r.evidence);
  return JSON.stringify(out, null, 2);
}

/** Every version of the committed flow, the oldest first. Files other than N.json are ignored. */
export async function history(paths: StagePaths): Promise<VersionRecord[]> {
  let names: string[];
  try {
    names = await readdir(paths.history);
  } catch (e) {
    if (isMissing(e)) return [];
    throw new Error(`listing ${paths.history}: ${errorText(e)}`);
  }
  const records: VersionRecord[] = [];
  for (const name of names) {
    const m = /^\+?(\d+)\.json$/.exec(name);
    if (!m || Number(m[1]) > 0xffff_ffff) continue;
    const file = join(paths.history, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`reading ${file}: ${errorText(e)}`);
    }
    const r = parsedAs(RecordSchema, text, file);
    records.push({
      version: r.version,
      kind: r.kind,
      unix_ms: r.unix_ms,
      restored: r.restored ?? null,
      note: r.note ?? null,
      changes: r.changes,
      evidence: r.evidence ?? null,
    });
  }
  return records.sort((a, b) => a.version - b.version);
}

/** A version as the API shows it; `current` says whether it is the committed flow now. */
export function versionView(r: VersionRecord, current: boolean): VersionView {
  return {
    version: r.version,
    kind: r.kind,
    unix_ms: r.unix_ms,
    restored: r.restored,
    note: r.note,
    changes: [...r.changes],
    evidence: r.evidence === null ? null : comparisonView(r.evidence),
    current,
  };
}

async function readCommitted(paths: StagePaths): Promise<Buffer | null> {
  try {
    return await readFile(paths.committed);
  } catch (e) {
    if (isMissing(e)) return null;
    throw new Error(`reading ${paths.committed}: ${errorText(e)}`);
  }
}

/** Whether `current` is not the history's latest version (true with no history). */
async function differs(paths: StagePaths, versions: readonly VersionRecord[], current: Buffer): Promise<boolean> {
  const latest = versions.at(-1);
  if (!latest) return true;
  const file = versionFlowPath(paths, latest.version);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new Error(`reading ${file}: ${errorText(e)}`);
  }
  return !bytes.equals(current);
}

/**
 * Whether the committed flow is not the history's latest version: never committed through flow-commit, or
 * changed since by other means. False without a committed flow.
 */
export async function unrecorded(paths: StagePaths, versions: readonly VersionRecord[]): Promise<boolean> {
  const current = await readCommitted(paths);
  return current === null ? false : differs(paths, versions, current);
}

// ---------------------------------------------------------------------------------------------------------
// Commit and rollback

/** Writes a file whole or not at all (the console's writeFileAtomic: temp file beside, then rename). */
export type WriteWhole = (path: string, data: Uint8Array) => Promise<void>;

/** A flow from a file's bytes; throws the loader's error (why it does not load). */
function flowFrom(bytes: Buffer): Flow {
  return loadFlow(bytes.toString('utf8'));
}

/** What changed from `old` to `new`, as flow-diff lists it at its defaults (tolerance 0.05, threshold 0.3). */
function changesBetween(old: Flow, next: Flow): string[] {
  return flowDiff(old, next, DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT).changes;
}

/** A staged flow that a commit would take. */
export interface Candidate {
  bytes: Buffer;
  /** When it was learned: its provenance.compiled_unix_ms. */
  learned_unix_ms: number;
  committed: Buffer | null;
  /** What committing it changes, as flow-diff lists it at its defaults; [] without a committed flow. */
  changes: string[];
}

/**
 * The staged flow, if it can be committed: it exists and loads, the committed flow (if any) loads, is for its
 * domain, and differs from it. Throws Refused when nothing is staged, the domains differ, or the two are one.
 */
export async function candidate(paths: StagePaths): Promise<Candidate> {
  let bytes: Buffer;
  try {
    bytes = await readFile(paths.staged);
  } catch (e) {
    if (isMissing(e)) throw new Refused(`there is no staged flow at ${paths.staged}: engine stage learns it`);
    throw new Error(`reading ${paths.staged}: ${errorText(e)}`);
  }
  const staged = chained(`parsing ${paths.staged}`, () => flowFrom(bytes));
  const committed = await readCommitted(paths);
  let changes: string[] = [];
  if (committed !== null) {
    const flow = chained(`parsing ${paths.committed}`, () => flowFrom(committed));
    if (flow.domain !== staged.domain) {
      throw new Refused(`the staged flow is for ${staged.domain}, the committed one for ${flow.domain}`);
    }
    if (committed.equals(bytes)) throw new Refused('the staged flow is the committed one: nothing to commit');
    changes = changesBetween(flow, staged);
  }
  return { bytes, learned_unix_ms: staged.provenance.compiled_unix_ms, committed, changes };
}

/** Keep `bytes` as the next version with `record` (its number is set here): the flow first, then the record. */
async function keep(
  paths: StagePaths,
  versions: VersionRecord[],
  bytes: Buffer,
  record: Omit<VersionRecord, 'version'>,
  write: WriteWhole,
): Promise<VersionRecord> {
  const kept: VersionRecord = { ...record, version: (versions.at(-1)?.version ?? 0) + 1 };
  try {
    await mkdir(paths.history, { recursive: true });
  } catch (e) {
    throw new Error(`creating ${paths.history}: ${errorText(e)}`);
  }
  await writing(write, versionFlowPath(paths, kept.version), bytes);
  await writing(write, versionRecordPath(paths, kept.version), Buffer.from(recordJson(kept), 'utf8'));
  versions.push(kept);
  return kept;
}

/** Keep `current`, the committed flow as found, as a version of its own before a commit or rollback. */
async function keepFound(
  paths: StagePaths,
  versions: VersionRecord[],
  current: Buffer,
  nowMs: number,
  write: WriteWhole,
): Promise<void> {
  const last = versions.at(-1);
  let changes: string[] = [];
  if (last) {
    const file = versionFlowPath(paths, last.version);
    let before: Buffer;
    try {
      before = await readFile(file);
    } catch (e) {
      throw new Error(`reading ${file}: ${errorText(e)}`);
    }
    changes = changesBetween(
      chained(`parsing ${file}`, () => flowFrom(before)),
      flowFrom(current),
    );
  }
  const found = { kind: 'found', unix_ms: nowMs, restored: null, note: null, changes, evidence: null } as const;
  await keep(paths, versions, current, found, write);
}

/** A note as the console takes it: trimmed, and none when empty. */
export function cleanNote(note: string | null | undefined): string | null {
  const trimmed = note?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Make the staged flow the committed one, as `engine flow-commit` does. `evidence` (the state's `last`) is
 * recorded only when it is the staged flow's (same learned_unix_ms). Every check runs before the first write.
 */
export async function commitStaged(
  paths: StagePaths,
  note: string | null,
  evidence: Comparison | null,
  nowMs: number,
  write: WriteWhole,
): Promise<VersionRecord> {
  const staged = await candidate(paths);
  const versions = await history(paths);
  const found = staged.committed !== null && (await differs(paths, versions, staged.committed));
  if (found) await keepFound(paths, versions, staged.committed!, nowMs, write);
  const record = await keep(
    paths,
    versions,
    staged.bytes,
    {
      kind: 'commit',
      unix_ms: nowMs,
      restored: null,
      note,
      changes: staged.changes,
      evidence: evidence !== null && evidence.learned_unix_ms === staged.learned_unix_ms ? evidence : null,
    },
    write,
  );
  await writing(write, paths.committed, staged.bytes);
  return record;
}

/**
 * Make version `to` the committed flow again, as a version of its own (`engine flow-rollback`). Without `to`:
 * the latest version when the committed flow changed by other means since, else the one before the latest.
 */
export async function rollbackFlow(
  paths: StagePaths,
  to: number | null,
  note: string | null,
  nowMs: number,
  write: WriteWhole,
): Promise<VersionRecord> {
  const current = await readCommitted(paths);
  if (current === null) throw new Refused(`there is no committed flow at ${paths.committed}`);
  const versions = await history(paths);
  const changed = await differs(paths, versions, current);
  const latest = versions.at(-1)?.version ?? 0;
  let target: number;
  if (to !== null) target = to;
  else if (changed && latest > 0) target = latest;
  else if (!changed && latest > 1) target = latest - 1;
  else throw new Refused(`${paths.committed} has no earlier version to roll back to`);
  if (!versions.some((r) => r.version === target)) {
    throw new Refused(`there is no version ${target}: ${paths.committed} has versions 1 to ${latest}`);
  }
  if (target === latest && !changed) throw new Refused(`version ${target} is the committed flow already`);
  const file = versionFlowPath(paths, target);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new Error(`reading ${file}: ${errorText(e)}`);
  }
  const changes = changesBetween(flowFrom(current), flowFrom(bytes));
  if (changed) await keepFound(paths, versions, current, nowMs, write);
  const record = await keep(
    paths,
    versions,
    bytes,
    { kind: 'rollback', unix_ms: nowMs, restored: target, note, changes, evidence: null },
    write,
  );
  await writing(write, paths.committed, bytes);
  return record;
}

// ---------------------------------------------------------------------------------------------------------

/** One whole-file write, failing as the CLI's does: `writing {path}: cause`. */
async function writing(write: WriteWhole, path: string, data: Uint8Array): Promise<void> {
  try {
    await write(path, data);
  } catch (e) {
    throw new Error(`writing ${path}: ${errorText(e)}`);
  }
}

function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ENOENT';
}

/** Run `f`, giving a failure the context `what` the way the CLI chains its errors (`what: cause`). */
function chained<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new Error(`${what}: ${errorText(e)}`);
  }
}
