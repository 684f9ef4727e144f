// `engine flow-show` as text, byte for byte (flow-review.md §4): the Markdown a reviewer reads before
// serving a flow, written as a sequence of sections, each a function that appends its lines. Every number
// goes through format.ts so ties round to even as the CLI's do.
import type { ReviewView } from '../../shared/flows.ts';
import { compareText, display, fixed, percent, sortedJson, thousands } from './format.ts';
import { hasArbiter, hasReach, servedDecider, siteKeys, siteLabel, type Flow } from './flows.ts';
import { constantJson, fieldText, foldKey, namedWeights, siteOrders, weighedName } from './flow-text.ts';
import { isStandardProgram, programOf, programText } from './program-text.ts';
import { describeGate } from './surprise-gate.ts';
import { lookupBinding, pickChance, requiredArgs, reviewView, type LookupBinding } from './review.ts';

/** What every section reads: the flow, its review at the threshold, and the threshold. */
interface Shown {
  flow: Flow;
  view: ReviewView;
  threshold: number;
}

/** A section appends its lines; each but the first starts with the blank line that ends the one before. */
type Section = (s: Shown, out: string[]) => void;

const KIND_GROUPS: [kind: string, label: string][] = [
  ['read', 'Read, the only tools it may call'],
  ['write', 'Write, never called'],
  ['generic', 'Neither, never called'],
];

function deciderSentence(flow: Flow): string {
  switch (servedDecider(flow)) {
    case 'arbiter':
      return `Its arbiter was fitted on ${thousands(flow.provenance.arbiter_cases)} held-out decisions and asks \`${flow.model}\`.`;
    case 'reach':
      return 'It has no arbiter and asks no one: it decides by how often each lookup came before the agent\'s next write (`reach`).';
    default:
      return 'It has no arbiter: it decides with the habit alone and asks no one.';
  }
}

function chanceCells(flow: Flow, b: LookupBinding, named: boolean, described: boolean): string {
  const [[a, n], [c, m]] = b.agreed;
  let cell = b.bindable ? `${fixed(b.chance[0], 2)} (${a}/${n}), ${fixed(b.chance[1], 2)} (${c}/${m})` : '—';
  const extra = (counts: [number, number] | undefined) => {
    if (!b.bindable) return '—';
    if (counts) return `${fixed(pickChance(counts, b.chance[0]), 2)} (${counts[0]}/${counts[1]})`;
    return `${fixed(b.chance[0], 2)}, as not mentioned`;
  };
  if (named) cell += ` | ${extra(flow.bindings.named_other[b.tool])}`;
  if (described) cell += ` | ${extra(flow.bindings.described_read[b.tool])}`;
  return cell;
}

function intro({ flow }: Shown, out: string[]): void {
  const p = flow.provenance;
  const sources = p.sources.length > 0 ? p.sources.join(', ') : 'no named source';
  const also =
    hasArbiter(flow) && hasReach(flow)
      ? ' It also counts how often each action came before the agent\'s next write, which `--flow-decider reach` serves.'
      : '';
  out.push(
    `# Flow: ${flow.domain}`,
    '',
    `Written by engine ${p.engine} from ${sources}. The habit learned from ${thousands(p.habit_episodes)} successful sessions or episodes. ${deciderSentence(flow)}${also}`,
  );
}

function tools({ view }: Shown, out: string[]): void {
  out.push('', '## Tools', '');
  for (const [kind, label] of KIND_GROUPS) {
    const names = view.tools.filter((t) => t.kind === kind).map((t) => `\`${t.name}\``);
    if (names.length > 0) out.push(`- **${label}:** ${names.join(', ')}`);
  }
}

function run({ flow }: Shown, out: string[]): void {
  const standard = isStandardProgram(flow)
    ? 'This is the standard run: decide, look up, and decide again, until the flow hands back or has made `max_lookups` lookups (`--flow-per-call`).'
    : '**This is not the standard run.** Review it as code the flow runs.';
  out.push(
    '',
    '## Run',
    '',
    `What the flow does after each call, as a fugue program (\`program\`): \`Decide\` is a decision between handing back (0) and the lookups offered after the call just made, and \`Outcome\` whether a lookup succeeds. The proxy decides with the decider it serves the flow with (\`--flow-decider\`: the arbiter, the habit alone, or \`reach\`) and takes each outcome from the server. ${standard}`,
    '',
    '~~~text',
    programText(programOf(flow)),
    '~~~',
  );
}

function sites({ flow, view, threshold }: Shown, out: string[]): void {
  out.push('', '## Sites', '');
  if (flow.sites.every_read) {
    out.push(
      'Every read tool is offered after every call (`--manifest-options`); the table lists those training showed.',
      '',
    );
  }
  const weighed = weighedName(flow);
  const reachClause = servedDecider(flow) === 'reach' ? ' of the times the agent made it before its next write,' : '';
  out.push(
    `After each call: the lookups the flow may make next, what the agent did next in training, and what the flow does there with ${weighed} at a threshold of ${display(threshold)}, which is the likeliest lookup's share${reachClause} times the chance its bound arguments are the agent's. The share pools over the calls before and the code features, so a live decision near the threshold can go either way.`,
    '',
  );
  const thresholdCount = Object.keys(flow.thresholds).length;
  if (thresholdCount > 0) {
    out.push(
      `A search set the threshold at ${thresholdCount} of these sites (\`thresholds\`), and the table uses those. A site set above 1 is switched off.`,
      '',
    );
  }
  out.push(
    `| After | Lookups it may make next (times seen) | What the agent did next in training | With ${weighed} |`,
    '|---|---|---|---|',
  );
  const keys = siteKeys(flow);
  view.sites.forEach((site, i) => {
    const offered = site.lookups
      .filter((l) => l.count > 0)
      .map((l) => `\`${l.tool}\` (${display(l.count)})`)
      .join(', ');
    const top = site.next
      .slice(0, 4)
      .map((n) => `${n.action} ${percent(n.share)}`)
      .join(', ');
    out.push(`| ${siteLabel(keys[i]!)} | ${offered} | ${top} (of ${thousands(site.steps)}) | ${site.verdict} |`);
  });
}

function promotion({ flow }: Shown, out: string[]): void {
  const promoted = flow.promoted;
  if (!promoted) return;
  const bar = promoted.bar;
  out.push(
    '',
    '## Promotion',
    '',
    'The flow acts only after the promoted calls, and hands back after the rest (`engine promote`).',
    '',
    `A site is promoted when, at a threshold of ${display(bar.threshold)}, at least ${fixed(100 * bar.min_used, 0)}% of the flow's lookups there were ones the agent made in a later LLM turn, the 90% interval's lower bound on that share is at least ${fixed(bar.min_lower, 2)}, and the lookups came from at least ${bar.min_tasks} tasks.`,
    '',
    '| After | Decisions | Lookups it would make | Made by the agent later | Lower bound | Tasks | Promoted |',
    '|---|---|---|---|---|---|---|',
  );
  for (const site of Object.keys(promoted.sites).sort(compareText)) {
    const r = promoted.sites[site]!;
    const used = r.lookups > 0 ? `${r.used} (${fixed((100 * r.used) / r.lookups, 0)}%)` : '—';
    out.push(`| \`${site}\` | ${r.decisions} | ${r.lookups} | ${used} | ${fixed(r.lower, 2)} | ${r.tasks} | ${r.promoted ? 'yes' : 'no'} |`);
  }
}

/** A later engine's gate (review.rs `show`, the version with `## Surprise`): its text, byte for byte. */
function surprise({ flow }: Shown, out: string[]): void {
  if (!flow.surprise) return;
  out.push(
    '',
    '## Surprise',
    '',
    `The flow ${describeGate(flow.surprise)} (\`learn --surprise\`). A step's surprise is −ln of the habit's probability of what the agent did, after a call where the flow decides; a step it does not offer there counts as handing back, and the flow's own lookups are not the agent's steps. \`--surprise off\` serves the flow without the gate, and \`--surprise NATS\` with another threshold.`,
  );
}

function bindings({ flow }: Shown, out: string[]): void {
  const all = Object.keys(flow.bindings.args)
    .sort(compareText)
    .map((tool) => lookupBinding(flow, tool)!);
  const named = all.some((b) => flow.bindings.named_other[b.tool] !== undefined);
  const described = all.some((b) => flow.bindings.described_read[b.tool] !== undefined);
  out.push(
    '',
    '## Bindings',
    '',
    `Where each lookup's required arguments come from, and how often binding them that way gave the agent's own arguments in training, when the customer had not mentioned the values and when they had. With nothing tried, the chance is 1/2.${
      named
        ? ' Where the customer had named another value at the sources, a column counts the values the binding would pass instead, and how many of them the agent went on to pass: the chance there.'
        : ''
    }${
      described
        ? ' Where the record the customer described had been read (another of the same list returned a value they gave, such as their phone number), a column counts the same for the next of that list.'
        : ''
    }`,
    '',
    `| Lookup | Argument | Bound from (values found there, of the values it took) | Chance it is the agent's (right/tried): not mentioned, mentioned |${
      named ? ' Another named (used/passed) |' : ''
    }${described ? ' The described record read (used/passed) |' : ''}`,
    `|---|---|---|---|${named ? '---|' : ''}${described ? '---|' : ''}`,
  );
  for (const b of all) {
    const cells = chanceCells(flow, b, named, described);
    if (b.args.length === 0) out.push(`| \`${b.tool}\` | none | made once | ${cells} |`);
    for (const arg of requiredArgs(flow, b.tool)) {
      const from =
        arg.sources.length === 0
          ? 'nothing: the flow never makes this lookup'
          : arg.sources.map((s) => `\`${s.tool}\` at \`${s.path}\` (${display(s.count)} of ${display(arg.values)})`).join('; ');
      out.push(`| \`${b.tool}\` | \`${arg.name}\` | ${from} | ${cells} |`);
    }
  }
}

function constants({ flow }: Shown, out: string[]): void {
  if (flow.bindings.constants.length === 0) return;
  out.push(
    '',
    '## Constants',
    '',
    'Arguments the agent passed with one value in every call of a lookup (`learn --constants`), which the binding passes as it did:',
    '',
  );
  const sorted = [...flow.bindings.constants].sort(
    ([[t1, a1]], [[t2, a2]]) => compareText(t1, t2) || compareText(a1, a2),
  );
  for (const [[tool, arg], value] of sorted) out.push(`- \`${tool}\` \`${arg}\`: \`${constantJson(value)}\``);
}

function sourcesBySite({ flow }: Shown, out: string[]): void {
  const orders = siteOrders(flow);
  if (orders.length === 0) return;
  out.push(
    '',
    '## Sources by site',
    '',
    'Where an argument has more than one source, the order the binding tries them at a site: the sources the agent took its values from there, most used first, each the most recent output first. At other sites, the most recent output first.',
    '',
  );
  for (const o of orders) {
    const order = o.order.map((r) => `\`${r.tool}\` \`${r.path}\` (${display(r.n)})`).join(', ');
    out.push(`- \`${o.tool}\` \`${o.arg}\`, after \`${o.site}\`: ${order}`);
  }
}

function pinnedInputs({ flow }: Shown, out: string[]): void {
  const pinned = Object.entries(flow.contracts ?? {})
    .filter(([tool]) => flow.bindings.args[tool] !== undefined)
    .sort(([a], [b]) => compareText(a, b));
  if (pinned.length === 0) return;
  out.push(
    '',
    '## Pinned inputs',
    '',
    'Each lookup\'s arguments as the server listed them when the sessions were recorded. `engine-proxy` makes no lookup of a tool whose server lists other arguments now.',
    '',
  );
  for (const [tool, contract] of pinned) out.push(`- \`${tool}\`: \`${contract}\``);
}

function codeFeatures({ flow }: Shown, out: string[]): void {
  const featured = Object.entries(flow.map.fields)
    .filter(([, fields]) => fields.length > 0)
    .sort(([a], [b]) => compareText(a, b));
  if (featured.length === 0) return;
  out.push(
    '',
    '## Code features',
    '',
    'Output fields that sharpen the habit. Their values are copied from training outputs into the flow (`map.ids`).',
    '',
  );
  for (const [tool, fields] of featured) {
    const combinations = flow.map.ids.filter(([[t]]) => t === tool).length;
    out.push(`- \`${tool}\`: ${fields.map((f) => `\`${fieldText(f)}\``).join(', ')}; ${combinations} combinations of values`);
  }
}

function arbiter({ flow }: Shown, out: string[]): void {
  if (!hasArbiter(flow)) return;
  const oneFit = new Set(flow.folds.map(foldKey)).size === 1;
  out.push(
    '',
    '## Arbiter',
    '',
    oneFit
      ? 'One fit, which judges every session.'
      : 'Folds fitted apart, each judging the tasks the others saw; the weights are their mean.',
    '',
    '| Weight on | Value |',
    '|---|---|',
  );
  for (const [name, w] of namedWeights(flow)) out.push(`| ${name} | ${fixed(w, 3)} |`);
  const judged = new Set(flow.folds.flatMap((f) => f.rates.sites.map(([s]) => s)));
  const n = flow.folds.length;
  const agree = flow.folds.reduce((sum, f) => sum + f.rates.agree / n, 0);
  const cover = flow.folds.reduce((sum, f) => sum + f.rates.cover / n, 0);
  out.push(
    '',
    `The System-One model's record, at the held-out decisions of ${thousands(judged.size)} sites: its pick was the agent's step at ${percent(agree)}, and the agent's step was among its options at ${percent(cover)}.`,
  );
  if (flow.predicates.length > 0) {
    const weighedIds = new Set(flow.weighed.map((w) => sortedJson(w)));
    out.push('', 'The predicates it asks with each next-step question, with the conversation so far:', '');
    for (const predicate of flow.predicates) {
      const how = weighedIds.has(sortedJson(predicate)) ? 'weighed' : 'asked, not weighed';
      out.push(`- \`${predicate.id}\` (${how}): ${predicate.question}`);
    }
  }
}

/** The sections in the order flow-show prints them; those with nothing to show print nothing. */
const SECTIONS: readonly Section[] = [intro, tools, run, sites, promotion, surprise, bindings, constants, sourcesBySite, pinnedInputs, codeFeatures, arbiter];

/** `engine flow-show FLOW --threshold T`: the review as Markdown, ending with one newline. */
export function renderFlowShow(flow: Flow, threshold: number): string {
  const shown: Shown = { flow, view: reviewView(flow, threshold), threshold };
  const out: string[] = [];
  for (const section of SECTIONS) section(shown, out);
  return `${out.join('\n')}\n`;
}
