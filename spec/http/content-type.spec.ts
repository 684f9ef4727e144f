// The answers' whole Content-Types are what Koa's `ctx.type = short` sets (mime-types' contentType), and the
// bundle's lazy mime-types (server/http/mime-types-lazy.cjs) answers as the real one while loading it only
// when first asked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CONTENT_TYPES, SHORT_FORMS } from '../../server/http/content-type.ts';

const require = createRequire(import.meta.url);
const shimPath = fileURLToPath(new URL('../../server/http/mime-types-lazy.cjs', import.meta.url));

interface MimeTypes {
  contentType(s: string): string | false;
  lookup(s: string): string | false;
  extension(s: string): string | false;
  charset(s: string): string | false;
  types: Record<string, string>;
  extensions: Record<string, string[]>;
}
const real = require('mime-types') as MimeTypes;

const test = suite('content types');

test('each whole type is what ctx.type would set from its short form', () => {
  for (const kind of Object.keys(CONTENT_TYPES) as (keyof typeof CONTENT_TYPES)[]) {
    assert.is(CONTENT_TYPES[kind], real.contentType(SHORT_FORMS[kind]), kind);
  }
});

test('the lazy mime-types answers as the real one', () => {
  const shim = require(shimPath) as MimeTypes;
  for (const s of ['json', 'html', 'text', 'bin', 'application/json', 'text/html; charset=utf-8', 'x.js', 'a/b.css', 'nope', '']) {
    assert.is(shim.contentType(s), real.contentType(s), `contentType ${s}`);
    assert.is(shim.lookup(s), real.lookup(s), `lookup ${s}`);
    assert.is(shim.extension(s), real.extension(s), `extension ${s}`);
    assert.is(shim.charset(s), real.charset(s), `charset ${s}`);
  }
  assert.is(shim.types, real.types);
  assert.is(shim.extensions, real.extensions);
});

test('the lazy mime-types loads the real module on first use, not when required', () => {
  // A fresh process: this one has loaded mime-types already.
  const script = `
    const shim = require(${JSON.stringify(shimPath)});
    const loaded = () => Object.keys(require.cache).some((p) => p.endsWith('/mime-types/index.js'));
    const before = loaded();
    const type = shim.contentType('json');
    process.stdout.write(JSON.stringify({ before, after: loaded(), type }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { before: boolean; after: boolean; type: string };
  assert.equal(out, { before: false, after: true, type: 'application/json; charset=utf-8' });
});

test.run();
