// What a flow does at a threshold, and its graph of sites and lookups. The server answers for the
// threshold it was asked about; while the slider moves, the page previews the answer here with the same
// rule as the CLI's review (flow-review.md §2.3), so the two agree the moment the server's answer lands.
// The graph is laid out with dagre: this module is imported only by the flow page, so dagre stays out of
// the first bundle. Inputs are typed structurally so the shared schemas' types fit without a mapping.
import { Graph, layout } from '@dagrejs/dagre';
import { FLOW_THRESHOLD_DEFAULT } from '../../../shared/limits.ts';
import { sharePercent } from './format.ts';
import type { ToolKind } from '../../../shared/sessions.ts';

export interface LookupLike {
  tool: string;
  count: number;
  share: number;
  weighed_share: number;
  binding_chance: number | null;
  bindable: boolean;
  prob: number;
  acts: boolean;
}

export interface SiteLike {
  name: string;
  tool: string;
  failed: boolean;
  lookups: readonly LookupLike[];
  choice: { tool: string | null; prob: number; acts: boolean } | null;
  threshold: number | null;
  active: boolean;
}

export interface ToolLike {
  name: string;
  kind: ToolKind;
}

/** A threshold as the page keeps it: clamped to 0..1 and rounded to two decimals. NaN gives the default. */
export function clampThreshold(value: number): number {
  if (!Number.isFinite(value)) return FLOW_THRESHOLD_DEFAULT;
  const clamped = Math.min(1, Math.max(0, value));
  return Math.round(clamped * 100) / 100;
}

/** The threshold from `?threshold=`: a number in 0..1 (rounded), else the default. */
export function thresholdFromParam(param: string | null | undefined): number {
  if (param === null || param === undefined || param.trim() === '') return FLOW_THRESHOLD_DEFAULT;
  const n = Number(param);
  if (!Number.isFinite(n) || n < 0 || n > 1) return FLOW_THRESHOLD_DEFAULT;
  return clampThreshold(n);
}

/** What goes in `?threshold=`: two decimals, or nothing at the default. */
export function thresholdParam(threshold: number): string | undefined {
  return Math.abs(threshold - FLOW_THRESHOLD_DEFAULT) < 1e-9 ? undefined : threshold.toFixed(2);
}

export interface SitePreview {
  site: SiteLike;
  /** The lookup the flow weighs here: the server's choice, else the largest weighed share. */
  choice: LookupLike | null;
  prob: number;
  acts: boolean;
  /** The threshold at this site: its own override, else the slider's. */
  threshold: number;
  /** Why the flow hands back here, in words; null when it looks something up. */
  reason: string | null;
}

/** The lookup with the largest weighed share, the first of equals. */
export function likeliest(site: SiteLike): LookupLike | null {
  let best: LookupLike | null = null;
  for (const lookup of site.lookups) {
    if (best === null || lookup.weighed_share > best.weighed_share) best = lookup;
  }
  return best;
}

/**
 * What the flow does after each site at `threshold`, given the server's answer computed at
 * `serverThreshold`. At the server's own threshold the server's `acts` is taken as is.
 */
export function previewSites(sites: readonly SiteLike[], serverThreshold: number, threshold: number): SitePreview[] {
  const exact = Math.abs(serverThreshold - threshold) < 1e-9;
  return sites.map((site) => {
    const at = site.threshold ?? threshold;
    const allowed = site.active;
    const gateReason = allowed ? null : at > 1 ? 'switched off' : 'not promoted';
    const named = site.choice?.tool ?? null;
    const choice = (named !== null ? site.lookups.find((l) => l.tool === named) : undefined) ?? likeliest(site);
    const prob = named !== null && site.choice ? site.choice.prob : (choice?.prob ?? 0);
    const acts = exact && site.choice ? site.choice.acts : allowed && choice !== null && prob >= at;
    let reason: string | null = null;
    if (!acts) {
      if (gateReason !== null) reason = gateReason;
      else if (choice === null) reason = 'no lookup offered';
      else if (!choice.bindable) reason = `cannot bind ${choice.tool}’s arguments`;
      else reason = `${prob.toFixed(2)} is below ${at.toFixed(2)}`;
    }
    return { site, choice, prob, acts, threshold: at, reason };
  });
}

/** Whether this lookup is the one the flow makes after the previewed site. */
export function lookupActs(preview: SitePreview, lookup: LookupLike): boolean {
  return preview.acts && preview.choice?.tool === lookup.tool;
}

/** How many sites act, of how many. */
export function actingCount(previews: readonly SitePreview[]): { acting: number; sites: number } {
  return { acting: previews.filter((p) => p.acts).length, sites: previews.length };
}

export type GraphDirection = 'LR' | 'TB';

export interface Point {
  x: number;
  y: number;
}

export interface GraphNode {
  id: string;
  tool: string;
  failed: boolean;
  kind: ToolLike['kind'] | null;
  /** A call the flow decides after. */
  site: boolean;
  /** A tool the flow may look up. */
  lookup: boolean;
  /** A lookup into it acts at the threshold. */
  acts: boolean;
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  count: number;
  share: number;
  weighedShare: number;
  prob: number;
  acts: boolean;
  /** A lookup of the tool just called: drawn as a curve round its node. */
  loop: boolean;
  width: number;
  /** The SVG path, and where its label pill sits. */
  path: string;
  label: Point;
}

export interface FlowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
  direction: GraphDirection;
}

export const NODE_HEIGHT = 58;
/** Below this box width the graph runs top to bottom, where a chain of calls fits a phone. */
export const GRAPH_VERTICAL_BELOW = 600;

/** A node wide enough for its name in the mono face. */
export function nodeWidth(label: string, direction: GraphDirection): number {
  return direction === 'LR'
    ? Math.round(Math.min(300, Math.max(168, 44 + 7.9 * label.length)))
    : Math.round(Math.min(260, Math.max(120, 32 + 7.9 * label.length)));
}

/** Stroke width: 1.5 px, plus up to 6 px by share, to 0.1 px. */
export function edgeWidth(share: number): number {
  return Math.round((1.5 + 6 * Math.min(1, Math.max(0, share))) * 10) / 10;
}

/** The node's role line: what it is to the flow at this threshold. */
export function nodeRole(node: GraphNode): string {
  if (node.failed) return 'after a failed call';
  const kind = node.kind === 'generic' ? 'neither' : (node.kind ?? 'unknown');
  if (node.acts) return `${kind} · looked up`;
  if (node.lookup) return `${kind} · lookup`;
  return `${kind} · call`;
}

/** The hover text of an edge, in words. */
export function edgeTitle(edge: GraphEdge, siteName: string): string {
  const pct = sharePercent(edge.share);
  const what = edge.loop ? `${edge.target} again` : edge.target;
  return (
    `After ${siteName}: ${what}, ${pct} of what the agent did next in training (${edge.count} times). ` +
    `Weighed with its binding: ${edge.prob.toFixed(2)}. ` +
    (edge.acts ? 'The flow looks it up.' : 'The flow hands back.')
  );
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** A smooth path through dagre's points (a quadratic spline through midpoints). */
export function pathThrough(points: readonly Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  if (rest.length === 0) return `M${round1(first.x)},${round1(first.y)}`;
  let d = `M${round1(first.x)},${round1(first.y)}`;
  if (rest.length === 1) {
    const only = rest[0]!;
    return `${d} L${round1(only.x)},${round1(only.y)}`;
  }
  for (let i = 0; i < rest.length - 1; i++) {
    const c = rest[i]!;
    const n = rest[i + 1]!;
    const end = i === rest.length - 2 ? n : { x: (c.x + n.x) / 2, y: (c.y + n.y) / 2 };
    d += ` Q${round1(c.x)},${round1(c.y)} ${round1(end.x)},${round1(end.y)}`;
  }
  return d;
}

/** A loop: above the node left to right, out of its right side top to bottom. */
function loopPath(node: GraphNode, direction: GraphDirection): { path: string; label: Point } {
  if (direction === 'LR') {
    const x1 = node.x + node.width * 0.3;
    const x2 = node.x + node.width * 0.7;
    const y = node.y;
    const lift = 46;
    return {
      path: `M${round1(x1)},${round1(y)} C${round1(x1)},${round1(y - lift)} ${round1(x2)},${round1(y - lift)} ${round1(x2)},${round1(y)}`,
      label: { x: round1((x1 + x2) / 2), y: round1(y - lift * 0.75) },
    };
  }
  const x = node.x + node.width;
  const y1 = node.y + node.height * 0.25;
  const y2 = node.y + node.height * 0.75;
  const reach = 64;
  return {
    path: `M${round1(x)},${round1(y1)} C${round1(x + reach)},${round1(y1)} ${round1(x + reach)},${round1(y2)} ${round1(x)},${round1(y2)}`,
    label: { x: round1(x + reach * 0.75), y: round1((y1 + y2) / 2) },
  };
}

/** The point halfway along a polyline, for the label pill. */
export function midpoint(points: readonly Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  let total = 0;
  for (let i = 1; i < points.length; i++) total += Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y);
  let left = total / 2;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const seg = Math.hypot(b.x - a.x, b.y - a.y);
    if (seg >= left && seg > 0) {
      const t = left / seg;
      return { x: round1(a.x + (b.x - a.x) * t), y: round1(a.y + (b.y - a.y) * t) };
    }
    left -= seg;
  }
  const last = points[points.length - 1]!;
  return { x: round1(last.x), y: round1(last.y) };
}

const nodeId = (tool: string, failed: boolean) => (failed ? `${tool} (error)` : tool);

/** The graph of call → lookup edges at the previewed threshold, laid out with dagre. */
export function buildFlowGraph(
  previews: readonly SitePreview[],
  tools: readonly ToolLike[],
  direction: GraphDirection,
): FlowGraph {
  const kinds = new Map(tools.map((t) => [t.name, t.kind] as const));
  const nodes = new Map<string, GraphNode>();
  const ensure = (tool: string, failed: boolean): GraphNode => {
    const id = nodeId(tool, failed);
    let node = nodes.get(id);
    if (!node) {
      node = {
        id, tool, failed, kind: kinds.get(tool) ?? null, site: false, lookup: false, acts: false,
        x: 0, y: 0, width: nodeWidth(id, direction), height: NODE_HEIGHT,
      };
      nodes.set(id, node);
    }
    return node;
  };
  const edges: GraphEdge[] = [];
  for (const preview of previews) {
    const from = ensure(preview.site.tool, preview.site.failed);
    from.site = true;
    for (const lookup of preview.site.lookups) {
      const to = ensure(lookup.tool, false);
      to.lookup = true;
      const acts = lookupActs(preview, lookup);
      if (acts) to.acts = true;
      edges.push({
        id: `${from.id}→${to.id}`, source: from.id, target: to.id, count: lookup.count, share: lookup.share,
        weighedShare: lookup.weighed_share, prob: lookup.prob, acts, loop: from.id === to.id,
        width: edgeWidth(lookup.share), path: '', label: { x: 0, y: 0 },
      });
    }
  }

  const g = new Graph({ multigraph: false });
  g.setGraph(
    direction === 'LR'
      ? { rankdir: 'LR', nodesep: 36, ranksep: 120, marginx: 24, marginy: 40 }
      : { rankdir: 'TB', nodesep: 28, ranksep: 72, marginx: 24, marginy: 24 },
  );
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes.values()) g.setNode(node.id, { width: node.width, height: node.height });
  for (const edge of edges) {
    if (!edge.loop) g.setEdge(edge.source, edge.target, { weight: 1 + Math.round(edge.share * 4), minlen: 1 });
  }
  layout(g);

  let width = 0;
  let height = 0;
  for (const node of nodes.values()) {
    const placed = g.node(node.id) as { x?: number; y?: number } | undefined;
    if (placed && typeof placed.x === 'number' && typeof placed.y === 'number') {
      node.x = round1(placed.x - node.width / 2);
      node.y = round1(placed.y - node.height / 2);
    }
    width = Math.max(width, node.x + node.width);
    height = Math.max(height, node.y + node.height);
  }
  for (const edge of edges) {
    const source = nodes.get(edge.source)!;
    if (edge.loop) {
      const { path, label } = loopPath(source, direction);
      edge.path = path;
      edge.label = label;
      continue;
    }
    const placed = g.edge(edge.source, edge.target) as { points?: Point[] } | undefined;
    const target = nodes.get(edge.target)!;
    const points =
      placed?.points && placed.points.length > 0
        ? placed.points
        : [
            { x: source.x + source.width / 2, y: source.y + source.height / 2 },
            { x: target.x + target.width / 2, y: target.y + target.height / 2 },
          ];
    edge.path = pathThrough(points);
    edge.label = midpoint(points);
  }
  const loopRoom = direction === 'TB' && edges.some((e) => e.loop) ? 88 : 0;
  return {
    nodes: [...nodes.values()],
    edges,
    width: Math.ceil(width + 24 + loopRoom),
    height: Math.ceil(height + (direction === 'LR' ? 40 : 24)),
    direction,
  };
}

export interface View {
  zoom: number;
  x: number;
  y: number;
}

export const ZOOM_MIN = 0.3;
export const ZOOM_MAX = 1.6;
const FIT_MAX = 1.15;
/** The strip at the bottom of the box kept free for the zoom controls. */
export const CONTROLS_STRIP = 40;

/** The box's height for a graph: its scaled height plus room, within bounds per direction. */
export function boxHeight(graph: Pick<FlowGraph, 'width' | 'height' | 'direction'>, boxWidth: number): number {
  const scale = Math.min(FIT_MAX, Math.max(0.1, (boxWidth - 24) / Math.max(1, graph.width)));
  const wanted = graph.height * scale + 24 + CONTROLS_STRIP;
  return Math.round(Math.min(graph.direction === 'LR' ? 480 : 560, Math.max(240, wanted)));
}

/** Zoom and offset that fit the graph in the box, centred, above the controls strip. */
export function fitView(graphWidth: number, graphHeight: number, boxWidth: number, boxHeight: number): View {
  const usableH = Math.max(1, boxHeight - CONTROLS_STRIP);
  const zoom = Math.min(FIT_MAX, Math.max(ZOOM_MIN, Math.min(boxWidth / Math.max(1, graphWidth), usableH / Math.max(1, graphHeight))));
  return {
    zoom: Math.round(zoom * 1000) / 1000,
    x: Math.round((boxWidth - graphWidth * zoom) / 2),
    y: Math.round(Math.max(0, (usableH - graphHeight * zoom) / 2)),
  };
}

/** Zoom by a factor about the box centre, within the zoom range. */
export function zoomAbout(view: View, factor: number, boxWidth: number, boxHeight: number): View {
  const zoom = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, view.zoom * factor));
  const cx = boxWidth / 2;
  const cy = boxHeight / 2;
  const k = zoom / view.zoom;
  return { zoom, x: Math.round(cx - (cx - view.x) * k), y: Math.round(cy - (cy - view.y) * k) };
}
