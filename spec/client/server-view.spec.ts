// Reading a server view for the pages: the flow summary carried as plain JSON, and the proxy's defaults in words.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deciderText, flowSummaryOf, policyRows, proxyCommand, recordDirInData, stepJobs, thresholdText } from '../../client/src/lib/server-view.ts';
import { shellQuote } from '../../client/src/lib/server-form.ts';

const serverView = suite('server-view');

const summary = {
  key: 'shop', path: 'shop.flow.json', name: 'shop', domain: 'shop', format_version: 1, engine_version: '0.1.0',
  sources: ['quickstart'], habit_episodes: 6, arbiter_cases: 0, compiled_unix_ms: 1, modified_unix_ms: 2, size_bytes: 3,
  decider: 'reach', has_arbiter: false, has_reach: true, tools: { read: 3, write: 1, generic: 0 }, sites: 3, lookups: 2, lookup_tools: ['get_order_details', 'get_user_details'],
  promoted: null, served_by: ['shop'], stage: null, error: null, surprise: null,
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

serverView('the policy in words: one row per field that is set, flow settings only when a flow runs', () => {
  const base = { flow: null, mode: 'record' };
  assert.equal(policyRows(base), []);
  assert.equal(policyRows({ ...base, guards: false, commit: false, flow_tools: [], surprise: null, judge: null, retain_days: null, listen: null }), []);
  assert.equal(policyRows({ ...base, surprise: { kind: 'off' }, flow_tools: ['a'] }), [], 'no flow runs in record mode');
  assert.equal(
    policyRows({
      flow: 'f', mode: 'serve', surprise: { kind: 'threshold', nats: 2.5 }, flow_tools: ['a', 'b'], guards: true,
      judge: { mode: 'enforce', context: 'c.jsonl' }, commit: true, retain_days: 1, listen: { addr: '127.0.0.1:1', token_file: 't' },
    }),
    [
      ['Surprise gate', 'hands back above 2.5 nats'],
      ['Tools the flow may call', 'a, b'],
      ['Policy guards', 'on: calls that break the domain’s policy are refused'],
      ['Confirmation judge', 'refuses the writes it fails; reads c.jsonl'],
      ['engine_commit', 'offered: several calls in one'],
      ['Keeps sessions', '1 day'],
      ['Listens at', '127.0.0.1:1, token in t'],
    ],
  );
});

serverView('next steps that are jobs run over the data directory, from where the server records', () => {
  const s = (over: Record<string, unknown>) => ({ name: 'shop', mode: 'record', flow: null, record_dir: null, flow_key: null, ...over });
  assert.is(recordDirInData(s({ record_dir: '/d/served/shop' }), '/d', '/d'), 'served/shop');
  assert.is(recordDirInData(s({ record_dir: '~/.engine/x' }), '/home/u/.engine', '~/.engine'), 'x');
  assert.is(recordDirInData(s({ mode: 'shadow' }), '/d', '/d'), 'shadow/shop');
  assert.equal(stepJobs(s({}), '/d', '/d'), [
    { kind: 'learn', label: 'Learn a flow from shop’s sessions', href: '/jobs/new?kind=learn&domain=shop&sessions=logs%2Fshop' },
    { kind: 'promote', label: 'Promote it, once it has run in shadow', href: '/jobs/new?kind=promote&flow=shop&sessions=shadow%2Fshop' },
  ]);
  assert.equal(
    stepJobs(s({ mode: 'shadow', flow: 'shop.flow.json', flow_key: 'shop' }), '/d', '/d'),
    [{ kind: 'promote', label: 'Promote the shadow flow', href: '/jobs/new?kind=promote&flow=shop&sessions=shadow%2Fshop' }],
  );
  assert.equal(stepJobs(s({ mode: 'serve', flow: 'shop.flow.json', record_dir: 'served/shop' }), '/d', '/d')[0]!.label, 'Learn again from shop’s sessions');
});

serverView.run();
