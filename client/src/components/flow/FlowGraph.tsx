// The flow's graph: after each call (a site), the lookups it may make next, laid out by dagre and drawn as
// SVG. Left to right in a wide box, top to bottom below 600 px. Pan by dragging, zoom with the buttons; the
// wheel is left to the page. Every name is drawn as SVG text, never as markup.
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, untrack } from 'solid-js';
import {
  boxHeight, buildFlowGraph, CONTROLS_STRIP, edgeTitle, fitView, GRAPH_VERTICAL_BELOW, lookupActs, nodeRole, zoomAbout,
  type GraphDirection, type SitePreview, type ToolLike, type View,
} from '../../lib/flow-graph.ts';
import { sharePercent } from '../../lib/format.ts';

interface FlowGraphProps {
  previews: SitePreview[];
  tools: readonly ToolLike[];
}


export default function FlowGraph(props: FlowGraphProps) {
  let box!: HTMLDivElement;
  const [width, setWidth] = createSignal(0);
  const direction = (): GraphDirection => (width() > 0 && width() < GRAPH_VERTICAL_BELOW ? 'TB' : 'LR');
  // The layout depends on the sites and their lookups, never on the threshold: while the slider moves only
  // the acting marks change, so dagre runs once per flow and direction.
  const structure = createMemo(() =>
    props.previews.map((p) => `${p.site.name}\u0000${p.site.lookups.map((l) => l.tool).join('\u0000')}`).join('\u0001'),
  );
  const graph = createMemo(() => {
    structure();
    return buildFlowGraph(untrack(() => props.previews), props.tools, direction());
  });
  const acting = createMemo(() => {
    const edges = new Set<string>();
    const nodes = new Set<string>();
    for (const p of props.previews) {
      const from = p.site.failed ? `${p.site.tool} (error)` : p.site.tool;
      for (const l of p.site.lookups) {
        if (!lookupActs(p, l)) continue;
        edges.add(`${from}→${l.tool}`);
        nodes.add(l.tool);
      }
    }
    return { edges, nodes };
  });
  const height = () => boxHeight(graph(), Math.max(width(), 1));
  const [view, setView] = createSignal<View>({ zoom: 1, x: 0, y: 0 });
  const fit = () => setView(fitView(graph().width, graph().height, Math.max(width(), 1), height()));

  onMount(() => {
    setWidth(box.clientWidth);
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    onCleanup(() => observer.disconnect());
  });
  // Re-fit when the box changes size or the layout turns; not when only the threshold moves.
  createEffect(on([width, direction, () => graph().nodes.length], () => fit()));

  let drag: { x: number; y: number; vx: number; vy: number; id: number } | null = null;
  const down = (e: PointerEvent) => {
    if ((e.target as Element).closest('button')) return;
    drag = { x: e.clientX, y: e.clientY, vx: view().x, vy: view().y, id: e.pointerId };
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
  };
  const move = (e: PointerEvent) => {
    if (!drag || drag.id !== e.pointerId) return;
    setView({ ...view(), x: drag.vx + e.clientX - drag.x, y: drag.vy + e.clientY - drag.y });
  };
  const up = () => (drag = null);
  const zoom = (factor: number) => setView(zoomAbout(view(), factor, Math.max(width(), 1), height() - CONTROLS_STRIP));

  const siteNames = createMemo(() => new Map(props.previews.map((p) => [p.site.failed ? `${p.site.tool} (error)` : p.site.tool, p.site.name])));
  const summary = () => {
    const count = props.previews.filter((p) => p.acts).length;
    return `The flow's graph: ${graph().nodes.length} tools, ${graph().edges.length} lookups after ${props.previews.length} calls; it looks something up after ${count} of them.`;
  };

  return (
    <div class="fg" data-testid="flow-graph">
      <div
        class="fg-box"
        ref={box}
        style={{ height: `${height()}px` }}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      >
        <svg class="fg-svg" role="img" aria-label={summary()} width="100%" height="100%">
          <ArrowMarkers />
          <g transform={`translate(${view().x},${view().y}) scale(${view().zoom})`}>
            <For each={graph().edges}>
              {(edge) => <GraphEdge edge={edge} acts={acting().edges.has(edge.id)} siteName={siteNames().get(edge.source) ?? edge.source} />}
            </For>
            <For each={graph().nodes}>{(node) => <GraphNode node={node} acts={acting().nodes.has(node.id)} />}</For>
          </g>
        </svg>
        <div class="fg-controls">
          <button type="button" class="fg-ctl" aria-label="Zoom in" title="Zoom in" onClick={() => zoom(1.2)}>+</button>
          <button type="button" class="fg-ctl" aria-label="Zoom out" title="Zoom out" onClick={() => zoom(1 / 1.2)}>−</button>
          <button type="button" class="fg-ctl fg-fit" aria-label="Fit the graph" title="Fit the graph" onClick={fit}>Fit</button>
        </div>
      </div>
      <Show when={graph().nodes.length > 0}>
        <GraphLegend />
      </Show>
    </div>
  );
}

/** A name cut to the node's width in the mono face, with an ellipsis (the full name is the title). */
function clip(name: string, width: number): string {
  const fits = Math.max(4, Math.floor((width - 28) / 7.9));
  return name.length <= fits ? name : `${name.slice(0, fits - 1)}…`;
}

function ArrowMarkers() {
  return (
    <defs>
      <marker id="fg-arrow-on" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" class="fg-arrow-on" />
      </marker>
      <marker id="fg-arrow-off" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse">
        <path d="M0,0 L10,5 L0,10 z" class="fg-arrow-off" />
      </marker>
    </defs>
  );
}

type LaidOut = ReturnType<typeof buildFlowGraph>;

function GraphEdge(props: { edge: LaidOut['edges'][number]; acts: boolean; siteName: string }) {
  const edge = () => props.edge;
  return (
    <g class="fg-edge" classList={{ 'fg-acts': props.acts }}>
      <title>{edgeTitle({ ...edge(), acts: props.acts }, props.siteName)}</title>
      <path d={edge().path} fill="none" stroke-width={edge().width} marker-end={`url(#${props.acts ? 'fg-arrow-on' : 'fg-arrow-off'})`} />
      <g transform={`translate(${edge().label.x},${edge().label.y})`} class="fg-pill">
        <rect x="-34" y="-11" width="68" height="22" rx="11" />
        <text x="0" y="4" text-anchor="middle">
          <tspan class="fg-prob">{edge().prob.toFixed(2)}</tspan>
          <tspan class="fg-share" dx="4">{sharePercent(edge().share)}</tspan>
        </text>
      </g>
    </g>
  );
}

function GraphNode(props: { node: LaidOut['nodes'][number]; acts: boolean }) {
  const node = () => props.node;
  return (
    <g class="fg-node" classList={{ 'fg-acts': props.acts, 'fg-failed': node().failed }} transform={`translate(${node().x},${node().y})`}>
      <title>{node().id}</title>
      <rect width={node().width} height={node().height} rx="10" />
      <text x="14" y="24" class="fg-name">{clip(node().id, node().width)}</text>
      <text x="14" y="44" class="fg-role">{nodeRole({ ...node(), acts: props.acts })}</text>
    </g>
  );
}

function GraphLegend() {
  return (
    <ul class="fg-legend" aria-label="How to read the graph">
      <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" class="fg-leg-on" /></svg>looks up at this threshold</li>
      <li><svg width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" class="fg-leg-off" /></svg>hands back</li>
      <li><svg width="28" height="12" aria-hidden="true"><path d="M0,5 L28,1 L28,11 Z" class="fg-leg-wedge" /></svg>width: its share of what the agent did next</li>
      <li><span class="fg-leg-pill">0.88</span>share × binding chance</li>
    </ul>
  );
}
