// client/src/lib/flow-compare.ts: which flow the Compare tab diffs with, in which direction, and the notes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FlowSummary } from '../../shared/flows.ts';
import { comparableFlows, derivedFrom, diffPair, otherFlow, promotionNotes, thisIsNewerByDefault } from '../../client/src/lib/flow-compare.ts';

const flowCompare = suite('client flow-compare');

function flow(key: string, more: Partial<FlowSummary> = {}): FlowSummary {
  return {
    key, path: `${key}.flow.json`, name: key, domain: 'shop', format_version: 1, engine_version: '0.1.0', sources: [], habit_episodes: 3,
    arbiter_cases: 0, compiled_unix_ms: 0, modified_unix_ms: 0, size_bytes: 10, decider: 'habit', has_arbiter: false, has_reach: false,
    tools: { read: 1, write: 0, generic: 0 }, sites: 3, lookups: 2, lookup_tools: ['a', 'b'], promoted: null, served_by: [], stage: null, error: null,
    surprise: null, ...more,
  };
}

flowCompare('a promoted or staged flow is made from its flow; a version is not', () => {
  assert.is(derivedFrom(flow('shop.promoted'), flow('shop')), true);
  assert.is(derivedFrom(flow('shop'), flow('shop.promoted')), false);
  assert.is(derivedFrom(flow('v1', { name: 'shop.1', version_of: { flow: 'shop', name: 'shop', version: 1 } }), flow('shop')), false);
});

flowCompare('this flow is the newer side unless the other is made from it or is its later version', () => {
  assert.is(thisIsNewerByDefault(flow('shop'), flow('shop.staged')), false);
  assert.is(thisIsNewerByDefault(flow('shop.staged'), flow('shop')), true);
  assert.is(thisIsNewerByDefault(flow('shop'), flow('v1', { version_of: { flow: 'shop', name: 'shop', version: 1 } })), true);
  assert.is(thisIsNewerByDefault(flow('v1', { version_of: { flow: 'shop', name: 'shop', version: 1 } }), flow('shop')), false);
  assert.is(thisIsNewerByDefault(undefined, null), true);
});

flowCompare('the other flow: the one picked, else the same domain’s, a flow before a version', () => {
  const version = flow('v1', { version_of: { flow: 'shop', name: 'shop', version: 1 } });
  const others = comparableFlows([flow('shop'), version, flow('bank', { domain: 'bank' }), flow('broken', { error: 'no' }), flow('shop.promoted')], 'shop');
  assert.equal(others.map((f) => f.key), ['v1', 'bank', 'shop.promoted']);
  assert.is(otherFlow(others, 'shop', 'bank')?.key, 'bank');
  assert.is(otherFlow(others, 'shop', null)?.key, 'shop.promoted');
  assert.is(otherFlow([version], 'shop', null)?.key, 'v1');
  assert.is(otherFlow([], 'shop', null), null);
});

flowCompare('the pair runs from the older flow to the newer', () => {
  assert.equal(diffPair(flow('old'), 'shop', true, { threshold: 0.3, tolerance: 0.05 }), { from: 'old', to: 'shop', threshold: 0.3, tolerance: 0.05 });
  assert.equal(diffPair(flow('new'), 'shop', false, { threshold: 0.5, tolerance: 0.2 }), { from: 'shop', to: 'new', threshold: 0.5, tolerance: 0.2 });
  assert.is(diffPair(null, 'shop', true, { threshold: 0.3, tolerance: 0.05 }), null);
});

flowCompare('a note says why promote scored more calls than the flow has sites', () => {
  assert.equal(promotionNotes([flow('shop', { sites: 3, promoted: { sites_promoted: 2, sites_scored: 4 } }), flow('bank'), null]), [
    'shop has 3 sites; engine promote scored 4 calls: every call the flow decided after, also one it never looks anything up after, which is never promoted.',
  ]);
  assert.equal(promotionNotes([flow('shop', { sites: 3, promoted: { sites_promoted: 3, sites_scored: 3 } })]), []);
});

flowCompare.run();
