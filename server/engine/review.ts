// The reviewer's view of a flow at a threshold (flow-review.md §2–§3), as `engine flow-show` computes it:
// raw level-1 shares after each site (no smoothing), each lookup's binding chance, the likeliest lookup and
// whether it clears the threshold. The same pieces feed the flow-show text (flow-show.ts) and the diff (diff.ts).
import type {
  BindingView,
  FlowTool,
  LookupView,
  NextShare,
  PromotionView,
  ReviewView,
  SiteView,
} from '../../shared/flows.ts';
import { compareText, fixed } from './format.ts';
import { actionName, actsAt, decodeSymbol, nextAt, options, servedDecider, siteKeys, siteName, switchedOff, thresholdAt, toolId, type Flow } from './flows.ts';
import type { Agreed, BackoffModel, SiteKey } from './flow-schema.ts';

// ---------------------------------------------------------------------------------------------------------
// Shares after a site (§2.1)
// ---------------------------------------------------------------------------------------------------------

export interface Followed {
  /** Share of each named action, in the order first seen. */
  shares: Map<string, number>;
  /** The pooled count of steps after the site. */
  total: number;
}

/** Pools a model's level-1 counts over every context that is a call to the site's tool with its outcome. */
export function followed(flow: Flow, model: BackoffModel, [tool, failed]: SiteKey): Followed {
  const id = toolId(flow, tool);
  const outcome = failed ? 1 : 0;
  const counts = new Map<number, number>();
  let total = 0;
  for (const [ctx, c] of model.levels[1] ?? []) {
    const d = ctx.length === 1 ? decodeSymbol(ctx[0]!) : null;
    if (d === null || d.action !== id || d.outcome !== outcome) continue;
    for (const [a, n] of c.by_action) counts.set(a, (counts.get(a) ?? 0) + n);
    total += c.total;
  }
  const shares = new Map<string, number>();
  for (const [a, n] of counts) {
    const name = actionName(flow, a);
    if (name !== undefined) shares.set(name, total > 0 ? n / total : 0);
  }
  return { shares, total };
}

/** What the agent did next after the site (habit shares). */
export function nextShares(flow: Flow, site: SiteKey): Followed {
  return followed(flow, flow.habit.base, site);
}

/** Reach shares when the served decider is reach, else the habit's next shares. */
function weighedShares(flow: Flow, site: SiteKey): Map<string, number> {
  if (weighedByReach(flow) && flow.reach) return followed(flow, flow.reach, site).shares;
  return nextShares(flow, site).shares;
}

function weighedByReach(flow: Flow): boolean {
  return servedDecider(flow) === 'reach';
}

// ---------------------------------------------------------------------------------------------------------
// Bindings (§2.2)
// ---------------------------------------------------------------------------------------------------------

export interface UsableSource { tool: string; path: string; count: number }
export interface RequiredArg { name: string; values: number; sources: UsableSource[] }
export interface LookupBinding {
  tool: string;
  calls: number;
  /** Required arguments (passed in ≥ 90 % of the calls), sorted by name. */
  args: RequiredArg[];
  bindable: boolean;
  /** [not mentioned, mentioned, overall]. */
  chance: [number, number, number];
  agreed: Agreed;
}

const pairKey = (a: string, b: string) => JSON.stringify([a, b]);

/** Laplace smoothing: with nothing tried, 1/2. */
export const smoothed = (agreed: number, tried: number) => (agreed + 1) / (tried + 2);

/** The usable sources of an argument (count ≥ 2 and ≥ 10 % of its values), sorted by tool then path. */
function usable(found: [[string, string], number][], values: number, list: boolean): UsableSource[] {
  return found
    .filter(([, count]) => count >= 2 && count >= 0.1 * values)
    .sort(([[t1, p1]], [[t2, p2]]) => compareText(t1, t2) || compareText(p1, p2))
    .map(([[tool, path], count]) => ({ tool, path: list ? `${path} (every value)` : path, count }));
}

export function requiredArgs(flow: Flow, tool: string): RequiredArg[] {
  const entry = flow.bindings.args[tool];
  if (!entry) return [];
  const [calls, passed] = entry;
  return Object.entries(passed)
    .filter(([, n]) => n >= 0.9 * calls)
    .map(([name]) => name)
    .sort(compareText)
    .map((name) => argSources(flow, tool, name));
}

function argSources(flow: Flow, tool: string, name: string): RequiredArg {
  const key = pairKey(tool, name);
  const listed = flow.bindings.lists.find(([k]) => pairKey(k[0], k[1]) === key);
  if (listed) return { name, values: listed[1].values, sources: usable(listed[1].found, listed[1].values, true) };
  const plain = flow.bindings.sources.find(([k]) => pairKey(k[0], k[1]) === key);
  if (plain) return { name, values: plain[1].values, sources: usable(plain[1].found, plain[1].values, false) };
  return { name, values: 0, sources: [] };
}

function agreedOf(flow: Flow, tool: string): Agreed {
  return flow.bindings.agreed[tool] ?? [
    [0, 0],
    [0, 0],
  ];
}

/** The binding of a lookup the agent made in training, or null when it never did (no `bindings.args` entry). */
export function lookupBinding(flow: Flow, tool: string): LookupBinding | null {
  const entry = flow.bindings.args[tool];
  if (!entry) return null;
  const args = requiredArgs(flow, tool);
  const agreed = agreedOf(flow, tool);
  let chance: [number, number, number];
  if (args.length > 0) {
    const [[a0, n0], [a1, n1]] = agreed;
    chance = [smoothed(a0, n0), smoothed(a1, n1), smoothed(a0 + a1, n0 + n1)];
  } else {
    const bare = flow.bindings.bare[tool];
    const c = bare === undefined ? 1 : (bare + 1) / (entry[0] + 2);
    chance = [c, c, c];
  }
  return { tool, calls: entry[0], args, bindable: args.every((a) => a.sources.length > 0), chance, agreed };
}

/** (used + 2c) / (picks + 2): the chance where another value was named, or the described record read. */
export function pickChance([used, picks]: [number, number], c: number): number {
  return (used + 2 * c) / (picks + 2);
}

/** The review's chance for a lookup: its binding's overall chance, the docs fallback, or null (cannot bind). */
export function bindingChance(flow: Flow, tool: string): number | null {
  const binding = lookupBinding(flow, tool);
  if (binding) return binding.bindable ? binding.chance[2] : null;
  const doc = flow.manifest.docs[tool];
  if (doc) return Object.keys(doc.args).length === 0 ? 1 : 0.5;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// The likeliest lookup and the decision (§2.3)
// ---------------------------------------------------------------------------------------------------------

export interface Best { tool: string; share: number; chance: number | null }

const bestProb = (best: Best) => best.share * (best.chance ?? 0);

/** The offered lookup with the highest weighed share (the first of equals), or null when none is offered. */
export function likeliest(flow: Flow, site: SiteKey, weighed = weighedShares(flow, site)): Best | null {
  let best: Best | null = null;
  for (const o of options(flow, site)) {
    if (o === 'respond') continue;
    const share = weighed.get(o) ?? 0;
    if (best && best.share >= share) continue;
    best = { tool: o, share, chance: bindingChance(flow, o) };
  }
  return best;
}

function describeBest(best: Best): string {
  if (best.chance === null) return `\`${best.tool}\` ${fixed(best.share, 2)}, which it cannot bind`;
  return `\`${best.tool}\` ${fixed(best.share, 2)} × ${fixed(best.chance, 2)} = ${fixed(bestProb(best), 2)}`;
}

/** "looks up …" or "hands back: …" at a threshold. */
export function verdict(best: Best | null, threshold: number): string {
  if (!best) return 'hands back: no lookup offered';
  return bestProb(best) >= threshold ? `looks up ${describeBest(best)}` : `hands back: ${describeBest(best)}`;
}

/** What the flow does at a site at the served threshold: the site's verdict text. */
export function siteAction(flow: Flow, site: SiteKey, threshold: number, best = likeliest(flow, site)): string {
  if (actsAt(flow, site)) return verdict(best, thresholdAt(flow, site, threshold));
  return switchedOff(flow, site) ? 'hands back: switched off' : 'hands back: not promoted';
}

/** Whether the site's likeliest lookup clears its threshold where the flow acts (the diff's "clears"). */
export function clears(flow: Flow, site: SiteKey, threshold: number, best = likeliest(flow, site)): boolean {
  return best !== null && bestProb(best) >= thresholdAt(flow, site, threshold) && actsAt(flow, site);
}

// ---------------------------------------------------------------------------------------------------------
// The view (§3.1)
// ---------------------------------------------------------------------------------------------------------

/** Next shares as the view lists them: share descending, then action ascending. */
export function sortedNext(shares: Map<string, number>): NextShare[] {
  return [...shares]
    .map(([action, share]) => ({ action, share }))
    .sort((a, b) => b.share - a.share || compareText(a.action, b.action));
}

function siteView(flow: Flow, site: SiteKey, threshold: number): SiteView {
  const name = siteName(site);
  const habit = nextShares(flow, site);
  const weighed = weighedShares(flow, site);
  const best = likeliest(flow, site, weighed);
  const active = actsAt(flow, site);
  const at = thresholdAt(flow, site, threshold);
  const choice = best ? { tool: best.tool, prob: bestProb(best), acts: active && bestProb(best) >= at } : null;
  const next = nextAt(flow, site) ?? {};
  const offered = options(flow, site);
  const lookups: LookupView[] = offered.map((tool) => {
    const chance = bindingChance(flow, tool);
    const weighedShare = weighed.get(tool) ?? 0;
    return {
      tool,
      count: next[tool] ?? 0,
      share: habit.shares.get(tool) ?? 0,
      weighed_share: weighedShare,
      binding_chance: chance,
      bindable: chance !== null,
      prob: weighedShare * (chance ?? 0),
      acts: choice !== null && choice.acts && choice.tool === tool,
    };
  });
  const offeredShare = offered.reduce((sum, o) => sum + (habit.shares.get(o) ?? 0), 0);
  return {
    name,
    tool: site[0],
    failed: site[1],
    steps: Math.round(habit.total),
    weighed_by: weighedByReach(flow) ? 'reach' : 'habit',
    next: sortedNext(habit.shares),
    lookups,
    hand_back_share: Math.max(0, 1 - offeredShare),
    choice,
    promoted: flow.promoted ? (flow.promoted.sites[name] ?? null) : null,
    threshold: flow.thresholds[name] ?? null,
    active,
    verdict: siteAction(flow, site, threshold, best),
  };
}

function toolViews(flow: Flow): FlowTool[] {
  return Object.keys(flow.manifest.tools)
    .sort(compareText)
    .map((name) => {
      const doc = flow.manifest.docs[name];
      return {
        name,
        kind: flow.manifest.tools[name]!,
        summary: doc && doc.summary !== '' ? doc.summary : null,
        args: doc ? { ...doc.args } : {},
        contract: flow.contracts?.[name] ?? null,
      };
    });
}

function bindingViews(flow: Flow): BindingView[] {
  const constants = new Map(flow.bindings.constants.map(([[t, a], value]) => [pairKey(t, a), value]));
  return Object.keys(flow.bindings.args)
    .sort(compareText)
    .map((tool) => {
      const [calls, passed] = flow.bindings.args[tool]!;
      const binding = lookupBinding(flow, tool)!;
      return {
        tool,
        calls,
        chance: binding.bindable ? binding.chance : null,
        agreed: binding.agreed,
        args: Object.keys(passed)
          .sort(compareText)
          .map((name) => {
            const n = passed[name]!;
            const required = n >= 0.9 * calls;
            const arg = argSources(flow, tool, name);
            return {
              name,
              required,
              calls: n,
              constant: constants.has(pairKey(tool, name)) ? constants.get(pairKey(tool, name)) : null,
              sources: required
                ? arg.sources.map((s) => ({ ...s, share: arg.values > 0 ? s.count / arg.values : 0 }))
                : [],
            };
          }),
      };
    });
}

function promotionView(flow: Flow): PromotionView | null {
  if (!flow.promoted) return null;
  const records = Object.values(flow.promoted.sites);
  return {
    bar: { ...flow.promoted.bar },
    sites_promoted: records.filter((r) => r.promoted).length,
    sites_scored: records.length,
  };
}

/** The reviewer's view at a threshold: FlowDetail without the summary, the text and the warnings. */
export function reviewView(flow: Flow, threshold: number): ReviewView {
  return {
    threshold,
    tools: toolViews(flow),
    sites: siteKeys(flow).map((site) => siteView(flow, site, threshold)),
    bindings: bindingViews(flow),
    provenance: { ...flow.provenance },
    promotion: promotionView(flow),
  };
}
