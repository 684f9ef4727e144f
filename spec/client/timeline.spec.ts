import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildTimeline, decisionValue, type TCall } from '../../client/src/lib/timeline.ts';

const timeline = suite('timeline');

const call = (id: string, by: 'agent' | 'flow', t: number, extra: Partial<TCall> = {}): TCall => ({ id, by, t_ms: t, result_t_ms: t + 1, after: null, decision: null, ...extra });

timeline('turns hold their calls, each with the decisions after it and their lookups', () => {
  const entries = buildTimeline({
    calls: [call('1', 'agent', 10), call('f1', 'flow', 12, { after: '1', decision: 0 }), call('f2', 'flow', 13, { after: '1' }), call('2', 'agent', 20)],
    decisions: [
      { after: '1', prob: 0.9, binding: 0.5 },
      { after: '1', prob: 0.1, binding: null },
    ],
    runs: [{ after: '1' }],
    turns: [{ index: 0, start_ms: 10, end_ms: 20, calls: ['1', '2'] }],
    context: [],
  });
  assert.is(entries.length, 1);
  const turn = entries[0]!;
  assert.is(turn.type, 'turn');
  if (turn.type !== 'turn') return;
  assert.equal(turn.calls.map((c) => c.call.id), ['1', '2']);
  const first = turn.calls[0]!;
  assert.equal(first.decisions.map((d) => [d.index, d.lookup?.id ?? null]), [
    [0, 'f1'],
    [1, null],
  ]);
  assert.equal(first.extraLookups.map((c) => c.id), ['f2']);
  assert.ok(first.run);
  assert.is(turn.calls[1]!.run, null);
});

timeline('an agent call no turn holds gets a turn of its own, numbered after the last', () => {
  const entries = buildTimeline({
    calls: [call('1', 'agent', 10), call('9', 'agent', 50, { result_t_ms: null })],
    decisions: [],
    runs: [],
    turns: [{ index: 0, start_ms: 10, end_ms: 11, calls: ['1'] }],
    context: [],
  });
  const last = entries[1]!;
  assert.is(last.type, 'turn');
  if (last.type !== 'turn') return;
  assert.equal(last.turn, { index: 1, start_ms: 50, end_ms: 50, calls: ['9'] });
});

timeline('messages interleave by time, before a turn at the same time', () => {
  const entries = buildTimeline({
    calls: [call('1', 'agent', 10)],
    decisions: [],
    runs: [],
    turns: [{ index: 0, start_ms: 10, end_ms: 11, calls: ['1'] }],
    context: [
      { t_ms: 30, role: 'assistant' },
      { t_ms: 10, role: 'user' },
    ],
  });
  assert.equal(
    entries.map((e) => [e.type, e.t]),
    [
      ['message', 10],
      ['turn', 10],
      ['message', 30],
    ],
  );
});

timeline('a decision is worth its probability times its binding chance', () => {
  assert.is(decisionValue({ prob: 0.8, binding: 0.5 }), 0.4);
  assert.is(decisionValue({ prob: 0.8, binding: null }), 0.8);
  assert.is(decisionValue({ prob: null, binding: 0.5 }), null);
});

timeline.run();
