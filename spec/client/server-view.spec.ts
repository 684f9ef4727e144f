// Reading a server view for the pages: the flow summary carried as plain JSON, and the proxy's defaults in words.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deciderText, flowSummaryOf, proxyCommand, thresholdText } from '../../client/src/lib/server-view.ts';
import { shellQuote } from '../../client/src/lib/server-form.ts';

const serverView = suite('server-view');

const summary = {
  key: 'shop', path: 'shop.flow.json', name: 'shop', domain: 'shop', format_version: 1, engine_version: '0.1.0',
  sources: ['quickstart'], habit_episodes: 6, arbiter_cases: 0, compiled_unix_ms: 1, modified_unix_ms: 2, size_bytes: 3,
  decider: 'reach', has_arbiter: false, has_reach: true, tools: { read: 3, write: 1, generic: 0 }, sites: 3, lookups: 2,
  promoted: null, served_by: ['shop'], stage: null, error: null,
};

serverView('a flow summary of the right shape is read, anything else is none', () => {
  assert.is(flowSummaryOf(summary)?.key, 'shop');
  assert.is(flowSummaryOf(null), null);
  assert.is(flowSummaryOf({ key: 'x' }), null);
});

serverView('the decider and threshold say when they are the defaults', () => {
  assert.is(deciderText(null, flowSummaryOf(summary)), 'reach (the flow’s default)');
  assert.is(deciderText(null, flowSummaryOf({ ...summary, has_reach: false, has_arbiter: true })), 'arbiter (the flow’s default)');
  assert.is(deciderText(null, flowSummaryOf({ ...summary, has_reach: false })), 'habit (the flow’s default)');
  assert.is(deciderText('habit', null), 'habit');
  assert.is(deciderText(null, null), 'the flow’s default');
  assert.is(thresholdText(null), '0.3 (the proxy’s default)');
  assert.is(thresholdText(0.5), '0.5');
});

serverView('the proxy command line is engine-proxy and the quoted arguments', () => {
  assert.is(proxyCommand(['--record', '/srv/My Logs', '--domain', 'x'], shellQuote), `engine-proxy --record '/srv/My Logs' --domain x`);
});

serverView.run();
