import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { frame } from '../../server/events/sse.ts';

const test = suite('sse');

test('an event is framed as event, data and a blank line', () => {
  assert.is(frame({ event: 'changed', data: { what: 'sessions', keys: ['copy'] } }), 'event: changed\ndata: {"what":"sessions","keys":["copy"]}\n\n');
});

test.run();
