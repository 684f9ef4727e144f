// Properties of the session-log reader (summary and detail, with the flow and confirmation logs): whatever
// the bytes, each answers a view its schema accepts or throws an Error that says `reading …` or `parsing …`
// (the 422 of the API); nothing else escapes. Inputs: a real log cut at every byte, real lines mutated
// (bytes flipped, inserted, dropped; BOM, CRLF, invalid UTF-8, deep nesting, huge numbers), random lines,
// and random companions. Also: cutting long strings never breaks a line's JSON.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionDetailSchema, SessionSummarySchema } from '../../shared/sessions.ts';
import { type SessionFiles, publicSummary, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { escapesLoneSurrogate } from '../../server/engine/session/json.ts';
import { lineText } from '../../server/engine/session/shrink.ts';
import { fixtureHome, tempDir } from '../support/fixtures.ts';
import { check, messageOf } from './check.ts';

const props = suite('props: session logs');
const t = tempDir('engine-props-');
props.after(() => t.cleanup());

const served = join(fixtureHome, 'served/shop/20260928T020401.117Z-14662');
const realLog = readFileSync(`${served}.jsonl`);
const realFlowLog = readFileSync(`${served}.flow.jsonl`);
const realLines = realLog.toString('utf8').split('\n').filter(Boolean);

let n = 0;
/** Writes the log (and companions) under a fresh name and returns its files. */
function files(log: Buffer | string, flow?: Buffer | string, confirm?: Buffer | string): SessionFiles {
  const stem = join(t.dir, `s${n++}`);
  writeFileSync(`${stem}.jsonl`, log);
  if (flow !== undefined) writeFileSync(`${stem}.flow.jsonl`, flow);
  if (confirm !== undefined) writeFileSync(`${stem}.confirm.jsonl`, confirm);
  return {
    key: 'k',
    rel: 'k.jsonl',
    path: `${stem}.jsonl`,
    flowLog: flow === undefined ? null : `${stem}.flow.jsonl`,
    confirmLog: confirm === undefined ? null : `${stem}.confirm.jsonl`,
  };
}

function forget(f: SessionFiles): void {
  for (const p of [f.path, f.flowLog, f.confirmLog]) if (p) rmSync(p, { force: true });
}

/** The property itself: a valid view or a typed failure from both entry points. */
function readsOrRefuses(f: SessionFiles): void {
  try {
    for (const read of ['summary', 'detail'] as const) {
      try {
        if (read === 'summary') v.parse(SessionSummarySchema, publicSummary(sessionSummary(f)));
        else v.parse(SessionDetailSchema, sessionDetail(f));
      } catch (e) {
        if (e instanceof v.ValiError) throw new Error(`the ${read} does not match its schema: ${e.message}`);
        const m = messageOf(e);
        if (!/^(reading|parsing) /.test(m)) throw new Error(`the ${read} threw an untyped error: ${m}`);
      }
    }
  } finally {
    forget(f);
  }
}

props('a real log cut at every byte reads or is refused', () => {
  for (let i = 0; i <= realLog.length; i++) readsOrRefuses(files(realLog.subarray(0, i), realFlowLog));
});

props('the flow log cut at every byte never fails the session', () => {
  for (let i = 0; i <= realFlowLog.length; i++) {
    const f = files(realLog, realFlowLog.subarray(0, i));
    try {
      v.parse(SessionDetailSchema, sessionDetail(f));
      v.parse(SessionSummarySchema, publicSummary(sessionSummary(f)));
    } finally {
      forget(f);
    }
  }
});

/** Hostile pieces a mutation may put into a line. */
const hostilePiece = fc.oneof(
  fc.constant('\uFEFF'),
  fc.constant('\r'),
  fc.constant('\r\n'),
  fc.constant('\n'),
  fc.constant('1e400'),
  fc.constant('-0.0000000000000000000000001e-400'),
  fc.constant('9'.repeat(400)),
  fc.constant('"\\ud83d"'),
  fc.constant('\\u0000'),
  fc.nat({ max: 30_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.nat({ max: 30_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.json({ maxDepth: 3 }),
);

const bytePiece = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => Buffer.from(b)),
  // Invalid UTF-8: a lone continuation byte, a cut sequence, an overlong form, a surrogate's encoding.
  fc.constantFrom(Buffer.from([0x80]), Buffer.from([0xc3]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff])),
);

type Mutation =
  | { kind: 'insert'; line: number; at: number; piece: string }
  | { kind: 'bytes'; line: number; at: number; bytes: Buffer }
  | { kind: 'drop'; line: number; at: number; len: number }
  | { kind: 'replace'; line: number; piece: string }
  | { kind: 'duplicate'; line: number }
  | { kind: 'remove'; line: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), line: fc.nat(), at: fc.nat(), piece: hostilePiece }),
  fc.record({ kind: fc.constant('bytes' as const), line: fc.nat(), at: fc.nat(), bytes: bytePiece }),
  fc.record({ kind: fc.constant('drop' as const), line: fc.nat(), at: fc.nat(), len: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('replace' as const), line: fc.nat(), piece: hostilePiece }),
  fc.record({ kind: fc.constant('duplicate' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), line: fc.nat() }),
);

function mutate(lines: Buffer[], m: Mutation): Buffer[] {
  if (lines.length === 0) return lines;
  const i = m.line % lines.length;
  const line = lines[i]!;
  const out = [...lines];
  const at = 'at' in m ? m.at % (line.length + 1) : 0;
  switch (m.kind) {
    case 'insert':
      out[i] = Buffer.concat([line.subarray(0, at), Buffer.from(m.piece), line.subarray(at)]);
      break;
    case 'bytes':
      out[i] = Buffer.concat([line.subarray(0, at), m.bytes, line.subarray(at)]);
      break;
    case 'drop':
      out[i] = Buffer.concat([line.subarray(0, at), line.subarray(at + m.len)]);
      break;
    case 'replace':
      out[i] = Buffer.from(m.piece);
      break;
    case 'duplicate':
      out.splice(i, 0, line);
      break;
    case 'remove':
      out.splice(i, 1);
      break;
  }
  return out;
}

props('real lines mutated read or are refused', async () => {
  const base = realLines.map((l) => Buffer.from(l));
  await check(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean(), (ms, crlf, finalNewline) => {
      const lines = ms.reduce(mutate, base);
      const sep = Buffer.from(crlf ? '\r\n' : '\n');
      const body = Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l] : [sep, l])));
      readsOrRefuses(files(finalNewline ? Buffer.concat([body, sep]) : body, realFlowLog));
    }),
    200,
  );
});

const from = fc.constantFrom('client', 'server', 'proxy', 'context', 'agent', '');
const entry = fc.record(
  {
    t_ms: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.string()),
    from,
    message: fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.nat(), fc.string(), fc.constant(null)),
        method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'notifications/cancelled', 'x'),
        params: fc.record({ name: fc.string(), arguments: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }),
      }, { requiredKeys: [] }),
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.nat(), fc.string()),
        result: fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })), isError: fc.boolean(), tools: fc.array(fc.record({ name: fc.string() })) }, { requiredKeys: [] }),
        error: fc.jsonValue({ maxDepth: 2 }),
      }, { requiredKeys: ['id'] }),
    ),
    raw: fc.oneof(fc.string(), fc.constant(null), fc.nat()),
  },
  { requiredKeys: ['t_ms', 'from'] },
);

props('random entries after a real header read or are refused', async () => {
  await check(
    fc.property(fc.array(entry, { maxLength: 12 }), fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }), (entries, confirms) => {
      const text = [realLines[0]!, ...entries.map((e) => JSON.stringify(e))].join('\n') + '\n';
      readsOrRefuses(files(text, realFlowLog, confirms.map((c) => JSON.stringify(c)).join('\n')));
    }),
    200,
  );
});

props('random flow logs never fail a session', async () => {
  const decision = fc.record(
    {
      action: fc.constantFrom('lookup', 'hand_back', 'x'),
      after: fc.jsonValue({ maxDepth: 1 }),
      shadow: fc.oneof(fc.boolean(), fc.nat()),
      ms: fc.oneof(fc.double(), fc.integer(), fc.string()),
      probs: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.double(), fc.string())), fc.jsonValue({ maxDepth: 1 })),
      reason: fc.oneof(fc.string(), fc.nat()),
      run: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ sites: fc.array(fc.jsonValue({ maxDepth: 2 })), max_lookups: fc.double() })),
    },
    { requiredKeys: [] },
  );
  await check(
    fc.property(fc.array(fc.oneof(decision.map((d) => JSON.stringify(d)), fc.string({ unit: 'binary' })), { maxLength: 10 }), (lines) => {
      const f = files(realLog, lines.join('\n'));
      try {
        v.parse(SessionDetailSchema, sessionDetail(f));
        v.parse(SessionSummarySchema, publicSummary(sessionSummary(f)));
      } finally {
        forget(f);
      }
    }),
    150,
  );
});

props('cutting a long line\'s strings never breaks its JSON, and keeps what is not cut', async () => {
  await check(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 24 }), (value, keep) => {
      const line = JSON.stringify(value);
      const { text, cut } = lineText(Buffer.from(line), 0, keep, Infinity);
      const back = JSON.parse(text) as unknown;
      // A lone surrogate escaped in the text must have been escaped in the line already.
      if (!escapesLoneSurrogate(line)) assert.is(escapesLoneSurrogate(text), false, text);
      if (cut === 0) assert.equal(back, value);
    }),
    1000,
  );
});

props.run();
