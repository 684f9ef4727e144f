// Every redirect the console sends stays on the console, whatever the raw path spells (a browser reads a
// Location of `//host/` or `/\host/` as another site), with or without a token.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { launch, type Launched } from '../support/launch.ts';

/** A GET with the path exactly as given (fetch would normalise it), answering status and Location. */
function rawGet(l: Launched, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: l.port, path }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on('error', reject);
    req.end();
  });
}

const redirects = suite('redirects');
let c: Launched;
let open: Launched;
redirects.before(async () => {
  [c, open] = await Promise.all([launch(), launch({ token: null })]);
});
redirects.after(async () => {
  await Promise.all([c.stop(), open.stop()]);
});

redirects('a sign-in link on a path that spells another host redirects to a path of this console', async () => {
  for (const l of [c, open]) {
    for (const path of ['//evil.example/?code=x', '/\\evil.example/?code=x', '///evil.example/x?token=test-token', '/\\/evil.example?token=nope', '//evil.example?token=test-token']) {
      const res = await rawGet(l, path);
      assert.is(res.status, 303, path);
      const location = res.location ?? '';
      assert.match(location, /^\/[^/\\]/, `${path} → ${location}`);
      assert.is(new URL(location, l.url).origin, l.url, `${path} → ${location}`);
      assert.match(location, /^\/evil\.example/, path);
    }
  }
});

redirects.run();
