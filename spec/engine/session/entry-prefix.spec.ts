// The summary's hand-made match of an entry line's start (engine/session/log.ts) against the regex that
// defines the writer's shape: the same lines match, with the same time, sender and place where the line goes on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { ENTRY_PREFIX, entryPrefixOf } from '../../../server/engine/session/log.ts';
import { check } from '../../props/check.ts';

const spec = suite('engine: entry line prefix');

function byRegex(line: string): { t: number; from: string; rest: number } | null {
  const m = ENTRY_PREFIX.exec(line);
  return m ? { t: Number(m[1]), from: m[2] as string, rest: m[0].length } : null;
}

spec('lines as the writer writes them, and near misses', () => {
  const lines = [
    '{"t_ms":0,"from":"client","message":{}}',
    '{"t_ms":2731,"from":"server","raw":"x"}',
    '{"t_ms":12,"from":"proxy",',
    '{"t_ms":7,"from":"context","message":{"role":"user","content":"hi"}}',
    '{"t_ms":9999999999999999999,"from":"client","message":1}',
    '{"t_ms":123456789012345678,"from":"server","message":1}',
    '{"t_ms":1234567890123456,"from":"server","message":1}',
    '{"t_ms":99999999999999999999,"from":"client","message":1}',
    '{"t_ms":01,"from":"client","message":1}',
    '{"t_ms":-1,"from":"client","message":1}',
    '{"t_ms":1.5,"from":"client","message":1}',
    '{"t_ms":1,"from":"clients","message":1}',
    '{"t_ms":1,"from":"client"}',
    '{"t_ms":1,"from":"client" ,"message":1}',
    '{"t_ms": 1,"from":"client","message":1}',
    '{"from":"client","t_ms":1,"message":1}',
    '{"t_ms":1,"from":"prox","message":1}',
    '{"t_ms":',
    '',
  ];
  for (const line of lines) assert.equal(entryPrefixOf(line), byRegex(line), line);
});

spec('any line built from the prefix\'s parts', async () => {
  const part = fc.constantFrom('{"t_ms":', ',"from":"', '"', ',', 'client', 'server', 'proxy', 'context', 'contexts', '0', '00', '1', '9', ' ', '-', '.', 'e5', '}');
  const digits = fc.stringMatching(/^[0-9]{1,22}$/);
  const line = fc.array(fc.oneof(part, digits), { maxLength: 10 }).map((parts) => parts.join(''));
  const shaped = fc
    .tuple(digits, fc.constantFrom('client', 'server', 'proxy', 'context', 'clien', 'proxyy'), fc.constantFrom('",', '"', ',', '",x'), fc.string({ maxLength: 5 }))
    .map(([t, from, close, tail]) => `{"t_ms":${t},"from":"${from}${close}${tail}`);
  await check(fc.property(fc.oneof(line, shaped), (l) => assert.equal(entryPrefixOf(l), byRegex(l), l)), 3000);
});

spec.run();
