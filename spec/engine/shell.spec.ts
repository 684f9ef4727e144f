import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { shellJoin, shellQuote } from '../../server/engine/shell.ts';

const shell = suite('shell');

shell('a plain word is written bare, a tilde included so the shell expands it', () => {
  for (const word of ['npx', '-y', '@modelcontextprotocol/server-filesystem', '~/x', 'a=b,c+d%e:f', '~']) {
    assert.is(shellQuote(word), word);
  }
});

shell('any other word is single-quoted, with each quote written as the CLI writes it', () => {
  assert.is(shellQuote(''), "''");
  assert.is(shellQuote('a b'), "'a b'");
  assert.is(shellQuote('$HOME'), "'$HOME'");
  assert.is(shellQuote("it's here"), "'it'\\''s here'");
  assert.is(shellQuote('é'), "'é'");
  assert.is(shellQuote('a\nb'), "'a\nb'");
});

shell('words are joined with single spaces', () => {
  assert.is(shellJoin(['claude', 'mcp', 'add', 'x y']), "claude mcp add 'x y'");
});

shell.run();
