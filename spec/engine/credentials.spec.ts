import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentialArgument, findCredential, namesSecret } from '../../shared/credentials.ts';
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
  const message = credentialArgumentMessage({ index: 2, kind: 'secret-option' });
  startsWith(message, 'argument 3 of the command looks like a credential (the value of an option named like a secret): ');
  assert.match(message, 'wrapper script');
});

credentials('the common forms a stored command held are found, each with its reason', () => {
  const cases: [string[], number, string][] = [
    [['psql-mcp', 'postgresql://admin:hunter2@db/prod'], 1, 'url-user-part'],
    [['srv', '--dsn', 'mysql://root@db:3306/x'], 2, 'url-user-part'],
    [['env', 'DATABASE_URL=postgres://u:pw@h/db', 'srv'], 1, 'url-user-part'],
    [['srv', '-k', 'sk-live-4f9a2b7c8d1e3f5a'], 2, 'key-option'],
    [['srv', '-k', 'Zq8rT2xV9mN4bL6pK1sW3yH7'], 2, 'key-option'],
    [['srv', '--header', 'X-API-Key: sk-live-4f9a2b7c8d1e3f5a'], 2, 'key-shape'],
    [['srv', '--header', 'X-API-Key: abc123'], 2, 'secret-header'],
    [['srv', '--header=X-Auth-Token: abc123'], 1, 'secret-header'],
    [['srv', '--pass', 'hunter2'], 2, 'secret-option'],
    [['srv', '--db-pw', 'hunter2'], 2, 'secret-option'],
    [['gh-mcp', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'], 1, 'key-shape'],
    [['gh-mcp', 'github_pat_11ABCDEFG0123456789_abcdefghijkl'], 1, 'key-shape'],
    [['slack-mcp', 'xoxb-123456789012-abcdefghij'], 1, 'key-shape'],
    [['aws-mcp', 'AKIAIOSFODNN7EXAMPLE'], 1, 'key-shape'],
  ];
  for (const [command, index, kind] of cases) assert.equal(findCredential(command), { index, kind }, command.join(' '));
});

credentials('look-alikes of the new forms pass: a URL without a user, --bypass, sk- words, -k with a number', () => {
  const allowed: string[][] = [
    ['srv', 'https://github.com/org/repo.git'],
    ['srv', 'https://host/a@b'],
    ['srv', '--bypass', 'cache'],
    ['srv', '--passthrough', 'x'],
    ['pip', 'install', 'sk-learn-helpers'],
    ['curl', '-k', '5'],
    ['srv', '-k', '--verbose'],
    ['srv', '--header', 'Accept: application/json'],
    ['srv', 'me@example.com'],
  ];
  for (const command of allowed) assert.is(credentialArgument(command), null, command.join(' '));
});

credentials('a refusal that quotes a URL or a name masks the credential in it', () => {
  assert.is(checkUrl('postgresql://admin:hunter2@db/prod'), 'url "postgresql://••••@db/prod": expected http:// or https://');
  assert.is(checkUrl('ftp://host/x?token=hunter2&page=2'), 'url "ftp://host/x?token=••••&page=2": expected http:// or https://');
  const variable = checkVar('DATABASE_URL=postgres://u:hunter2@h/db') ?? '';
  startsWith(variable, '"DATABASE_URL=…" is not an environment variable\'s name');
  assert.is(checkHeaderName('Bearer hunter2'), 'header "Bearer …" is not a header name');
  assert.is(checkHeaderName('X-Key: hunter2'), 'header "X-Key:…" is not a header name');
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
