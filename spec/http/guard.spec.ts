// The guard's helpers alone: how a token is presented and compared, the Host check, the sign-in link.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type * as crypto from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
import { hostAllowed } from '../../server/http/guard.ts';
import { cookieNames, cookieValues } from '../../server/http/sign-in-cookie.ts';
import { decodeQueryValue, localPath, queryToken, withoutToken } from '../../server/http/sign-in-link.ts';
import { sameToken } from '../../server/http/token.ts';

const guard = suite('guard');

guard('tokens are compared through SHA-256 digests with timingSafeEqual, whatever their lengths', () => {
  assert.ok(sameToken('abc', 'abc'));
  assert.not.ok(sameToken('abc', 'abd'));
  assert.not.ok(sameToken('', 'abc'));
  assert.not.ok(sameToken('abc'.repeat(100), 'abc'));
  // The comparison goes through crypto.timingSafeEqual on two 32-byte digests: spy on the builtin.
  const cjs = require('node:crypto') as typeof crypto;
  const original = cjs.timingSafeEqual;
  const calls: number[][] = [];
  cjs.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    calls.push([a.byteLength, b.byteLength]);
    return original(a, b);
  };
  syncBuiltinESMExports();
  try {
    assert.not.ok(sameToken('short', 'a-much-longer-token'));
  } finally {
    cjs.timingSafeEqual = original;
    syncBuiltinESMExports();
  }
  assert.equal(calls, [[32, 32]]);
});

guard('the sign-in cookies are engine_console and the one named for this port, and only those', () => {
  const names = cookieNames(7979);
  assert.equal(names, ['engine_console', 'engine_console_7979']);
  assert.equal(cookieValues('a=1; engine_console=T1 ; other_engine_console=X; engine_console_7980=Y; engine_console_7979=Z', names), ['T1', 'Z']);
  assert.equal(cookieValues(['engine_console=A', 'engine_console=B'], names), ['A', 'B']);
  assert.equal(cookieValues(undefined, names), []);
  assert.equal(cookieValues('engine_console=a%20b', names), ['a%20b']);
});

guard('the Host check wants a loopback name and the console\'s port', () => {
  assert.ok(hostAllowed('localhost:7878', 7878));
  assert.ok(hostAllowed(' LocalHost:7878 ', 7878));
  assert.ok(hostAllowed('127.0.0.1:7878', 7878));
  assert.ok(hostAllowed('[::1]:7878', 7878));
  assert.ok(hostAllowed('localhost', 80));
  for (const bad of ['localhost', 'localhost:80', '127.0.0.2:7878', '[::1]', '0.0.0.0:7878', 'localhost.evil.example:7878', '[::1:7878', 'localhost:07878x', '']) {
    assert.not.ok(hostAllowed(bad, 7878), bad);
  }
  assert.not.ok(hostAllowed(undefined, 7878));
});

guard('the sign-in link drops token pieces and keeps the rest of the query', () => {
  assert.is(withoutToken('/sessions/x', 'view=raw&token=T'), '/sessions/x?view=raw');
  assert.is(withoutToken('/', 'token=T'), '/');
  assert.is(withoutToken('/', 'token&&a=1&token=2'), '/?a=1');
  assert.is(queryToken('a=1&token=x%2By+z&token=second'), 'x+y z');
  assert.is(queryToken('a=1'), null);
  assert.is(decodeQueryValue('%zz%41%C3%A9'), '%zzAé');
});

guard('a redirect stays on this console: leading slashes and backslashes collapse, odd bytes are escaped', () => {
  assert.is(localPath('//evil.example/'), '/evil.example/');
  assert.is(localPath('/\\evil.example/'), '/evil.example/');
  assert.is(localPath('/\\/\\//evil.example'), '/evil.example');
  assert.is(localPath('/sessions/x'), '/sessions/x');
  assert.is(localPath('/a b\u00e9'), '/a%20b%C3%A9');
  assert.is(localPath('/\ud800'), '/%EF%BF%BD');
  assert.is(withoutToken('//evil.example/', 'token=T&x=1'), '/evil.example/?x=1');
});

guard.run();
