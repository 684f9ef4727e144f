// `engine flow-diff OLD NEW` (flow-review.md §5): every change between two flows, heading by heading, the
// changes a reviewer must look at (anything that lets the new flow do what the old could not), and the
// Markdown. Tolerance applies only to next shares, binding chances and arbiter weights; the threshold is
// the one both flows are weighed at. Pure: the console runs it in the worker pool, the stage code calls it.
import type { DiffSection } from '../../shared/flows.ts';
import type { ToolKind } from '../../shared/sessions.ts';
import { compareText, display, fixed, percent, sortedJson, thousands } from './format.ts';
import { actsAt, compareSiteKeys, hasArbiter, nextAt, siteKeys, siteLabel, switchedOff, type Flow } from './flows.ts';
import type { Predicate, SiteKey } from './flow-schema.ts';
import {
  clears,
  likeliest,
  lookupBinding,
  nextShares,
  pickChance,
  requiredArgs,
  siteAction,
} from './review.ts';
import { constantJson, fieldText, meanWeights, siteOrders, weighedName, weightNames } from './flow-text.ts';
import { programOf, programText, sameProgram } from './program-text.ts';
import { gateSummary, sameGate } from './surprise-gate.ts';

export interface FlowDiff {
  /** The changes a reviewer must look at, in the order they were found. */
  review: string[];
  /** Every change, all sections' changes in section order. */
  changes: string[];
  /** Only the headings with changes, in the fixed order. */
  sections: DiffSection[];
  /** flow-diff's text (without the CLI's "n change(s) need review" line, which goes to stderr). */
  markdown: string;
}

const NOTHING_TO_REVIEW =
  'Nothing needs review: the flow runs the same program, and calls no tool, makes no lookup, binds no argument and asks no model or question it did not before.';

function kindName(kind: ToolKind | undefined): string {
  if (kind === undefined) return 'absent';
  return kind === 'generic' ? 'neither' : kind;
}

function ids(list: { id: string }[]): string {
  return list.length === 0 ? 'none' : list.map((p) => `\`${p.id}\``).join(', ');
}

const sortedUnion = (a: Iterable<string>, b: Iterable<string>) => [...new Set([...a, ...b])].sort(compareText);

/** Tuples (arg, source tool, path) over a lookup's required arguments' usable sources. */
function boundFrom(flow: Flow, lookup: string): Map<string, [string, string, string]> {
  const out = new Map<string, [string, string, string]>();
  if (!flow.bindings.args[lookup]) return out;
  for (const arg of requiredArgs(flow, lookup)) {
    for (const s of arg.sources) out.set(JSON.stringify([arg.name, s.tool, s.path]), [arg.name, s.tool, s.path]);
  }
  return out;
}

function sortedTuples(m: Map<string, [string, string, string]>, skip: Map<string, unknown>): [string, string, string][] {
  return [...m]
    .filter(([k]) => !skip.has(k))
    .map(([, t]) => t)
    .sort(byTriple);
}

function promotionSummary(flow: Flow): string {
  const p = flow.promoted;
  if (!p) return 'none: it may act after every call';
  const records = Object.values(p.sites);
  const promoted = records.filter((r) => r.promoted).length;
  return `${promoted} of ${records.length} sites scored (at least ${fixed(100 * p.bar.min_used, 0)}% used, a lower bound of ${fixed(p.bar.min_lower, 2)}, ${p.bar.min_tasks} tasks, at ${display(p.bar.threshold)})`;
}

function thresholdText(t: number | undefined): string {
  if (t === undefined) return 'the served threshold';
  return t > 1 ? 'off' : fixed(t, 2);
}

const samePredicate = (a: Predicate, b: Predicate) => sortedJson(a) === sortedJson(b);

/** What every section compares: the two flows at a tolerance and threshold, and the review list they add to. */
interface Diffing {
  old: Flow;
  next: Flow;
  tolerance: number;
  threshold: number;
  oldKeys: SiteKey[];
  newKeys: SiteKey[];
  /** The changes a reviewer must look at, added section by section in the order they are found. */
  review: string[];
}

/** One heading of flow-diff: its changes, and what of them needs review (added to `d.review`). */
type Section = (d: Diffing) => DiffSection;

const hasSite = (keys: SiteKey[], k: SiteKey) => keys.some((x) => x[0] === k[0] && x[1] === k[1]);
const byTriple = (a: [string, string, string], b: [string, string, string]) =>
  compareText(a[0], b[0]) || compareText(a[1], b[1]) || compareText(a[2], b[2]);

function toolChanges({ old, next, review }: Diffing): DiffSection {
  const changes: string[] = [];
  for (const t of sortedUnion(Object.keys(old.manifest.tools), Object.keys(next.manifest.tools))) {
    const a = old.manifest.tools[t];
    const b = next.manifest.tools[t];
    if (a === b) continue;
    changes.push(`\`${t}\`: ${kindName(a)} → ${kindName(b)}`);
    if (b === 'read') review.push(`\`${t}\` is now marked read-only, so the flow may call it`);
  }
  return { title: 'Tools', changes };
}

function runChanges({ old, next, review }: Diffing): DiffSection {
  const changes: string[] = [];
  if (!sameProgram(programOf(old), programOf(next))) {
    const before = programText(programOf(old)).split('\n');
    const after = programText(programOf(next)).split('\n');
    for (const line of before) if (!after.includes(line)) changes.push(`no longer runs \`${line.trim()}\``);
    for (const line of after) if (!before.includes(line)) changes.push(`now runs \`${line.trim()}\``);
    if (changes.length === 0) changes.push('runs the same lines in another order');
    review.push('the flow\'s run changed: its program is not the one it was');
  }
  return { title: 'Run', changes };
}

function siteChanges({ old, next, oldKeys, newKeys, review }: Diffing): DiffSection {
  const changes: string[] = [];
  if (next.sites.every_read && !old.sites.every_read) {
    changes.push('every read tool is now offered after every call');
    review.push('every read tool is now offered after every call');
  } else if (old.sites.every_read && !next.sites.every_read) {
    changes.push('only the lookups training showed are offered now');
  }
  const allKeys = [...oldKeys, ...newKeys.filter((k) => !hasSite(oldKeys, k))].sort(compareSiteKeys);
  for (const site of allKeys) {
    const label = siteLabel(site);
    const before = Object.keys(nextAt(old, site) ?? {});
    const after = Object.keys(nextAt(next, site) ?? {});
    for (const l of after.filter((x) => !before.includes(x)).sort(compareText)) {
      changes.push(`after ${label}: may now look up \`${l}\``);
      review.push(`a new lookup: \`${l}\` after ${label}`);
    }
    for (const l of before.filter((x) => !after.includes(x)).sort(compareText)) {
      changes.push(`after ${label}: no longer looks up \`${l}\``);
    }
    if (hasSite(oldKeys, site) && hasSite(newKeys, site)) {
      const a = actsAt(old, site);
      const b = actsAt(next, site);
      if (!a && b) {
        changes.push(`after ${label}: now acts`);
        review.push(`the flow now acts after ${label}, where it handed back`);
      } else if (a && !b) {
        changes.push(`after ${label}: no longer acts (${switchedOff(next, site) ? 'switched off' : 'not promoted'})`);
      }
    }
  }
  for (const name of sortedUnion(Object.keys(old.thresholds), Object.keys(next.thresholds))) {
    const a = old.thresholds[name];
    const b = next.thresholds[name];
    if (a !== b) changes.push(`after \`${name}\`: ${thresholdText(b)} (was: ${thresholdText(a)})`);
  }
  return { title: 'Sites', changes };
}

/** What each site does at the threshold: a site that starts or stops acting, or acts with another lookup. */
function decisionChanges({ old, next, oldKeys, newKeys, threshold }: Diffing): DiffSection {
  const changes: string[] = [];
  for (const site of newKeys) {
    const label = siteLabel(site);
    const lb = likeliest(next, site);
    const clearsB = clears(next, site, threshold, lb);
    if (!hasSite(oldKeys, site)) {
      if (clearsB) changes.push(`after ${label}, a new site: ${siteAction(next, site, threshold, lb)}`);
      continue;
    }
    const la = likeliest(old, site);
    const clearsA = clears(old, site, threshold, la);
    if (clearsA !== clearsB || (clearsA && clearsB && la?.tool !== lb?.tool)) {
      changes.push(`after ${label}: ${siteAction(next, site, threshold, lb)} (was: ${siteAction(old, site, threshold, la)})`);
    }
  }
  return { title: `With ${weighedName(next)}, at ${display(threshold)}`, changes };
}

/** What the agent did next in training, at the sites both flows have, where a share moved by the tolerance. */
function shareChanges({ old, next, oldKeys, newKeys, tolerance }: Diffing): DiffSection {
  const changes: string[] = [];
  for (const site of newKeys) {
    if (!hasSite(oldKeys, site)) continue;
    const label = siteLabel(site);
    const x = nextShares(old, site).shares;
    const y = nextShares(next, site).shares;
    for (const action of sortedUnion(x.keys(), y.keys())) {
      const a = x.get(action) ?? 0;
      const b = y.get(action) ?? 0;
      if (Math.abs(a - b) >= tolerance) changes.push(`after ${label}: ${action} ${percent(a)} → ${percent(b)}`);
    }
  }
  return { title: 'What the agent did next in training', changes };
}

function bindingChanges({ old, next, tolerance, review }: Diffing): DiffSection {
  const changes: string[] = [];
  for (const l of sortedUnion(Object.keys(old.bindings.args), Object.keys(next.bindings.args))) {
    const before = boundFrom(old, l);
    const after = boundFrom(next, l);
    for (const [arg, t, p] of sortedTuples(after, before)) {
      changes.push(`\`${l}\` binds \`${arg}\` from \`${t}\` at \`${p}\``);
      review.push(`a new binding: \`${l}\`'s \`${arg}\` from \`${t}\` at \`${p}\``);
    }
    for (const [arg, t, p] of sortedTuples(before, after)) {
      changes.push(`\`${l}\` no longer binds \`${arg}\` from \`${t}\` at \`${p}\``);
    }
    const a = lookupBinding(old, l);
    const b = lookupBinding(next, l);
    if (!a || !b) continue;
    (['not mentioned', 'mentioned'] as const).forEach((when, i) => {
      if (Math.abs(a.chance[i]! - b.chance[i]!) >= tolerance) {
        changes.push(`\`${l}\`'s chance (${when}): ${fixed(a.chance[i]!, 2)} → ${fixed(b.chance[i]!, 2)}`);
      }
    });
    const picks = (field: 'named_other' | 'described_read', title: string) => {
      const ca = old.bindings[field][l];
      const cb = next.bindings[field][l];
      if (ca === undefined && cb === undefined) return;
      const x = ca ? pickChance(ca, a.chance[0]) : a.chance[0];
      const y = cb ? pickChance(cb, b.chance[0]) : b.chance[0];
      if (Math.abs(x - y) >= tolerance) changes.push(`\`${l}\`'s chance (${title}): ${fixed(x, 2)} → ${fixed(y, 2)}`);
    };
    picks('named_other', 'another named');
    picks('described_read', 'the described record read');
  }
  return { title: 'Bindings', changes };
}

function sourceChanges({ old, next }: Diffing): DiffSection {
  const firsts = (flow: Flow) =>
    new Map(siteOrders(flow).map((o) => [JSON.stringify([o.tool, o.arg, o.site]), o.order[0]!]));
  const oldFirst = firsts(old);
  const newFirst = firsts(next);
  const changes: string[] = [];
  const triples = sortedUnion(oldFirst.keys(), newFirst.keys())
    .map((k) => JSON.parse(k) as [string, string, string])
    .sort(byTriple);
  for (const [tool, arg, site] of triples) {
    const key = JSON.stringify([tool, arg, site]);
    const a = oldFirst.get(key);
    const b = newFirst.get(key);
    const head = `\`${tool}\` \`${arg}\` after \`${site}\``;
    if (a && b) {
      if (a.tool !== b.tool || a.path !== b.path) {
        changes.push(`${head}: first from \`${a.tool}\` \`${a.path}\` → \`${b.tool}\` \`${b.path}\``);
      }
    } else if (b) {
      changes.push(`${head}: first from \`${b.tool}\` \`${b.path}\` (was: the most recent output)`);
    } else if (a) {
      changes.push(`${head}: the most recent output first (was: \`${a.tool}\` \`${a.path}\`)`);
    }
  }
  return { title: 'Sources by site', changes };
}

function constantChanges({ old, next, review }: Diffing): DiffSection {
  const constantMap = (flow: Flow) =>
    new Map(flow.bindings.constants.map(([[t, a], value]) => [JSON.stringify([t, a]), constantJson(value)]));
  const oldConstants = constantMap(old);
  const newConstants = constantMap(next);
  const changes: string[] = [];
  const constantKeys = sortedUnion(oldConstants.keys(), newConstants.keys())
    .map((k) => JSON.parse(k) as [string, string])
    .sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
  for (const [tool, arg] of constantKeys) {
    const key = JSON.stringify([tool, arg]);
    const a = oldConstants.get(key);
    const b = newConstants.get(key);
    if (a !== undefined && b !== undefined) {
      if (a !== b) {
        changes.push(`\`${tool}\` \`${arg}\`: \`${a}\` → \`${b}\``);
        review.push(`a changed constant: \`${tool}\`'s \`${arg}\` is now \`${b}\``);
      }
    } else if (b !== undefined) {
      changes.push(`\`${tool}\` \`${arg}\`: \`${b}\``);
      review.push(`a new constant: \`${tool}\`'s \`${arg}\` is always \`${b}\``);
    } else if (a !== undefined) {
      changes.push(`\`${tool}\` \`${arg}\` no longer passes \`${a}\``);
    }
  }
  return { title: 'Constants', changes };
}

function pinnedChanges({ old, next }: Diffing): DiffSection {
  const changes: string[] = [];
  for (const t of sortedUnion(Object.keys(old.contracts ?? {}), Object.keys(next.contracts ?? {}))) {
    const a = old.contracts?.[t];
    const b = next.contracts?.[t];
    if (a !== undefined && b !== undefined) {
      if (a !== b) changes.push(`\`${t}\`: \`${a}\` → \`${b}\``);
    } else if (b !== undefined && old.contracts !== null) {
      changes.push(`\`${t}\` pinned: \`${b}\``);
    } else if (a !== undefined && next.contracts !== null) {
      changes.push(`\`${t}\` no longer pinned`);
    }
  }
  return { title: 'Pinned inputs', changes };
}

function featureChanges({ old, next }: Diffing): DiffSection {
  const featureList = (flow: Flow, t: string) => {
    const fields = flow.map.fields[t] ?? [];
    return fields.length === 0 ? 'none' : fields.map((f) => `\`${fieldText(f)}\``).join(', ');
  };
  const changes: string[] = [];
  const withFields = (flow: Flow) => Object.keys(flow.map.fields).filter((t) => (flow.map.fields[t] ?? []).length > 0);
  for (const t of sortedUnion(withFields(old), withFields(next))) {
    const a = featureList(old, t);
    const b = featureList(next, t);
    if (a !== b) changes.push(`\`${t}\`: ${a} → ${b}`);
  }
  return { title: 'Code features', changes };
}

function arbiterChanges({ old, next, tolerance, review }: Diffing): DiffSection {
  const changes: string[] = [];
  if (!hasArbiter(old) && hasArbiter(next)) {
    const asked = next.predicates.length > 0 ? `, with the predicates ${ids(next.predicates)}` : '';
    changes.push(
      `now has an arbiter, fitted on ${thousands(next.provenance.arbiter_cases)} held-out decisions, which asks \`${next.model}\`${asked}`,
    );
    review.push(`the flow now asks \`${next.model}\` at each decision${asked}`);
  } else if (hasArbiter(old) && !hasArbiter(next)) {
    changes.push(`no longer has an arbiter: ${weighedName(next)} decides`);
  } else if (hasArbiter(old) && hasArbiter(next)) {
    if (old.model !== next.model) {
      changes.push(`asks \`${next.model}\` instead of \`${old.model}\``);
      review.push(`the System-One model is now \`${next.model}\``);
    }
    const fresh = next.predicates.filter((p) => !old.predicates.some((q) => samePredicate(p, q)));
    if (fresh.length > 0) {
      changes.push(`asks new or reworded predicates: ${ids(fresh)}`);
      review.push(`the flow asks new or reworded predicates: ${ids(fresh)}`);
    }
    const gone = old.predicates.filter((p) => !next.predicates.some((q) => q.id === p.id));
    if (gone.length > 0) changes.push(`no longer asks ${ids(gone)}`);
    changes.push(...weightChanges(old, next, tolerance));
  }
  return { title: 'Arbiter', changes };
}

/** The arbiter's mean weights that moved by the tolerance, when both weigh the same predicates. */
function weightChanges(old: Flow, next: Flow, tolerance: number): string[] {
  const sameWeighed = old.weighed.length === next.weighed.length && old.weighed.every((p, i) => p.id === next.weighed[i]?.id);
  if (!sameWeighed) return [`weighs ${ids(next.weighed)} (was ${ids(old.weighed)})`];
  const changes: string[] = [];
  const names = weightNames(next);
  const a = meanWeights(old.folds);
  const b = meanWeights(next.folds);
  const n = Math.min(names.length, a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (Math.abs(a[i]! - b[i]!) >= tolerance) changes.push(`weight on ${names[i]}: ${fixed(a[i]!, 3)} → ${fixed(b[i]!, 3)}`);
  }
  return changes;
}

function promotionChanges({ old, next }: Diffing): DiffSection {
  const same =
    old.promoted === null ? next.promoted === null : next.promoted !== null && sortedJson(old.promoted) === sortedJson(next.promoted);
  return { title: 'Promotion', changes: same ? [] : [`${promotionSummary(old)} → ${promotionSummary(next)}`] };
}

/** A later engine's gate (review.rs `diff`): one change when it differs, never one to review. */
function surpriseChanges({ old, next }: Diffing): DiffSection {
  const same = sameGate(old.surprise, next.surprise);
  return { title: 'Surprise', changes: same ? [] : [`${gateSummary(old.surprise)} → ${gateSummary(next.surprise)}`] };
}

function provenanceChanges({ old, next }: Diffing): DiffSection {
  const changes: string[] = [];
  const a = old.provenance;
  const b = next.provenance;
  if (a.sources.join('\u0000') !== b.sources.join('\u0000') || a.sources.length !== b.sources.length) {
    changes.push(`sources: ${a.sources.join(', ')} → ${b.sources.join(', ')}`);
  }
  if (a.habit_episodes !== b.habit_episodes) {
    changes.push(
      `the habit learned from ${thousands(a.habit_episodes)} → ${thousands(b.habit_episodes)} successful sessions or episodes`,
    );
  }
  if (a.arbiter_cases !== b.arbiter_cases) {
    changes.push(`held-out decisions behind the arbiter: ${thousands(a.arbiter_cases)} → ${thousands(b.arbiter_cases)}`);
  }
  return { title: 'Provenance', changes };
}

/** flow-diff's headings in their fixed order (flow-review.md §5). */
const SECTIONS: readonly Section[] = [
  toolChanges,
  runChanges,
  siteChanges,
  decisionChanges,
  shareChanges,
  bindingChanges,
  sourceChanges,
  constantChanges,
  pinnedChanges,
  featureChanges,
  arbiterChanges,
  promotionChanges,
  surpriseChanges,
  provenanceChanges,
];

/** Every change from `old` to `next` at a threshold, with the changes to review and the Markdown. */
export function flowDiff(old: Flow, next: Flow, tolerance: number, threshold: number): FlowDiff {
  const d: Diffing = { old, next, tolerance, threshold, oldKeys: siteKeys(old), newKeys: siteKeys(next), review: [] };
  const kept = SECTIONS.map((section) => section(d)).filter((s) => s.changes.length > 0);
  return { review: d.review, changes: kept.flatMap((s) => s.changes), sections: kept, markdown: diffMarkdown(next.domain, d.review, kept) };
}

/** flow-diff's text: the title, what needs review, then each section's changes. */
function diffMarkdown(domain: string, review: string[], sections: DiffSection[]): string {
  let out = `# Flow diff: ${domain}\n\n`;
  if (review.length === 0) out += `${NOTHING_TO_REVIEW}\n`;
  else out += `**Needs review:**\n\n${review.map((r) => `- ${r}\n`).join('')}`;
  for (const s of sections) out += `\n## ${s.title}\n\n${s.changes.map((c) => `- ${c}\n`).join('')}`;
  return out;
}

