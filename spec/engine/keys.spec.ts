import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { assignKeys, keyBase, pathHash } from '../../server/engine/keys.ts';
import { check } from '../props/check.ts';

const keys = suite('keys');

keys('a stem keeps ASCII letters, digits and . _ - and turns the rest into _', () => {
  assert.is(keyBase('my flow#1'), 'my_flow_1');
  assert.is(keyBase('a/b'), 'a_b');
  assert.is(keyBase('é'), '_');
  assert.is(keyBase('x~1'), 'x_1');
  assert.is(keyBase('..'), '_');
  assert.is(keyBase(''), '_');
  assert.is(keyBase('20260928T020401.117Z-14662'), '20260928T020401.117Z-14662');
});

keys('unique stems are their own keys', () => {
  assert.equal(assignKeys([{ stem: 'a', rel: 'logs/a.jsonl' }, { stem: 'b', rel: 'logs/b.jsonl' }]), ['a', 'b']);
});

keys('stems that clash get ~ and 8 hex of the sha256 of the relative path', () => {
  const out = assignKeys([
    { stem: 'copy', rel: 'logs/shop/copy.jsonl' },
    { stem: 'copy', rel: 'shadow/shop/copy.jsonl' },
  ]);
  assert.is(out[0], `copy~${pathHash('logs/shop/copy.jsonl').slice(0, 8)}`);
  assert.is(out[1], `copy~${pathHash('shadow/shop/copy.jsonl').slice(0, 8)}`);
  assert.match(out[0]!, /^copy~[0-9a-f]{8}$/);
});

keys('a flow stem named diff gets a hashed key because the literal route owns that name', () => {
  const [k] = assignKeys([{ stem: 'diff', rel: 'diff.flow.json' }], new Set(['diff']));
  assert.is(k, `diff~${pathHash('diff.flow.json').slice(0, 8)}`);
});

keys('keys are the same for the same files on every run', () => {
  const items = [{ stem: 'x', rel: 'a/x.jsonl' }, { stem: 'x', rel: 'b/x.jsonl' }, { stem: 'y', rel: 'y.jsonl' }];
  assert.equal(assignKeys(items), assignKeys(items.map((i) => ({ ...i }))));
});

keys('a base that equals another file\'s hashed key falls back to the full hash', () => {
  const h = pathHash('a/x.jsonl').slice(0, 8);
  const out = assignKeys([
    { stem: 'x', rel: 'a/x.jsonl' },
    { stem: 'x', rel: 'b/x.jsonl' },
    { stem: `x_${h}`, rel: 'c.jsonl' },
  ]);
  assert.is(new Set(out).size, 3);
});

keys('a stem is its own base exactly when the CLI\'s pattern says so', async () => {
  // The engine's rule as a pattern: the base is the stem itself when it matches.
  const safe = /^[A-Za-z0-9._-]*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
  const unit = fc.constantFrom('a', 'Z', '0', '9', '.', '_', '-', '~', '/', ' ', 'é', '\u{1F600}', '\u0000', '@', '`', '[', '{', ':');
  await check(
    fc.property(fc.array(unit, { maxLength: 12 }).map((u) => u.join('')), (stem) => {
      assert.is(keyBase(stem) === stem, safe.test(stem), JSON.stringify(stem));
    }),
    2_000,
  );
});

keys.run();
