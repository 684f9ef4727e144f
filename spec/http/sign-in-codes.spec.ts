// The one-time codes of --open alone: one sign-in each, within the time limit; a refusal says why.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SIGN_IN_CODE_TTL_MS } from '../../shared/limits.ts';
import { withoutParams } from '../../server/http/sign-in-link.ts';
import { SignInCodes } from '../../server/http/sign-in-codes.ts';

const codes = suite('sign-in codes');

codes('a code signs in once; the second use is refused as used', () => {
  const c = new SignInCodes(() => 1_000);
  const code = c.issue();
  assert.match(code, /^[0-9a-f]{32}$/);
  assert.equal(c.redeem(code), { ok: true });
  assert.equal(c.redeem(code), { ok: false, why: 'used' });
});

codes('a code used after the time limit is refused as expired, and stays refused', () => {
  let now = 5_000;
  const c = new SignInCodes(() => now);
  const code = c.issue();
  now += SIGN_IN_CODE_TTL_MS;
  const onTheEdge = c.issue();
  now += 1;
  assert.equal(c.redeem(code), { ok: false, why: 'expired' });
  assert.equal(c.redeem(code), { ok: false, why: 'expired' });
  assert.equal(c.redeem(onTheEdge), { ok: true });
});

codes('a code this console never made is unknown, and codes are independent', () => {
  const c = new SignInCodes(() => 0);
  const a = c.issue();
  const b = c.issue();
  assert.is.not(a, b);
  assert.equal(c.redeem('0'.repeat(32)), { ok: false, why: 'unknown' });
  assert.equal(c.redeem(b), { ok: true });
  assert.equal(c.redeem(a), { ok: true });
});

codes('the redirect drops the code and any older sign_in piece, keeping the rest', () => {
  assert.is(withoutParams('/', 'code=abc', ['code', 'sign_in']), '/');
  assert.is(withoutParams('/sessions', 'a=1&code=abc&sign_in=used', ['code', 'sign_in'], ['sign_in=expired']), '/sessions?a=1&sign_in=expired');
});

codes.run();
