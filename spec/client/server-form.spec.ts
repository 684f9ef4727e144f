// The server form's logic: shell words, the registry's checks as the form shows them, the command-line
// preview and the request body.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  commandText, credentialAdvice, defaultRecordDir, flowDomainWarning, maskCredential, emptyForm, flowChoices, fromDiscovered, fromEntry, hasErrors, previewText,
  shownPath, shellQuote, shownDataDir, splitShell, toInput, upstreamText, urlError, validateForm,
  type FormState,
} from '../../client/src/lib/server-form.ts';
import { credentialArgument, namesSecret } from '../../shared/credentials.ts';
import { startsWith } from '../support/assert.ts';

const serverForm = suite('server-form');

const form = (patch: Partial<FormState>): FormState => ({ ...emptyForm(), ...patch });

serverForm('shell splitting honours quotes and backslashes', () => {
  assert.equal(splitShell(`engine-mcp-demo --world retail`), { ok: true, words: ['engine-mcp-demo', '--world', 'retail'] });
  assert.equal(splitShell(`node '/srv/My Orders/index.js' "a \\"b\\" \\x" c\\ d`), {
    ok: true, words: ['node', '/srv/My Orders/index.js', 'a "b" \\x', 'c d'],
  });
  assert.equal(splitShell(`''`), { ok: true, words: [''] });
  assert.equal(splitShell(`a 'b`), { ok: false, error: 'A single quote is not closed.' });
  assert.equal(splitShell(`a "b`), { ok: false, error: 'A double quote is not closed.' });
});

serverForm('shell quoting leaves safe words and placeholders bare', () => {
  assert.is(shellQuote('/srv/My Orders'), `'/srv/My Orders'`);
  assert.is(shellQuote('<command>'), '<command>');
  assert.is(shellQuote('--flow=~/.engine/x.json'), '--flow=~/.engine/x.json');
  assert.is(shellQuote(`it's`), `'it'\\''s'`);
  assert.is(shellQuote(''), `''`);
  assert.is(commandText(['npx', '-y', '@scope/server', 'a b']), `npx -y @scope/server 'a b'`);
});

serverForm('quoting then splitting gives the words back', () => {
  const words = ['a b', `it's`, '$HOME', 'x"y', '\\'];
  const back = splitShell(commandText(words));
  assert.equal(back, { ok: true, words });
});

serverForm('credential arguments are found as the registry finds them', () => {
  assert.is(credentialArgument(['server', '--api-key', 'abc']), 2);
  assert.is(credentialArgument(['server', '--token=abc']), 1);
  assert.is(credentialArgument(['env', 'GITHUB_TOKEN=ghp_x', 'server']), 1);
  assert.is(credentialArgument(['server', '--header', 'Authorization: Bearer x']), 2);
  assert.is(credentialArgument(['server', '--api-key-file', '/run/key']), null);
  assert.is(credentialArgument(['server', '--token', '--verbose']), null);
  assert.is(credentialArgument(['server', '--token=']), null);
  assert.ok(namesSecret('api_key'));
  assert.not.ok(namesSecret('TOKEN_PATH'));
});

serverForm('an empty form names the name and the command', () => {
  const errors = validateForm(emptyForm(), [], true);
  assert.is(errors.name, 'Give the server a name.');
  assert.is(errors.command, 'Give the command that starts the server.');
  assert.ok(hasErrors(errors));
});

serverForm('names follow the registry rule, and a taken name is refused only when adding', () => {
  const name = (n: string, isNew = true) => validateForm(form({ name: n, command: 'x' }), ['shop'], isNew).name;
  assert.is(name('Shop'), 'Use lowercase letters, digits, - and _.');
  assert.is(name('-x'), 'Start with a letter or a digit.');
  assert.is(name('_x'), 'Start with a letter or a digit.');
  assert.is(name('x'.repeat(65)), 'Keep the name to 64 characters.');
  assert.is(name('shop'), 'A server named shop exists.');
  assert.is(name('shop', false), undefined);
  assert.is(name('orders_2'), undefined);
});

serverForm('commands, variables, URLs and headers are checked', () => {
  assert.match(validateForm(form({ name: 'a', command: 'srv --api-key abc' }), [], true).command ?? '', /^Word 3 of the command looks like a credential/);
  assert.is(validateForm(form({ name: 'a', command: 'srv', env: ['1X'] }), [], true).env, '1X is not a variable name: letters, digits and _, not starting with a digit.');
  assert.is(urlError(''), 'Give the server’s URL.');
  assert.is(urlError('not a url'), 'That is not a URL.');
  assert.is(urlError('ftp://x.example'), 'Use an http:// or https:// URL.');
  assert.is(urlError('https://u:p@x.example/mcp'), 'Leave credentials out of the URL: send them in a header from a variable.');
  assert.match(urlError('https://x.example/mcp?api_key=1') ?? '', /parameter api_key looks like a credential/);
  assert.is(urlError('https://x.example/mcp?key_file=/a'), null);
  assert.is(urlError('https://desk.example.com/mcp'), null);
  const http = validateForm(form({ name: 'a', kind: 'http', url: 'https://x.example', headers: [{ name: 'Bad Name', env: 'X' }, { name: '', env: '' }] }), [], true);
  assert.is(http.headers, 'Bad Name is not a header name.');
  assert.equal(http.headerRows, ['Bad Name is not a header name.', null]);
});

serverForm('shadow and serve need a flow; the threshold is a probability', () => {
  assert.is(validateForm(form({ name: 'a', command: 'x', mode: 'shadow' }), [], true).flow, 'Shadow mode runs a flow: choose one.');
  assert.is(validateForm(form({ name: 'a', command: 'x', mode: 'serve' }), [], true).flow, 'Serving runs a flow: choose one.');
  assert.is(validateForm(form({ name: 'a', command: 'x', mode: 'serve', flow: 'f', threshold: '2' }), [], true).threshold, 'A threshold is between 0 and 1.');
  assert.is(validateForm(form({ name: 'a', command: 'x', mode: 'record', threshold: '2' }), [], true).threshold, undefined);
  assert.not.ok(hasErrors(validateForm(form({ name: 'a', command: 'x', mode: 'serve', flow: 'f', threshold: '0.5' }), [], true)));
});

serverForm('the preview is the proxy command line, with placeholders for what is missing', () => {
  assert.is(previewText(form({ name: 'demo', command: 'engine-mcp-demo --world retail' }), '~/.engine'),
    'engine-proxy --record ~/.engine/logs/demo --domain demo -- engine-mcp-demo --world retail');
  assert.is(previewText(emptyForm(), '~/.engine'), 'engine-proxy --record ~/.engine/logs/<name> --domain <name> -- <command>');
  assert.is(
    previewText(form({ name: 'shop', mode: 'shadow', flow: 'shop.flow.json', decider: 'reach', threshold: '0.5', kind: 'http', url: '', headers: [{ name: 'Authorization', env: 'SHOP_AUTH' }] }), '~/.engine'),
    'engine-proxy --record ~/.engine/shadow/shop --domain shop --flow ~/.engine/shop.flow.json --flow-decider reach --flow-threshold 0.5 --flow-shadow --upstream <url> --upstream-header Authorization=SHOP_AUTH',
  );
  assert.is(previewText(form({ name: 'x', recordDir: '/data/My Logs', command: 'srv' }), '/data'), `engine-proxy --record '/data/My Logs' --domain x -- srv`);
});

serverForm('the request body is trimmed, drops empty header rows, and nulls flow fields in record mode', () => {
  assert.equal(
    toInput(form({ name: ' demo ', description: '  ', command: `srv 'a b'`, env: ['KEY'], mode: 'record', flow: 'x', threshold: '0.5', decider: 'habit' })),
    { name: 'demo', description: null, upstream: { kind: 'stdio', command: ['srv', 'a b'], env: ['KEY'] }, mode: 'record', flow: null, record_dir: null, decider: null, threshold: null },
  );
  assert.equal(
    toInput(form({ name: 'h', kind: 'http', url: ' https://x.example/mcp ', headers: [{ name: 'A', env: 'B' }, { name: ' ', env: '' }], mode: 'serve', flow: 'f.flow.json', threshold: '' })).upstream,
    { kind: 'http', url: 'https://x.example/mcp', headers: [{ name: 'A', env: 'B' }] },
  );
});

serverForm('an entry fills the form back, its command quoted into one line', () => {
  const f = fromEntry({ name: 'a', description: null, upstream: { kind: 'stdio', command: ['node', '/srv/My Orders/x.js'], env: [] }, mode: 'serve', flow: 'a.flow.json', record_dir: null, decider: null, threshold: 0.4 });
  assert.is(f.command, `node '/srv/My Orders/x.js'`);
  assert.is(f.threshold, '0.4');
  assert.equal(toInput(f).upstream, { kind: 'stdio', command: ['node', '/srv/My Orders/x.js'], env: [] });
});

serverForm('a discovered upstream prefills the command or the URL', () => {
  assert.is(fromDiscovered('retail', { kind: 'stdio', command: ['engine-mcp-demo', '--world', 'retail'] }).command, 'engine-mcp-demo --world retail');
  const http = fromDiscovered('tickets', { kind: 'http', url: 'https://desk.example.com/mcp' });
  assert.is(http.kind, 'http');
  assert.is(http.url, 'https://desk.example.com/mcp');
  assert.is(upstreamText({ kind: 'unknown' }), 'unknown');
});

serverForm("flow choices are the server's own domain's flows that load; another domain's is warned about", () => {
  const flows = [
    { key: 'retail', path: 'retail.flow.json', domain: 'retail', error: null },
    { key: 'broken', path: 'broken.flow.json', domain: '', error: 'no' },
    { key: 'shop', path: 'flows/shop.flow.json', domain: 'shop', error: null },
  ];
  assert.equal(flowChoices(flows, 'shop'), [{ value: 'flows/shop.flow.json', label: 'shop' }]);
  assert.equal(flowChoices(flows, ''), []);
  const dirs = ['~/.engine', '/home/u/.engine'];
  assert.is(flowDomainWarning(flows, 'flows/shop.flow.json', 'shop', dirs), null);
  assert.is(flowDomainWarning(flows, 'nowhere.flow.json', 'shop', dirs), null);
  for (const path of ['retail.flow.json', './retail.flow.json', '~/.engine/retail.flow.json', '/home/u/.engine/retail.flow.json']) {
    startsWith(flowDomainWarning(flows, path, 'shop', dirs), 'retail is a flow of domain retail, not shop: ', path);
  }
});

serverForm('a credential in the command: masked in the preview, and advice the registry accepts', () => {
  assert.equal(maskCredential(['srv', '--api-key', 'sk-1']), ['srv', '--api-key', '<credential hidden>']);
  assert.equal(maskCredential(['srv', '--token=sk-1']), ['srv', '--token=<credential hidden>']);
  assert.equal(maskCredential(['srv', '--header', 'Authorization: Bearer sk-1']), ['srv', '--header', '<credential hidden>']);
  const form = { ...emptyForm(), name: 'acme', command: 'acme-mcp --api-key sk-live-1' };
  const preview = previewText(form, '~/.engine');
  assert.is(preview, "engine-proxy --record ~/.engine/logs/acme --domain acme -- acme-mcp --api-key '<credential hidden>'".replace("'<credential hidden>'", '<credential hidden>'));
  const flag = credentialAdvice(['acme-mcp', '--api-key', 'sk-live-1'], '/data/')!;
  assert.is(flag.word, 3);
  assert.is(flag.variable, 'ACME_MCP_API_KEY');
  assert.is(flag.scriptPath, '/data/bin/acme-mcp.sh');
  assert.is(flag.script, '#!/bin/sh\n# Starts acme-mcp with ACME_MCP_API_KEY from the environment the host gives it.\nexec acme-mcp --api-key "$ACME_MCP_API_KEY"\n');
  assert.equal(flag.oneLine, ['sh', '-c', 'exec acme-mcp --api-key "$ACME_MCP_API_KEY"']);
  assert.is(credentialArgument(flag.oneLine!), null);
  assert.is(flag.withoutWord, null);
  // `--token=x` as one word: the one-line form would hold `--token=` and is refused, so only the script is offered.
  const eq = credentialAdvice(['srv', '--token=abc'], '/data')!;
  assert.is(eq.script.split('\n')[2], 'exec srv --token="$SRV_TOKEN"');
  assert.is(eq.oneLine, null);
  // A variable set on the command line: the server reads it itself, so list it and drop the word.
  const env = credentialAdvice(['env', 'GITHUB_TOKEN=ghp_x', 'gh-mcp'], '/data')!;
  assert.is(env.variable, 'GITHUB_TOKEN');
  assert.equal(env.withoutWord, ['env', 'gh-mcp']);
  const auth = credentialAdvice(['srv', '--header', 'Authorization: Bearer x'], '/data')!;
  assert.is(auth.script.split('\n')[2], 'exec srv --header "Authorization: Bearer $SRV_AUTH"');
  assert.is(auth.oneLine, null);
  assert.is(credentialAdvice(['srv', '--key-file', '/k'], '/data'), null);
  const named = credentialAdvice(['srv', '--header', 'X-API-Key: sk-live-4f9a2b7c8d1e3f5a'], '/data')!;
  assert.is(named.script.split('\n')[2], 'exec srv --header "X-API-Key: $SRV_X_API_KEY"');
  assert.not.match(named.script, 'sk-live');
});

serverForm('the data directory is shown as ~/.engine in its usual place, paths inside it likewise', () => {
  assert.is(shownDataDir('/home/u/.engine'), '~/.engine');
  assert.is(shownDataDir('/tmp/x/'), '/tmp/x');
  assert.is(shownPath('shop.flow.json', '~/.engine'), '~/.engine/shop.flow.json');
  assert.is(shownPath('/abs/x.flow.json', '~/.engine'), '/abs/x.flow.json');
  assert.is(shownPath('~/.engine/x', '/d'), '~/.engine/x');
  assert.is(defaultRecordDir('~/.engine', 'a', 'shadow'), '~/.engine/shadow/a');
});

serverForm("the proxy's policy: checked as the registry checks it, previewed in the proxy's order, sent whole when editing", () => {
  const retail = form({
    name: 'retail', command: 'srv', mode: 'shadow', flow: 'retail.flow.json', surprise: 'threshold', surpriseNats: '2.5',
    flowTools: 'get_order, get_user', guards: true, judge: 'log', judgeContext: 'ctx.jsonl', commit: true, retainDays: '30',
    listenAddr: '0.0.0.0:8931', listenTokenFile: '~/.engine/proxy-token',
  });
  assert.equal(validateForm(retail, [], true), {});
  assert.is(
    previewText(retail, '~/.engine'),
    'engine-proxy --record ~/.engine/shadow/retail --domain retail --flow ~/.engine/retail.flow.json --flow-surprise 2.5 --flow-tools get_order,get_user --flow-shadow --retain-days 30 --guards --confirm-judge log --context ctx.jsonl --commit --listen 0.0.0.0:8931 --listen-token-file ~/.engine/proxy-token -- srv',
  );
  const body = toInput(retail);
  assert.equal(
    [body.surprise, body.flow_tools, body.guards, body.judge, body.commit, body.retain_days, body.listen],
    [{ kind: 'threshold', nats: 2.5 }, ['get_order', 'get_user'], true, { mode: 'log', context: 'ctx.jsonl' }, true, 30, { addr: '0.0.0.0:8931', token_file: '~/.engine/proxy-token' }],
  );
  assert.equal(fromEntry(body), { ...retail, flowTools: 'get_order, get_user' });
  const off = toInput(form({ name: 'retail', command: 'srv' }), true);
  assert.equal([off.surprise, off.flow_tools, off.guards, off.judge, off.commit, off.retain_days, off.listen], [null, [], false, null, false, null, null]);
  const errors = validateForm(
    form({ name: 'shop', command: 'srv', mode: 'serve', flow: 'f', surprise: 'threshold', surpriseNats: '0', guards: true, judge: 'log', retainDays: '0', listenAddr: 'nowhere' }),
    [],
    true,
  );
  assert.is(errors.surprise, 'A surprise threshold is a number of nats above 0.');
  assert.is(errors.guards, 'There are no policy guards for shop: retail and airline have them.');
  assert.is(errors.judge, 'Give the file the host appends the conversation to.');
  assert.is(errors.retainDays, 'Keep sessions a whole number of days, at least one.');
  assert.is(errors.listen, 'Give a host and a port, such as 127.0.0.1:8931.');
  assert.is(validateForm(form({ name: 'retail', command: 'srv', judge: 'log', judgeContext: 'c' }), [], true).judge, 'The judge asks about the writes the guards check: turn the guards on.');
});

serverForm.run();
