// The server page's host configuration when it would run elsewhere than the console looks: the console finds
// no engine-proxy (Health: not found) and serves a data directory other than ~/.engine. The snippet and next
// steps stay exactly what engine init prints; beside the snippet, the page says what is off and what to do.
import { realpathSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { MetaSchema } from '../../shared/meta.ts';
import { HostConfigSchema } from '../../shared/servers.ts';
import { openUi, uiBuilt, type Ui } from './support.ts';

const notes = suite('e2e host setup notes');
let ui: Ui;

notes.before(async () => {
  if (!uiBuilt()) throw new Error('build the UI and the server first: npm run build');
  // A PATH without engine-proxy, and the console's own directory has none beside it.
  ui = await openUi({ env: { PATH: '/usr/bin:/bin' } });
});

notes.after(async () => {
  await ui?.stop();
});

notes('beside the snippet: the proxy it runs is not found, and the next steps name ~/.engine, with what to do', async () => {
  const meta = v.parse(MetaSchema, await (await ui.console.api('/api/meta')).json());
  assert.is(meta.proxy, null, 'this console finds no engine-proxy');
  const config = v.parse(HostConfigSchema, await (await ui.console.api('/api/servers/shop/config?host=claude-code')).json());
  assert.is(config.proxy_note, 'engine: engine-proxy is not on PATH; install it before the host starts the server (docs/install.md)');

  await ui.goto('/servers/shop');
  const { page } = ui;
  const snippet = page.getByTestId('host-snippet');
  await snippet.waitFor();
  assert.is((await snippet.textContent())?.trim(), config.snippet.trim(), 'the snippet is what engine init prints');
  assert.match(config.snippet, ' -- engine-proxy --record ');

  // Both notes show without opening the next steps.
  const proxy = page.getByTestId('proxy-note');
  await proxy.waitFor();
  const proxyText = (await proxy.textContent()) ?? '';
  assert.match(proxyText, 'Health says it is not found', proxyText);
  assert.match(proxyText, 'Install engine-proxy where the host finds it', proxyText);
  assert.match(proxyText, config.proxy_note ?? '', proxyText);
  const dataDir = page.getByTestId('data-dir-note');
  await dataDir.waitFor();
  const dataDirText = (await dataDir.textContent()) ?? '';
  assert.match(dataDirText, `This console serves ${realpathSync(ui.console.dataDir)}`, dataDirText);
  assert.match(dataDirText, 'in place of ~/.engine in each path', dataDirText);
  assert.is(await page.locator('details.next-steps[open]').count(), 0, 'the next steps stay folded');
  await ui.check('host-setup-notes');

  // Every host's snippet runs the same missing proxy: the note follows the tab.
  await page.getByRole('tab', { name: 'Cursor' }).click();
  await page.getByTestId('host-snippet').getByText('"command": "engine-proxy"').waitFor();
  await proxy.waitFor();
});

notes.run();
