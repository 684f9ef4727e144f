// A later engine's `surprised` sessions (its surprise gate handed back in them): the list filters on it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionListSchema } from '../../shared/sessions.ts';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const surprised = suite('sessions surprised filter');
let c: Launched;
const home = copyHome();
const SURPRISED = '20260928T020401.195Z-14715';

surprised.before(async () => {
  const gate = {
    action: 'hand_back', address: 'decide#0', after: 9, binding: null, key: null, ms: 0, oracle: {}, predicates: {}, prob: null, probs: {},
    reason: "the session surprised the flow: 5 of the agent's steps in a row averaged 3.42 nats, above 3.10", site: 'get_order_details',
  };
  appendFileSync(join(realpathSync(home.dir), 'served/shop', `${SURPRISED}.flow.jsonl`), `${JSON.stringify(gate)}\n`);
  c = await launch({ dataDir: home.dir });
});
surprised.after(async () => {
  await c?.stop();
  home.cleanup();
});

const keys = async (query: string) => {
  const res = await c.api(`/api/sessions${query}`);
  assert.is(res.status, 200, query);
  return v.parse(SessionListSchema, await res.json()).items.map((s) => [s.key, s.surprised]);
};

surprised('surprised=true lists the sessions the gate handed back in; false the rest; empty is no filter', async () => {
  assert.equal(await keys('?surprised=true'), [[SURPRISED, true]]);
  const rest = await keys('?surprised=false');
  assert.is(rest.length, 11);
  assert.ok(rest.every(([, s]) => s === false));
  assert.is((await keys('?surprised=')).length, 12);
  assert.equal(await keys('?surprised=true&mode=shadow'), []);
});

surprised('anything else is a 400 that says what it takes', async () => {
  const res = await c.api('/api/sessions?surprised=yes');
  assert.equal([res.status, await res.json()], [400, { error: 'surprised "yes": expected true or false' }]);
});

surprised.run();
