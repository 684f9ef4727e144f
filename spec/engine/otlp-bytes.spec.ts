// The OTLP/JSON of every fixture session, byte for byte (as SHA-256 digests, with and without payloads): a
// faster export must send what the slower one sent, or a trace store would keep two copies of a session.
// A deliberate change to the mapping updates this table along with the README's description of it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { otlpJson } from '../../server/engine/otlp/encode.ts';
import { readableSpans } from '../../server/engine/otlp/readable.ts';
import { sessionTrace } from '../../server/engine/otlp/spans.ts';
import { fixtureHome } from '../support/fixtures.ts';

const bytes = suite('engine: the OTLP export, byte for byte');

const DIGESTS: Record<string, string> = {
  'logs/retail/20260928T020401.312Z-14780.jsonl': 'dd593a2f983ee20eab6348554604986c',
  'logs/shop/20260928T020400.548Z-14457.jsonl': 'e7d5b66884204c194f480f3c71d48309',
  'logs/shop/20260928T020400.587Z-14486.jsonl': '92cc1a71d92d208eaed681a1bc4ec6f8',
  'logs/shop/20260928T020400.618Z-14511.jsonl': 'b8c16491e24407d6367e09cf2195dfee',
  'logs/shop/20260928T020400.650Z-14540.jsonl': '5da1e62b1383c6a4f7e2cbe195479145',
  'logs/shop/20260928T020400.679Z-14565.jsonl': 'b68587f49ab3a23003ab107c484c9d61',
  'logs/shop/20260928T020400.710Z-14594.jsonl': 'c8ebeb3b1d6b9ec307929dee3e048b03',
  'served/shop/20260928T020401.117Z-14662.jsonl': '6c871733905b88ff582280899bc819d9',
  'served/shop/20260928T020401.195Z-14715.jsonl': 'a7dc1277479e112d5c116b55f18e09ac',
  'shadow/shop/20260928T020401.240Z-14750.jsonl': 'cc1a0904346473d378ab16aa6540f46d',
  'shadow/shop/20260928T020401.259Z-14759.jsonl': '2189fd04a44140baa5dbacb3c5ab4c9f',
  'shadow/shop/20260928T020401.278Z-14768.jsonl': '043bf52e2a7e87022d88dcb8db59bfd9',
  'logs/retail/20260928T020401.312Z-14780.jsonl payloads': '318b77664d1016a80b28fafd18bec919',
  'logs/shop/20260928T020400.548Z-14457.jsonl payloads': '4fcc5b821fe120d2762c36ab40a1fa12',
  'logs/shop/20260928T020400.587Z-14486.jsonl payloads': '63dd5889deb09ea8acda65196056e557',
  'logs/shop/20260928T020400.618Z-14511.jsonl payloads': 'edb21a1c7756ff6a45befa92d02e0204',
  'logs/shop/20260928T020400.650Z-14540.jsonl payloads': 'ad3f3dc3b51aa7546ce131fc2a8d8605',
  'logs/shop/20260928T020400.679Z-14565.jsonl payloads': '759a5871794e3d518b775413e94f03e8',
  'logs/shop/20260928T020400.710Z-14594.jsonl payloads': 'd737fc91ba12bd2870dfcd906766f087',
  'served/shop/20260928T020401.117Z-14662.jsonl payloads': 'e57579d8da7467a1f75bd45a23c03eb4',
  'served/shop/20260928T020401.195Z-14715.jsonl payloads': 'f0b56815200baefd061000f3165b6b4f',
  'shadow/shop/20260928T020401.240Z-14750.jsonl payloads': '784638384b097da0214f05734f61d755',
  'shadow/shop/20260928T020401.259Z-14759.jsonl payloads': '14cb039ff6fa19d2d48fe8ecc2a7f5c5',
  'shadow/shop/20260928T020401.278Z-14768.jsonl payloads': '1531ac5b73bc0fc62b4907cddf8399f2',
};

function sessionLogs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sessionLogs(p);
    return e.name.endsWith('.jsonl') && !e.name.endsWith('.flow.jsonl') && !e.name.endsWith('.confirm.jsonl') ? [p] : [];
  });
}

const digestOf = (path: string, payloads: boolean): string => {
  const flow = path.replace(/\.jsonl$/, '.flow.jsonl');
  const json = otlpJson(readableSpans(sessionTrace({ path, flowLog: existsSync(flow) ? flow : null }, { payloads, version: '9.9.9' })));
  return createHash('sha256').update(json).digest('hex').slice(0, 32);
};

bytes('every fixture session exports to the same bytes as before, with and without payloads', () => {
  const got: Record<string, string> = {};
  for (const payloads of [false, true]) {
    for (const path of sessionLogs(fixtureHome).sort()) {
      const name = `${relative(fixtureHome, path)}${payloads ? ' payloads' : ''}`;
      try {
        got[name] = digestOf(path, payloads);
      } catch {
        // not a session log: the mapping spec checks its error
      }
    }
  }
  assert.equal(got, DIGESTS);
});

bytes.run();
