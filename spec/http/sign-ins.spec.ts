// The browser's sign-ins alone: a secret is live until its time, ends at once on logout, and a refusal says
// which it was; the table holds a bounded number.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SIGN_IN_TTL_MS, SIGN_INS_MAX } from '../../shared/limits.ts';
import { SignIns } from '../../server/http/sign-ins.ts';

const signIns = suite('sign-ins');

signIns('a sign-in is live until its time, then expired', () => {
  let now = 1_000;
  const s = new SignIns(() => now);
  const a = s.begin();
  assert.match(a.secret, /^[0-9a-f]{64}$/);
  assert.is(a.expiresUnixMs, 1_000 + SIGN_IN_TTL_MS);
  now += SIGN_IN_TTL_MS;
  assert.is(s.check(a.secret), 'live');
  now += 1;
  assert.is(s.check(a.secret), 'expired');
});

signIns('ending a sign-in refuses it at once; others and unknown secrets are unaffected', () => {
  const s = new SignIns(() => 0);
  const a = s.begin();
  const b = s.begin();
  s.end(a.secret);
  assert.is(s.check(a.secret), 'ended');
  assert.is(s.check(b.secret), 'live');
  assert.is(s.check('0'.repeat(64)), 'unknown');
  s.end('0'.repeat(64));
  assert.is(s.check('0'.repeat(64)), 'unknown');
});

signIns('past the most live sign-ins, the oldest ends first', () => {
  const s = new SignIns(() => 0);
  const first = s.begin();
  const rest = Array.from({ length: SIGN_INS_MAX }, () => s.begin());
  assert.is(s.check(first.secret), 'ended');
  assert.ok(rest.every((r) => s.check(r.secret) === 'live'));
});

signIns.run();
