// Properties of the registry's credential rule: a credential put into an otherwise harmless command, in any
// of the forms stored commands held, is found at its argument, and the refusal never holds it; harmless
// commands pass.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { validateInput } from '../../server/data/registry.ts';
import { credentialArgument } from '../../shared/credentials.ts';
import type { ServerInput } from '../../shared/servers.ts';
import { check } from './check.ts';

const props = suite('props: credentials');

const harmless = fc.array(
  fc.constantFrom(
    'npx', '-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes', '--port', '8080', '--verbose', 'stdio',
    '--read-only', 'https://example.com/mcp', 'uvx', 'mcp-server-git', '--repository', '.', 'retail', '-k', '--bypass',
    'me@example.com', 'Accept: application/json', 'LOG_LEVEL=debug', '--key-file', '/run/key',
  ),
  { maxLength: 6 },
);

/** A random credential value: letters and digits, with at least one of each. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{20,32}$/).filter((s) => /[A-Za-z]/.test(s) && /\d/.test(s));

/** The forms a credential took in stored commands: the words, and which one holds it. */
const forms: ((s: string) => [string[], number])[] = [
  (s) => [[`postgresql://admin:${s}@db/prod`], 0],
  (s) => [['-k', `sk-live-${s}`], 1],
  (s) => [['--header', `X-API-Key: ${s}`], 1],
  (s) => [['--pass', s], 1],
  (s) => [[`ghp_${s}`], 0],
  (s) => [[`DATABASE_URL=postgres://u:${s}@h/db`], 0],
  (s) => [[`--token=${s}`], 0],
];

const input = (command: string[]): ServerInput => ({ name: 'srv', upstream: { kind: 'stdio', command, env: [] }, mode: 'record' });
const paths = { dataDir: '/nonexistent/data', home: '/nonexistent' };

props('a credential in any stored form, among harmless words, is found at its word and never echoed', async () => {
  await check(
    fc.property(harmless, harmless, secret, fc.nat({ max: forms.length - 1 }), (before, after, s, form) => {
      const [words, at] = forms[form]!(s);
      const command = ['srv', ...before, ...words, ...after];
      assert.is(credentialArgument(command), 1 + before.length + at, command.join(' '));
      const message = validateInput(input(command), paths) ?? '';
      assert.match(message, 'looks like a credential');
      assert.not.match(message, s);
    }),
    300,
  );
});

props('harmless commands pass the credential rule', async () => {
  await check(
    fc.property(harmless, (words) => {
      assert.is(credentialArgument(['srv', ...words]), null, words.join(' '));
    }),
    300,
  );
});

props.run();
