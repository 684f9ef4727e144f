import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentialArgument, namesSecret } from '../../shared/credentials.ts';
import { checkHeaderName, checkUrl, checkVar, credentialArgumentMessage } from '../../server/engine/credentials.ts';
import { startsWith } from '../support/assert.ts';

const credentials = suite('credentials');

credentials('names that hold a secret are told from names that say where one lives', () => {
  for (const name of ['api_key', '--api-key', 'TOKEN', 'client_secret', 'PASSWORD', 'passwd', 'credentials', 'auth', 'X-Auth']) {
    assert.ok(namesSecret(name), name);
  }
  for (const name of ['--key-file', 'TOKEN_PATH', 'secret_dir', '--verbose', 'port', 'monkey_file']) {
    assert.not.ok(namesSecret(name), name);
  }
});

credentials('a dozen shapes of credential argument are found at their index', () => {
  const cases: [string[], number][] = [
    [['server', '--api-key', 'abc'], 2],
    [['server', '--api-key=abc'], 1],
    [['server', '--token', 'x'], 2],
    [['server', '--token=abc'], 1],
    [['env', 'GITHUB_TOKEN=ghp_x', 'server'], 1],
    [['FOO_SECRET=hunter2', 'server'], 0],
    [['server', '--header', 'Authorization: Bearer x'], 2],
    [['server', 'bearer abc'], 1],
    [['server', '--password', 'pw'], 2],
    [['server', '--client-secret', 's3'], 2],
    [['server', '-p', '1', '--auth', 'u:p'], 4],
    [['server', 'DB_PASSWD=pw'], 1],
    [['server', '--credential=c'], 1],
    [['server', 'authorization:basic'], 1],
  ];
  for (const [command, index] of cases) assert.is(credentialArgument(command), index, command.join(' '));
});

credentials('look-alikes pass: files, paths, empty values and flags followed by flags', () => {
  const allowed: string[][] = [
    ['server', '--api-key-file', '/run/key'],
    ['server', '--token', '--verbose'],
    ['server', '--token='],
    ['server', 'TOKEN_PATH=/run/token'],
    ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'],
    ['server', '--port', '8080'],
    ['server', '--secret-dir', '/etc/s'],
    ['engine-mcp-demo', '--world', 'retail'],
  ];
  for (const command of allowed) assert.is(credentialArgument(command), null, command.join(' '));
});

credentials('the refusal names the argument by its 1-based position and never its value', () => {
  const message = credentialArgumentMessage(2);
  startsWith(message, 'argument 3 of the command looks like a credential');
});

credentials('URLs with a user part or a secret-named parameter are refused', () => {
  assert.is(checkUrl('https://u:p@host/mcp'), 'the url holds a user or a password: send credentials in a header, from an environment variable');
  assert.is(checkUrl('https://user@host'), 'the url holds a user or a password: send credentials in a header, from an environment variable');
  assert.is(
    checkUrl('https://host/mcp?key=abc'),
    `the url's parameter "key" looks like a credential: send it in a header, from an environment variable`,
  );
  assert.match(checkUrl('https://host/mcp?a=1&access_token=abc#x') ?? '', '"access_token"');
  assert.match(checkUrl('http://host/mcp?API_KEY=abc') ?? '', '"API_KEY"');
});

credentials('URLs without credentials pass, look-alike parameters included', () => {
  for (const url of [
    'https://mcp.example.com/orders/mcp',
    'http://127.0.0.1:3001/mcp',
    'https://host/mcp?key_file=/x',
    'https://host/mcp?token',
    'https://host/mcp?page=2',
    'https://host/mcp#key=abc',
    'https://host/a@b',
  ]) {
    assert.is(checkUrl(url), null, url);
  }
});

credentials('a URL needs http or https, a host, and no whitespace', () => {
  assert.is(checkUrl('ftp://host'), 'url "ftp://host": expected http:// or https://');
  assert.is(checkUrl('HTTPS://host'), 'url "HTTPS://host": expected http:// or https://');
  assert.is(checkUrl('host/mcp'), 'url "host/mcp": expected http:// or https://');
  assert.is(checkUrl('https:///mcp'), 'url "https:///mcp" names no host');
  assert.is(checkUrl('https://host/a b'), 'the url is too long or holds whitespace');
  assert.is(checkUrl(`https://host/${'a'.repeat(2048)}`), 'the url is too long or holds whitespace');
});

credentials('variables and header names are checked by their rules', () => {
  assert.is(checkVar('ORDERS_AUTH'), null);
  assert.is(checkVar('_x1'), null);
  startsWith(checkVar('1ABC'), '"1ABC" is not an environment variable\'s name');
  assert.ok(checkVar('A-B'));
  assert.ok(checkVar(''));
  assert.ok(checkVar('A'.repeat(129)));
  assert.is(checkHeaderName('Authorization'), null);
  assert.is(checkHeaderName('X-Api_Key.1~'), null);
  assert.is(checkHeaderName('Bad Header'), 'header "Bad Header" is not a header name');
  assert.ok(checkHeaderName(''));
});

credentials.run();
