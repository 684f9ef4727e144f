// GET /api/savings over HTTP on a temp copy of the fixture home, with the clock fixed three days after the
// fixture sessions: the figures over the fixture days, the domain filter, and the 400s of a bad query.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { SavingsSchema } from '../../shared/savings.ts';
import { launch, type Launched } from '../support/launch.ts';

const NOW = Date.UTC(2026, 9, 1, 12);
const s = suite('savings api');
let c: Launched;
s.before(async () => {
  c = await launch({ env: { ENGINE_CONSOLE_NOW_MS: String(NOW) } });
});
s.after(async () => {
  await c.stop();
});

async function get(query: string) {
  const res = await c.api(`/api/savings${query}`);
  assert.is(res.status, 200, query);
  return v.parse(SavingsSchema, await res.json());
}

s('the last 14 UTC days by default: shop served twice against its six recorded sessions', async () => {
  const r = await get('');
  assert.equal([r.days, r.domain, r.start_unix_ms, r.end_unix_ms], [14, null, Date.UTC(2026, 8, 18), Date.UTC(2026, 9, 2)]);
  assert.equal(
    r.domains.map((d) => [d.domain, d.served_sessions, d.lookups, d.calls, d.llm_turns, d.hand_backs, d.recorded_sessions, d.with_flow, d.without_flow]),
    [
      ['retail', 0, 0, 0, 0, 0, 1, { calls: null, llm_turns: null }, { calls: 5, llm_turns: 7 }],
      ['shop', 2, 6, 3, 6, 3, 6, { calls: 1.5, llm_turns: 3 }, { calls: 28 / 6, llm_turns: 38 / 6 }],
    ],
  );
  assert.equal(r.totals.saved, { calls: 28 / 6 - 1.5, llm_turns: 38 / 6 - 3 });
  assert.is(r.daily.length, 28);
  assert.equal(r.daily.filter((d) => d.served_sessions > 0).map((d) => [d.date, d.domain, d.lookups]), [['2026-09-28', 'shop', 6]]);
});

s('days and domain narrow it', async () => {
  const shop = await get('?days=4&domain=shop');
  assert.equal([shop.days, shop.domain, shop.daily.map((d) => d.date)], [4, 'shop', ['2026-09-28', '2026-09-29', '2026-09-30', '2026-10-01']]);
  assert.equal(shop.domains.map((d) => [d.domain, d.served_sessions]), [['shop', 2]]);
  const short = await get('?days=3');
  assert.equal(short.domains, []);
  assert.is((await get('?days=365')).daily.length, 730);
});

s('days outside 1 to 365, or not a number, is 400', async () => {
  for (const bad of ['0', '366', 'x', '1.5', '-1', '']) {
    const res = await c.api(`/api/savings?days=${bad}`);
    assert.is(res.status, 400, bad);
    assert.is(v.parse(ErrorBodySchema, await res.json()).error, 'days: a whole number of days, from 1 to 365', bad);
  }
});

s.run();
