import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome, fixturesDir } from '../support/fixtures.ts';
import {
  loadFlow,
  lookups,
  predict,
  probeFormatVersion,
  promotionCounts,
  servedDecider,
  siteKeys,
  siteName,
} from '../../server/engine/flows.ts';

const flows = suite('flows');
const text = (rel: string) => readFileSync(rel.startsWith('/') ? rel : join(fixtureHome, rel), 'utf8');
const shopText = text('shop.flow.json');

function loadError(t: string): string {
  try {
    loadFlow(t);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the flow loaded');
}

flows('the fixture shop flow loads with its sites, lookups and reach decider', () => {
  const flow = loadFlow(shopText);
  assert.is(flow.domain, 'shop');
  assert.is(servedDecider(flow), 'reach');
  assert.equal(siteKeys(flow).map(siteName), ['find_user_id_by_email', 'get_order_details', 'get_user_details']);
  assert.equal(lookups(flow), ['get_order_details', 'get_user_details']);
  assert.ok(flow.program !== null);
  assert.is(promotionCounts(flow), null);
});

flows('the promoted flow carries its promotion, served defaulting to 0', () => {
  const flow = loadFlow(text('shop.promoted.flow.json'));
  assert.equal(promotionCounts(flow), { sites_promoted: 3, sites_scored: 4 });
  assert.is(flow.promoted?.sites.get_order_details?.served, 0);
});

flows('the two fixture flows load: an old habit flow and one with a shipped arbiter', () => {
  const old = loadFlow(text(join(fixturesDir, 'flows/retail-5-sessions.flow.json')));
  assert.is(servedDecider(old), 'habit');
  assert.is(old.program, null);
  assert.is(old.contracts, null);
  const arbiter = loadFlow(text(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json')));
  assert.is(servedDecider(arbiter), 'arbiter');
  assert.is(arbiter.folds.length, 5);
});

flows('the reach back-off reproduces the served flow log probabilities', () => {
  const reach = loadFlow(shopText).reach!;
  assert.is(predict(reach, [32768])[4], 0.9925520080633771);
  assert.is(predict(reach, [32768, 65536])[3], 0.9959143854769734);
  assert.is(predict(reach, [32768, 65536, 49152])[3], 0.9486398991730227);
  assert.is(predict(reach, [32768, 65536, 49152, 49152])[3], 0.052769325969608226);
});

flows('a flow of another format does not load and says which formats are read', () => {
  assert.is(loadError('{"engine_flow": 7}'), 'flow format 7 is not supported (this build reads 1 and 2)');
  assert.is(probeFormatVersion('{"engine_flow": 7}'), 7);
  assert.is(probeFormatVersion('{"engine_flow": -1}'), 0);
  assert.is(probeFormatVersion('not json'), 0);
});

flows('a cut-off or non-JSON file is not an engine flow', () => {
  assert.match(loadError(shopText.slice(0, 200)), /^not an engine flow: /);
  assert.match(loadError('hello'), /^not an engine flow: /);
  assert.match(loadError('{"other": 1}'), /^not an engine flow: missing field `engine_flow`/);
});

flows('a flow missing a required part names the missing field', () => {
  const flow = JSON.parse(shopText) as Record<string, unknown>;
  delete flow.provenance;
  assert.is(loadError(JSON.stringify(flow)), 'missing field `provenance`');
  const noHabit = JSON.parse(shopText) as Record<string, Record<string, unknown>>;
  delete noHabit.habit!.beta;
  assert.match(loadError(JSON.stringify(noHabit)), /missing field `beta`/);
});

flows('a part of the wrong shape says where, what it is and what was expected', () => {
  type Parts = Record<string, unknown> & { habit: Record<string, unknown>; manifest: Record<string, unknown> };
  const broken = (change: (flow: Parts) => void) => {
    const flow = JSON.parse(shopText) as Parts;
    change(flow);
    return loadError(JSON.stringify(flow));
  };
  assert.is(broken((f) => (f.map = [])), 'invalid type at `map`: an array, expected an object');
  assert.is(broken((f) => (f.group = -1)), 'invalid type at `group`: number -1, expected a whole number, 0 or more');
  assert.is(broken((f) => (f.habit.top = [[1]])), 'invalid length at `habit.top[0]`: 1, expected a list of 2');
  assert.is(broken((f) => (f.manifest.tools = { x: 'other' })), 'invalid type at `manifest.tools.x`: the string "other", expected one of "read", "write", "generic"');
  assert.is(broken((f) => (f.vocab = [{}])), 'missing field `Tool` in `vocab[0]`');
  assert.is(broken((f) => (f.promoted = { bar: 1 })), 'invalid type at `promoted.bar`: number 1, expected an object');
});

flows('format 1 refuses per-site thresholds and v2 bindings, format 2 reads them', () => {
  const flow = JSON.parse(shopText) as Record<string, unknown>;
  flow.thresholds = { get_order_details: 2 };
  assert.is(loadError(JSON.stringify(flow)), 'a flow with per-site thresholds is format 2');
  flow.engine_flow = 2;
  assert.equal(loadFlow(JSON.stringify(flow)).thresholds, { get_order_details: 2 });
  const bare = JSON.parse(shopText) as Record<string, Record<string, unknown>>;
  bare.bindings!.bare = { get_order_details: 1 };
  assert.match(loadError(JSON.stringify(bare)), /^a flow with bindings scored where another value was named/);
});

flows('a program that does not compile against the flow registry does not load', () => {
  const flow = JSON.parse(shopText) as { program: { body: unknown[]; ret: unknown; extra?: number } };
  flow.program.ret = { op: 'var', name: 'nowhere' };
  assert.match(loadError(JSON.stringify(flow)), /^the flow's program: unknown variable `nowhere`/);
  const unknownField = JSON.parse(shopText) as { program: { extra?: number } };
  unknownField.program.extra = 1;
  assert.match(loadError(JSON.stringify(unknownField)), /^the flow's program: unknown field `extra`/);
  const dist = JSON.parse(shopText) as { program: { body: unknown[] } };
  dist.program.body.push({ stmt: 'sample', var: 'x', addr: { name: 'x' }, dist: { name: 'Normal', args: [] } });
  assert.match(loadError(JSON.stringify(dist)), /^the flow's program: unknown distribution `Normal`/);
});

flows.run();
