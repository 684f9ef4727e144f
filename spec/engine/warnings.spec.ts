import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome, fixturesDir } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { ARBITER_KEY_WARNING, flowWarnings, toolWarnings } from '../../server/engine/warnings.ts';

const warnings = suite('warnings');
const shop = loadFlow(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8'));
const arbiter = loadFlow(readFileSync(join(fixturesDir, 'flows/retail-5-sessions-shipped-arbiter.flow.json'), 'utf8'));
const tool = (name: string, read_only_hint: boolean | null, contract: string | null = null) => ({ name, read_only_hint, contract });

warnings('a writable read tool comes first, then a lookup the server no longer lists', () => {
  const out = toolWarnings(
    shop,
    [tool('find_user_id_by_email', true), tool('get_user_details', false), tool('cancel_pending_order', false)],
    'the server',
  );
  assert.equal(out, [
    '`get_user_details` is read-only in the flow, but the server marks it readOnlyHint: false, so the proxy will not look it up',
    'the flow looks up `get_order_details`, which the server does not list',
  ]);
});

warnings('a lookup whose input changed since the flow pinned it is named with both contracts', () => {
  const out = toolWarnings(
    shop,
    [tool('get_user_details', null, 'id:string!'), tool('get_order_details', null, 'order_id:string!')],
    'the server',
  );
  assert.equal(out, [
    "`get_user_details`'s input changed since the flow was learned (user_id:string! → id:string! in the server), so the proxy no longer looks it up",
  ]);
});

warnings('an empty listing gives no warnings, and no listing only the key warning', () => {
  assert.equal(toolWarnings(shop, [], 'the server'), []);
  assert.equal(flowWarnings(shop, null, false), []);
  assert.equal(flowWarnings(arbiter, null, false), [ARBITER_KEY_WARNING]);
  assert.equal(flowWarnings(arbiter, null, true), []);
});

warnings('the listing source names the session', () => {
  const out = flowWarnings(shop, { sessionId: 'abc', tools: [tool('get_user_details', false)] }, false);
  assert.match(out[0]!, 'the latest recorded tools/list (session abc) marks it readOnlyHint: false');
});

warnings.run();
