// `engine flow-show` as text, byte for byte (flow-review.md §4): the Markdown a reviewer reads before
// serving a flow, and the canonical text of its fugue program (the printer diff.ts compares line by line).
// Every number goes through format.ts so ties round to even as the CLI's do.
import { compareText, debugFloat, display, fixed, percent, sortedJson, thousands } from './format.ts';
import {
  hasArbiter,
  hasReach,
  readProgram,
  servedDecider,
  siteKeys,
  siteLabel,
  type CodeField,
  type Expr,
  type Flow,
  type Fold,
  type Program,
  type Stmt,
} from './flows.ts';
import { lookupBinding, pickChance, requiredArgs, reviewView, type LookupBinding } from './review.ts';

// ---------------------------------------------------------------------------------------------------------
// The program and its canonical text (§1.3.10, §4.6)
// ---------------------------------------------------------------------------------------------------------

/** The standard program in its JSON form, as a flow file holds it. */
export const STANDARD_JSON = {
  fugue_program: 1,
  body: [
    { stmt: 'let', var: 'prev', value: { op: 'var', name: 'call' } },
    { stmt: 'let', var: 'failed', value: { op: 'var', name: 'call_failed' } },
    {
      stmt: 'for',
      var: 'i',
      start: { op: 'int', value: 0 },
      end: { op: 'var', name: 'max_lookups' },
      body: [
        {
          stmt: 'sample',
          var: 'd',
          addr: { name: 'decide', index: { op: 'var', name: 'i' } },
          dist: { name: 'Decide', args: [{ op: 'var', name: 'prev' }, { op: 'var', name: 'failed' }] },
        },
        { stmt: 'if', cond: { op: 'eq', lhs: { op: 'var', name: 'd' }, rhs: { op: 'int', value: 0 } }, then: [{ stmt: 'break' }] },
        {
          stmt: 'sample',
          var: 'ok',
          addr: { name: 'outcome', index: { op: 'var', name: 'i' } },
          dist: { name: 'Outcome', args: [{ op: 'var', name: 'd' }] },
        },
        { stmt: 'assign', var: 'prev', value: { op: 'var', name: 'd' } },
        { stmt: 'assign', var: 'failed', value: { op: 'not', arg: { op: 'var', name: 'ok' } } },
      ],
    },
  ],
  ret: { op: 'var', name: 'prev' },
};

/** The standard run: decide, look up, decide again, up to max_lookups. What an absent `program` means. */
export const STANDARD_PROGRAM: Program = readProgram(STANDARD_JSON);

/** The flow's program; the standard one when the file has none. */
export function programOf(flow: Flow): Program {
  return flow.program ?? STANDARD_PROGRAM;
}

/** Structural equality: the reader already made `else: []`, no index and no args canonical. */
export function sameProgram(a: Program, b: Program): boolean {
  return sortedJson(a) === sortedJson(b);
}

export function isStandardProgram(flow: Flow): boolean {
  return sameProgram(programOf(flow), STANDARD_PROGRAM);
}

const BINARY: Record<string, [symbol: string, precedence: number]> = {
  or: ['||', 1],
  and: ['&&', 2],
  eq: ['==', 3],
  ne: ['!=', 3],
  lt: ['<', 3],
  le: ['<=', 3],
  gt: ['>', 3],
  ge: ['>=', 3],
  add: ['+', 4],
  sub: ['-', 4],
  mul: ['*', 5],
  div: ['/', 5],
};

function precedence(e: Expr): number {
  const binary = BINARY[e.op];
  if (binary) return binary[1];
  if (e.op === 'neg' || e.op === 'not') return 6;
  if ((e.op === 'f64' || e.op === 'int') && (e.value < 0 || Object.is(e.value, -0))) return 6;
  return 7;
}

function escapeName(name: string): string {
  let out = '';
  for (const ch of name) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else out += ch;
  }
  return `"${out}"`;
}

function wrap(e: Expr, parens: boolean): string {
  const text = exprText(e);
  return parens ? `(${text})` : text;
}

export function exprText(e: Expr): string {
  switch (e.op) {
    case 'f64':
      return debugFloat(e.value);
    case 'int':
      return String(e.value);
    case 'bool':
      return String(e.value);
    case 'var':
      return e.name;
    case 'array':
      return `[${e.items.map(exprText).join(', ')}]`;
    case 'index':
      return `${wrap(e.array, precedence(e.array) < 7)}[${exprText(e.index)}]`;
    case 'len':
      return `${wrap(e.array, precedence(e.array) < 7)}.len()`;
    case 'neg':
    case 'not': {
      const literal = e.op === 'neg' && (e.arg.op === 'f64' || e.arg.op === 'int');
      return `${e.op === 'neg' ? '-' : '!'}${wrap(e.arg, literal || precedence(e.arg) < 6)}`;
    }
    case 'call':
      return `${e.func}(${e.args.map(exprText).join(', ')})`;
    default: {
      const [symbol, p] = BINARY[e.op]!;
      const leftMin = p === 3 ? p + 1 : p;
      return `${wrap(e.lhs, precedence(e.lhs) < leftMin)} ${symbol} ${wrap(e.rhs, precedence(e.rhs) <= p)}`;
    }
  }
}

function addrText(addr: { name: string; index: Expr | null }): string {
  return addr.index ? `addr!(${escapeName(addr.name)}, ${exprText(addr.index)})` : `addr!(${escapeName(addr.name)})`;
}

function stmtLines(s: Stmt, indent: string, out: string[]): void {
  switch (s.stmt) {
    case 'sample':
      out.push(`${indent}let ${s.var} <- sample(${addrText(s.addr)}, ${s.dist.name}(${s.dist.args.map(exprText).join(', ')}));`);
      return;
    case 'let':
      out.push(`${indent}let ${s.var} = ${exprText(s.value)};`);
      return;
    case 'assign':
      out.push(`${indent}${s.var} = ${exprText(s.value)};`);
      return;
    case 'observe':
      out.push(
        `${indent}observe(${addrText(s.addr)}, ${s.dist.name}(${s.dist.args.map(exprText).join(', ')}), ${exprText(s.value)});`,
      );
      return;
    case 'factor':
      out.push(`${indent}factor(${exprText(s.logw)});`);
      return;
    case 'for':
      out.push(`${indent}for ${s.var} in ${exprText(s.start)}..${exprText(s.end)} {`);
      for (const inner of s.body) stmtLines(inner, `${indent}    `, out);
      out.push(`${indent}}`);
      return;
    case 'if': {
      out.push(`${indent}if ${exprText(s.cond)} {`);
      let branch: Stmt & { stmt: 'if' } = s;
      for (;;) {
        for (const inner of branch.then) stmtLines(inner, `${indent}    `, out);
        const otherwise: Stmt[] = branch.else;
        const only: Stmt | undefined = otherwise.length === 1 ? otherwise[0] : undefined;
        if (only && only.stmt === 'if') {
          out.push(`${indent}} else if ${exprText(only.cond)} {`);
          branch = only;
          continue;
        }
        if (otherwise.length > 0) {
          out.push(`${indent}} else {`);
          for (const inner of otherwise) stmtLines(inner, `${indent}    `, out);
        }
        break;
      }
      out.push(`${indent}}`);
      return;
    }
    case 'break':
      out.push(`${indent}break;`);
  }
}

/** The program's canonical text, one statement a line, with no trailing newline. */
export function programText(program: Program): string {
  const out: string[] = [];
  for (const s of program.body) stmtLines(s, '', out);
  out.push(`pure(${exprText(program.ret)})`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// Pieces shared with the diff
// ---------------------------------------------------------------------------------------------------------

/** `reach` or the habit alone: what the review weighs with. */
export function weighedName(flow: Flow): string {
  return servedDecider(flow) === 'reach' ? '`reach`' : 'the habit alone';
}

export function fieldText(field: CodeField): string {
  if ('Scalar' in field) return field.Scalar;
  return field.Len === '' ? 'len(output)' : `len(${field.Len})`;
}

/** The arbiter's weight names, in order (§1.3.8). */
export function weightNames(flow: Flow): string[] {
  return [
    'ln the habit\'s probability',
    'ln the one-question probability',
    'ln the split question\'s probability',
    'handing back',
    ...flow.weighed.map((p) => `predicate \`${p.id}\``),
    'the model\'s record at the site, on its pick',
  ];
}

/** The mean weights over folds: the sum, in file order, of each weight divided by the number of folds. */
export function meanWeights(folds: Fold[]): number[] {
  const first = folds[0];
  if (!first) return [];
  return first.weights.map((_, i) => folds.reduce((sum, f) => sum + (f.weights[i] ?? 0) / folds.length, 0));
}

/** Pairs of (name, mean weight), stopping at the shorter list. */
export function namedWeights(flow: Flow): [string, number][] {
  const names = weightNames(flow);
  const means = meanWeights(flow.folds);
  return names.slice(0, Math.min(names.length, means.length)).map((n, i) => [n, means[i]!]);
}

function foldKey(fold: Fold): string {
  const sites = [...fold.rates.sites].sort(([a], [b]) => compareText(a, b));
  return sortedJson({ ...fold, rates: { ...fold.rates, sites } });
}

/** For each (tool, arg, site) of `site_sources` whose order matters, its usable sources, most used first (§4.5). */
export function siteOrders(flow: Flow): { tool: string; arg: string; site: string; order: { tool: string; path: string; n: number }[] }[] {
  const triples = new Map<string, [string, string, string]>();
  for (const s of flow.bindings.site_sources) triples.set(JSON.stringify([s.tool, s.arg, s.site]), [s.tool, s.arg, s.site]);
  const sorted = [...triples.values()].sort(
    (a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]) || compareText(a[2], b[2]),
  );
  const out: ReturnType<typeof siteOrders> = [];
  for (const [tool, arg, site] of sorted) {
    const entry = flow.bindings.sources.find(([[t, a]]) => t === tool && a === arg);
    if (!entry) continue;
    const stats = entry[1];
    const rules = stats.found
      .filter(([, count]) => count >= 2 && count >= 0.1 * stats.values)
      .map(([[t, p]]) => [t, p] as [string, string])
      .sort((a, b) => compareText(a[0], b[0]) || compareText(a[1], b[1]));
    const counted = rules.map(([t, p]) => ({
      tool: t,
      path: p,
      n: flow.bindings.site_sources
        .filter((s) => s.tool === tool && s.arg === arg && s.site === site && s.source[0] === t && s.source[1] === p)
        .reduce((sum, s) => sum + s.values, 0),
    }));
    if (counted.reduce((sum, r) => sum + r.n, 0) < 5) continue;
    counted.sort((a, b) => b.n - a.n);
    if (counted.length > 1) out.push({ tool, arg, site, order: counted });
  }
  return out;
}

/** The compact JSON of a constant. */
export function constantJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------------------------------------
// flow-show
// ---------------------------------------------------------------------------------------------------------

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

function promotionLines(flow: Flow, out: string[]): void {
  const promoted = flow.promoted!;
  const bar = promoted.bar;
  out.push(
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

/** `engine flow-show FLOW --threshold T`: the review as Markdown, ending with one newline. */
export function renderFlowShow(flow: Flow, threshold: number): string {
  const view = reviewView(flow, threshold);
  const out: string[] = [];
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
    '',
    '## Tools',
    '',
  );
  for (const [kind, label] of KIND_GROUPS) {
    const tools = view.tools.filter((t) => t.kind === kind).map((t) => `\`${t.name}\``);
    if (tools.length > 0) out.push(`- **${label}:** ${tools.join(', ')}`);
  }
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
    '',
    '## Sites',
    '',
  );
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
  if (flow.promoted) {
    out.push(
      '',
      '## Promotion',
      '',
      'The flow acts only after the promoted calls, and hands back after the rest (`engine promote`).',
      '',
    );
    promotionLines(flow, out);
  }

  const bindings = Object.keys(flow.bindings.args)
    .sort(compareText)
    .map((tool) => lookupBinding(flow, tool)!);
  const named = bindings.some((b) => flow.bindings.named_other[b.tool] !== undefined);
  const described = bindings.some((b) => flow.bindings.described_read[b.tool] !== undefined);
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
  for (const b of bindings) {
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

  if (flow.bindings.constants.length > 0) {
    out.push(
      '',
      '## Constants',
      '',
      'Arguments the agent passed with one value in every call of a lookup (`learn --constants`), which the binding passes as it did:',
      '',
    );
    const constants = [...flow.bindings.constants].sort(
      ([[t1, a1]], [[t2, a2]]) => compareText(t1, t2) || compareText(a1, a2),
    );
    for (const [[tool, arg], value] of constants) out.push(`- \`${tool}\` \`${arg}\`: \`${constantJson(value)}\``);
  }

  const orders = siteOrders(flow);
  if (orders.length > 0) {
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

  const pinned = Object.entries(flow.contracts ?? {})
    .filter(([tool]) => flow.bindings.args[tool] !== undefined)
    .sort(([a], [b]) => compareText(a, b));
  if (pinned.length > 0) {
    out.push(
      '',
      '## Pinned inputs',
      '',
      'Each lookup\'s arguments as the server listed them when the sessions were recorded. `engine-proxy` makes no lookup of a tool whose server lists other arguments now.',
      '',
    );
    for (const [tool, contract] of pinned) out.push(`- \`${tool}\`: \`${contract}\``);
  }

  const featured = Object.entries(flow.map.fields)
    .filter(([, fields]) => fields.length > 0)
    .sort(([a], [b]) => compareText(a, b));
  if (Object.keys(flow.map.fields).length > 0 && featured.length > 0) {
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

  if (hasArbiter(flow)) {
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
    const sites = new Set(flow.folds.flatMap((f) => f.rates.sites.map(([s]) => s)));
    const n = flow.folds.length;
    const agree = flow.folds.reduce((sum, f) => sum + f.rates.agree / n, 0);
    const cover = flow.folds.reduce((sum, f) => sum + f.rates.cover / n, 0);
    out.push(
      '',
      `The System-One model's record, at the held-out decisions of ${thousands(sites.size)} sites: its pick was the agent's step at ${percent(agree)}, and the agent's step was among its options at ${percent(cover)}.`,
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
  return `${out.join('\n')}\n`;
}
