// The flow page's pure logic: the threshold rules, the preview that mirrors the CLI's review, and the
// graph built from it (dagre runs here in Node; no DOM).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  actingCount, boxHeight, buildFlowGraph, clampThreshold, edgeTitle, edgeWidth, fitView, midpoint, nodeRole,
  nodeWidth, pathThrough, previewSites, thresholdFromParam, thresholdParam, zoomAbout, type SiteLike,
} from '../../client/src/lib/flow-graph.ts';
import { startsWith } from '../support/assert.ts';

const flowGraph = suite('flow-graph');

// The shop fixture's sites at 0.3 (flow-review.md §3.2).
const shop: SiteLike[] = [
  {
    name: 'find_user_id_by_email', tool: 'find_user_id_by_email', failed: false, threshold: null, active: true,
    lookups: [{ tool: 'get_user_details', count: 6, share: 1, weighed_share: 1, binding_chance: 0.875, bindable: true, prob: 0.875, acts: true }],
    choice: { tool: 'get_user_details', prob: 0.875, acts: true },
  },
  {
    name: 'get_order_details', tool: 'get_order_details', failed: false, threshold: null, active: true,
    lookups: [{ tool: 'get_order_details', count: 6, share: 0.5, weighed_share: 0.5, binding_chance: 0.9285714285714286, bindable: true, prob: 0.4642857142857143, acts: true }],
    choice: { tool: 'get_order_details', prob: 0.4642857142857143, acts: true },
  },
  {
    name: 'get_user_details', tool: 'get_user_details', failed: false, threshold: null, active: true,
    lookups: [{ tool: 'get_order_details', count: 6, share: 1, weighed_share: 1, binding_chance: 0.9285714285714286, bindable: true, prob: 0.9285714285714286, acts: true }],
    choice: { tool: 'get_order_details', prob: 0.9285714285714286, acts: true },
  },
];
const tools = [
  { name: 'cancel_pending_order', kind: 'write' as const },
  { name: 'find_user_id_by_email', kind: 'read' as const },
  { name: 'get_order_details', kind: 'read' as const },
  { name: 'get_user_details', kind: 'read' as const },
];

flowGraph('a threshold is clamped to 0..1 and rounded to two decimals', () => {
  assert.is(clampThreshold(0.456), 0.46);
  assert.is(clampThreshold(-2), 0);
  assert.is(clampThreshold(7), 1);
  assert.is(clampThreshold(Number.NaN), 0.3);
});

flowGraph('the URL threshold is read when in 0..1 and written only when not the default', () => {
  assert.is(thresholdFromParam('0.72'), 0.72);
  assert.is(thresholdFromParam('1.5'), 0.3);
  assert.is(thresholdFromParam('abc'), 0.3);
  assert.is(thresholdFromParam(null), 0.3);
  assert.is(thresholdFromParam(''), 0.3);
  assert.is(thresholdParam(0.3), undefined);
  assert.is(thresholdParam(0.5), '0.50');
});

flowGraph('at the server threshold the preview takes the server acts as given', () => {
  const previews = previewSites(shop, 0.3, 0.3);
  assert.equal(previews.map((p) => p.acts), [true, true, true]);
  assert.equal(actingCount(previews), { acting: 3, sites: 3 });
});

flowGraph('above a choice probability the site hands back with the numbers in words', () => {
  const previews = previewSites(shop, 0.3, 0.47);
  assert.equal(previews.map((p) => p.acts), [true, false, true]);
  assert.is(previews[1]!.reason, '0.46 is below 0.47');
  assert.is(previewSites(shop, 0.3, 0.46)[1]!.acts, true);
});

flowGraph('a site that is not active hands back, switched off above 1 else not promoted', () => {
  const off: SiteLike = { ...shop[0]!, active: false, threshold: 2 };
  const unpromoted: SiteLike = { ...shop[0]!, active: false };
  const [a, b] = previewSites([off, unpromoted], 0.3, 0.5);
  assert.is(a!.acts, false);
  assert.is(a!.reason, 'switched off');
  assert.is(b!.reason, 'not promoted');
});

flowGraph('a site with its own threshold is judged against it', () => {
  const own: SiteLike = { ...shop[1]!, threshold: 0.4 };
  const [p] = previewSites([own], 0.3, 0.9);
  assert.is(p!.threshold, 0.4);
  assert.is(p!.acts, true);
});

flowGraph('without a server choice the largest weighed share is chosen, first of equals', () => {
  const site: SiteLike = {
    name: 's', tool: 's', failed: false, threshold: null, active: true, choice: null,
    lookups: [
      { tool: 'a', count: 1, share: 0.5, weighed_share: 0.5, binding_chance: null, bindable: false, prob: 0, acts: false },
      { tool: 'b', count: 1, share: 0.5, weighed_share: 0.5, binding_chance: 1, bindable: true, prob: 0.5, acts: false },
    ],
  };
  const [p] = previewSites([site], 0.3, 0.4);
  assert.is(p!.choice?.tool, 'a');
  assert.is(p!.reason, 'cannot bind a’s arguments');
  const [none] = previewSites([{ ...site, lookups: [] }], 0.3, 0.4);
  assert.is(none!.reason, 'no lookup offered');
});

flowGraph('the graph has a node per tool, a loop for a repeated lookup, and acting nodes', () => {
  const graph = buildFlowGraph(previewSites(shop, 0.3, 0.47), tools, 'LR');
  assert.equal(graph.nodes.map((n) => n.id).sort(), ['find_user_id_by_email', 'get_order_details', 'get_user_details']);
  const loop = graph.edges.find((e) => e.loop);
  assert.is(loop?.source, 'get_order_details');
  assert.is(loop?.acts, false);
  const orders = graph.nodes.find((n) => n.id === 'get_order_details')!;
  assert.ok(orders.acts, 'still looked up after get_user_details');
  assert.is(nodeRole(orders), 'read · looked up');
  assert.is(nodeRole(graph.nodes.find((n) => n.id === 'find_user_id_by_email')!), 'read · call');
  for (const e of graph.edges) startsWith(e.path, 'M', `edge ${e.id} has a path`);
  for (const n of graph.nodes) {
    // Each side's overshoot: all zero when the node lies inside the graph.
    const out = [-n.x, -n.y, n.x + n.width - graph.width, n.y + n.height - graph.height].map((d) => Math.max(0, d));
    assert.equal(out, [0, 0, 0, 0], `${n.id} inside`);
  }
});

flowGraph('left to right places a chain of calls in growing x, top to bottom in growing y', () => {
  const lr = buildFlowGraph(previewSites(shop, 0.3, 0.3), tools, 'LR');
  const x = (id: string) => lr.nodes.find((n) => n.id === id)!.x;
  const chain = ['find_user_id_by_email', 'get_user_details', 'get_order_details'];
  const xs = chain.map(x);
  assert.equal(xs, [...xs].sort((a, b) => a - b));
  assert.is(new Set(xs).size, 3, 'no two calls at the same x');
  const tb = buildFlowGraph(previewSites(shop, 0.3, 0.3), tools, 'TB');
  const y = (id: string) => tb.nodes.find((n) => n.id === id)!.y;
  const ys = chain.map(y);
  assert.equal(ys, [...ys].sort((a, b) => a - b));
  assert.is(new Set(ys).size, 3, 'no two calls at the same y');
  assert.ok(tb.width > Math.max(...tb.nodes.map((n) => n.x + n.width)) + 80, 'room on the right for the loop');
});

flowGraph('a failed site is its own node', () => {
  const failed: SiteLike = { ...shop[0]!, name: 'find_user_id_by_email (error)', failed: true };
  const graph = buildFlowGraph(previewSites([failed], 0.3, 0.3), tools, 'LR');
  const node = graph.nodes.find((n) => n.id === 'find_user_id_by_email (error)');
  assert.ok(node);
  assert.is(nodeRole(node!), 'after a failed call');
});

flowGraph('widths follow the label and the share', () => {
  assert.is(nodeWidth('a', 'LR'), 168);
  assert.is(nodeWidth('x'.repeat(60), 'LR'), 300);
  assert.is(nodeWidth('get_order_details', 'TB'), 166);
  assert.is(edgeWidth(0.5), 4.5);
  assert.is(edgeWidth(3), 7.5);
});

flowGraph('an edge title says the share, the count and what the flow does', () => {
  const graph = buildFlowGraph(previewSites(shop, 0.3, 0.3), tools, 'LR');
  const e = graph.edges.find((x) => x.loop)!;
  assert.is(
    edgeTitle(e, 'get_order_details'),
    'After get_order_details: get_order_details again, 50% of what the agent did next in training (6 times). Weighed with its binding: 0.46. The flow looks it up.',
  );
});

flowGraph('paths and midpoints follow the points', () => {
  assert.is(pathThrough([{ x: 0, y: 0 }, { x: 10, y: 0 }]), 'M0,0 L10,0');
  assert.is(pathThrough([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 20, y: 10 }]), 'M0,0 Q10,0 20,10');
  assert.equal(midpoint([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }]), { x: 10, y: 0 });
});

flowGraph('the fit centres the graph and keeps the zoom within bounds', () => {
  const v = fitView(1000, 200, 500, 400);
  assert.is(v.zoom, 0.5);
  assert.is(v.x, 0);
  const small = fitView(100, 50, 500, 400);
  assert.is(small.zoom, 1.15);
  const tiny = fitView(10000, 10000, 300, 300);
  assert.is(tiny.zoom, 0.3);
  const z = zoomAbout({ zoom: 1, x: 0, y: 0 }, 10, 200, 200);
  assert.is(z.zoom, 1.6);
  assert.is(boxHeight({ width: 600, height: 100, direction: 'LR' }, 624), 240);
  assert.is(boxHeight({ width: 100, height: 2000, direction: 'TB' }, 300), 560);
});

flowGraph.run();
