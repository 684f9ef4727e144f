// The sign-in screen in a real browser: a link with a wrong token and a sign-in ended by a restart both show
// the styled sign-in with the reason and the form; signing in to a second console on the same host leaves
// the browser signed in to the first.
import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { openUi, type Ui } from './support.ts';

/** A port that was free a moment ago, so a console can be started on it twice. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const signIn = suite<{ ui: Ui; home: { dir: string; cleanup(): void }; port: number; second: Launched | null }>('e2e sign-in');

signIn.before(async (ctx) => {
  ctx.home = copyHome();
  ctx.port = await freePort();
  ctx.second = null;
  ctx.ui = await openUi({ dataDir: ctx.home.dir, token: 'first-token', args: ['--listen', `127.0.0.1:${ctx.port}`] });
});
signIn.after(async (ctx) => {
  await ctx.ui?.stop();
  await ctx.second?.stop();
  ctx.home?.cleanup();
});

signIn('a link with a wrong token shows the sign-in form with the reason', async ({ ui }) => {
  // A browser that is not signed in yet.
  const fresh = await ui.browser.newContext();
  const page = await fresh.newPage();
  await page.goto(`${ui.console.url}/sessions?token=not-this-one`);
  await page.getByTestId('sign-in').waitFor();
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  assert.match(await page.getByTestId('sign-in-reason').innerText(), /token is not this console's/);
  assert.ok(await page.getByRole('textbox', { name: 'Token' }).isVisible());
  assert.not.match(page.url(), /sign_in=|token=/);
  await fresh.close();
});

signIn('signing in to a second console on the same host keeps the first one signed in', async ({ ui }) => {
  const other = await launch({ token: 'other-token' });
  try {
    const page = await ui.context.newPage();
    await page.goto(`${other.url}/?token=other-token`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.goto(`${ui.console.url}/jobs`);
    await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
    assert.is(await page.getByTestId('sign-in').count(), 0);
    await page.close();
  } finally {
    await other.stop();
  }
});

signIn('after a restart with a new token, the page shows the sign-in form and says the restart ended the sign-in', async (ctx) => {
  const { ui } = ctx;
  await ui.goto('/');
  await ui.page.getByRole('heading', { name: 'Overview' }).waitFor();
  await ui.console.stop();
  ctx.second = await launch({ dataDir: ctx.home.dir, token: 'second-token', args: ['--listen', `127.0.0.1:${ctx.port}`] });
  await ui.page.reload();
  await ui.page.getByTestId('sign-in').waitFor();
  assert.match(await ui.page.getByTestId('sign-in-reason').innerText(), /restart of the console ends every sign-in/);
  ui.allowErrors(/401/);
  await ui.check('sign-in-after-restart');
  // The form signs in to the restarted console.
  await ui.page.getByRole('textbox', { name: 'Token' }).fill('second-token');
  await ui.page.getByRole('button', { name: 'Sign in' }).click();
  await ui.page.getByRole('heading', { name: 'Overview' }).waitFor();
  ui.allowErrors(/401/);
  ui.assertNoErrors();
});

signIn.run();
