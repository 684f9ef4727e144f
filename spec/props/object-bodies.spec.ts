// Properties of the request bodies that must be JSON objects: any JSON value that is not an object (an array,
// above all `[]`, which valibot's object check lets through, a string, a number, a boolean, null) is refused
// by the route's parser with a 400 and a message, for every endpoint whose body is an object.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import type * as v from 'valibot';
import { JobRequestIdSchema } from '../../shared/jobs.ts';
import { RecompareInputSchema, ReplayInputSchema } from '../../shared/replay.ts';
import { ProbeInputSchema, ServerInputSchema } from '../../shared/servers.ts';
import { CommitRequestSchema, RollbackRequestSchema } from '../../shared/stage.ts';
import { ApiError } from '../../server/http/errors.ts';
import { parseWith } from '../../server/http/parse.ts';
import { check } from './check.ts';

const props = suite('props: object bodies');

const BODIES: [string, v.GenericSchema<unknown, unknown>][] = [
  ['POST /api/servers/:name/replay', ReplayInputSchema],
  ['POST /api/replays/:id/compare', RecompareInputSchema],
  ['POST and PUT /api/servers', ServerInputSchema],
  ['POST /api/servers/:name/test', ProbeInputSchema],
  ['POST /api/flows/:key/commit', CommitRequestSchema],
  ['POST /api/flows/:key/rollback', RollbackRequestSchema],
  ['POST /api/jobs (its id)', JobRequestIdSchema],
];

/** JSON values that are not objects: arrays of anything (empty ones often), and the scalars. */
const notObject: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant([]),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
);

function refusal(schema: v.GenericSchema<unknown, unknown>, body: unknown): ApiError | null {
  try {
    parseWith(schema, body, 'request body');
    return null;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
}

for (const [endpoint, schema] of BODIES) {
  props(`${endpoint}: a body that is not a JSON object is a 400 with a message`, async () => {
    await check(
      fc.property(notObject, (body) => {
        const e = refusal(schema, body);
        assert.ok(e, `${JSON.stringify(body)} was taken`);
        assert.is(e.status, 400);
        assert.match(e.message, /object/);
      }),
      200,
    );
  });
}

props('an empty object is still taken where every field is optional', () => {
  for (const schema of [ReplayInputSchema, ProbeInputSchema, CommitRequestSchema, RollbackRequestSchema, JobRequestIdSchema]) {
    assert.is(refusal(schema, {}), null);
  }
});

props.run();
