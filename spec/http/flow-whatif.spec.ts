// GET /api/flows/:key/whatif: what serving the flow at another threshold would change, counted from the
// decisions the domain's flow logs recorded, on the fixture home and on generated sessions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { WhatIfSchema, type WhatIf } from '../../shared/whatif.ts';
import { fixtureHome, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const whatif = suite('flow what-if');
let fixture: Launched;
let made: Launched;
const cleanups: (() => void)[] = [];

const SERVED = join(fixtureHome, 'served/shop/20260928T020401.117Z-14662');

async function ask(l: Launched, query: string): Promise<WhatIf> {
  const res = await l.api(`/api/flows/shop/whatif${query}`);
  assert.is(res.status, 200, await res.clone().text());
  return v.parse(WhatIfSchema, await res.json());
}

/** A served session of the shop whose flow log holds `lines`, started `n` ms after the fixture's. */
function served(dir: string, n: number, lines: readonly object[]): string {
  const id = `20300101T000000.${String(n).padStart(3, '0')}Z-${1000 + n}`;
  const log = readFileSync(`${SERVED}.jsonl`, 'utf8').split('\n');
  const header = { ...(JSON.parse(log[0]!) as object), session: id, started_unix_ms: 1893456000000 + n };
  writeFileSync(join(dir, `${id}.jsonl`), [JSON.stringify(header), ...log.slice(1)].join('\n'));
  writeFileSync(join(dir, `${id}.flow.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return id;
}

const lookup = (prob: number) => ({ action: 'lookup', address: 'decide#0', after: 3, binding: 1, prob, probs: {}, site: 'list_orders', tool: 'get_order_details' });
const below = (prob: number) => ({ action: 'hand_back', address: 'decide#0', after: 3, binding: null, prob, probs: {}, reason: `get_order_details at ${prob.toFixed(2)}, below 0.3`, site: 'list_orders' });

whatif.before(async () => {
  const h = tempDir('engine-http-whatif-');
  cleanups.push(h.cleanup);
  const home = realpathSync(h.dir);
  writeFileSync(join(home, 'shop.flow.json'), readFileSync(join(fixtureHome, 'shop.flow.json')));
  const dir = join(home, 'served', 'shop');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 12; i++) served(dir, i, [lookup(0.5 + i / 100), below(0.2), below(0.1)]);
  [fixture, made] = await Promise.all([launch({ dataDir: fixtureHome }), launch({ dataDir: home })]);
});
whatif.after(async () => {
  await Promise.all([fixture?.stop(), made?.stop()]);
  cleanups.forEach((f) => f());
});

whatif('at the threshold the fixture sessions ran with, nothing changes; every decision of the five flow logs is counted', async () => {
  const w = await ask(fixture, '');
  assert.is(w.threshold, 0.3);
  assert.is(w.sessions, 5, 'two served and three shadow sessions; the recorded ones have no flow log');
  assert.equal(w.total, { served_then: 15, handed_back_then: 8, served_at: 15, handed_back_at: 8 });
  assert.equal(w.sites.map((s) => s.site), ['cancel_pending_order', 'find_user_id_by_email', 'get_order_details', 'get_user_details']);
  assert.equal(w.sites[0], { site: 'cancel_pending_order', served_then: 0, handed_back_then: 3, served_at: 0, handed_back_at: 3 });
  assert.equal(w.changed, []);
});

whatif('a higher bar hands back the lookups whose probability times binding falls under it', async () => {
  const w = await ask(fixture, '?threshold=0.9');
  // find_user_id_by_email: 0.993 × 0.875 = 0.868; get_order_details: 0.949 × 0.929 = 0.881; get_user_details: 0.925.
  assert.equal(w.total, { served_then: 15, handed_back_then: 8, served_at: 5, handed_back_at: 18 });
  assert.equal(w.sites.find((s) => s.site === 'get_user_details'), { site: 'get_user_details', served_then: 5, handed_back_then: 0, served_at: 5, handed_back_at: 0 });
  assert.equal(w.sites.find((s) => s.site === 'find_user_id_by_email'), { site: 'find_user_id_by_email', served_then: 5, handed_back_then: 0, served_at: 0, handed_back_at: 5 });
  assert.is(w.changed.length, 5);
  for (const c of w.changed) assert.equal([c.served_then, c.served_at], [3, 1]);
});

whatif('a lower bar serves the hand-backs that were only under the bar, never the others', async () => {
  const w = await ask(fixture, '?threshold=0.05');
  // get_order_details at 0.0528 is served at 0.05; "no lookups followed here in training" stays a hand-back.
  assert.equal(w.total, { served_then: 15, handed_back_then: 8, served_at: 20, handed_back_at: 3 });
  assert.equal(w.sites.find((s) => s.site === 'cancel_pending_order')?.served_at, 0);
});

whatif('sessions=N reads the N newest sessions; the most changed come first; a rewritten flow log is read again', async () => {
  const w = await ask(made, '?threshold=0.15&sessions=5');
  assert.is(w.sessions, 5);
  assert.equal(w.total, { served_then: 5, handed_back_then: 10, served_at: 10, handed_back_at: 5 });
  assert.equal(w.changed.map((c) => c.key), ['20300101T000000.011Z-1011', '20300101T000000.010Z-1010', '20300101T000000.009Z-1009', '20300101T000000.008Z-1008', '20300101T000000.007Z-1007']);
  const high = await ask(made, '?threshold=0.55&sessions=5');
  // The sessions' lookups at 0.57 to 0.61 stay; each loses nothing, so none changes.
  assert.equal(high.changed, []);
  const all = await ask(made, '?threshold=0.6&sessions=99999');
  assert.is(all.sessions, 12, 'more than 5,000 is read as 5,000: every session there is');
  assert.equal(all.changed.map((c) => c.key).slice(0, 2), ['20300101T000000.009Z-1009', '20300101T000000.008Z-1008']);

  const dir = join(made.dataDir, 'served', 'shop');
  writeFileSync(join(dir, '20300101T000000.011Z-1011.flow.jsonl'), [lookup(0.9), lookup(0.95), below(0.2), below(0.25)].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const again = await ask(made, '?threshold=0.15&sessions=5');
  assert.equal(again.total, { served_then: 6, handed_back_then: 10, served_at: 12, handed_back_at: 4 });
  assert.equal(again.changed[0], { key: '20300101T000000.011Z-1011', served_then: 2, served_at: 4 });
});

whatif('refusals: a threshold that is no probability or sessions under 1 are 400, an unknown flow 404', async () => {
  for (const [query, error] of [
    ['?threshold=1.5', 'threshold 1.5: a probability, from 0 to 1'],
    ['?threshold=x', 'threshold: a number'],
    ['?sessions=0', 'sessions: 1 or more'],
    ['?sessions=-2', 'sessions: a whole number, 0 or more'],
  ] as const) {
    const res = await fixture.api(`/api/flows/shop/whatif${query}`);
    assert.equal([res.status, await res.json()], [400, { error }], query);
  }
  const res = await fixture.api('/api/flows/nope/whatif');
  assert.equal([res.status, await res.json()], [404, { error: 'no flow "nope"' }]);
});

whatif.run();
