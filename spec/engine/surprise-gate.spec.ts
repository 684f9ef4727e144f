// A later engine's surprise gate (`surprise` in the flow): how it reads, its sentence (the original's
// surprise.rs tests pin two), its section of flow-show (after Promotion, before Bindings) and of flow-diff
// (after Promotion, before Provenance, never one to review), as review.rs prints them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome } from '../support/fixtures.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/flow-show.ts';
import { flowDiff } from '../../server/engine/diff.ts';
import { describeGate } from '../../server/engine/surprise-gate.ts';

const gates = suite('surprise gate');
const raw = (name: string) => JSON.parse(readFileSync(join(fixtureHome, name), 'utf8')) as Record<string, unknown>;
const load = (o: Record<string, unknown>) => loadFlow(JSON.stringify(o));
const LEARNED = { window: 4, threshold: 1.25, quantile: 0.95 };
const LEARNED_TEXT =
  "hands back for the rest of a session once 4 of the agent's steps in a row average more than 1.25 nats of surprise, the 0.95 quantile of held-out training sessions' most surprising windows";
const v2 = (name: string, surprise?: unknown) => load({ ...raw(name), engine_flow: 2, ...(surprise === undefined ? {} : { surprise }) });

/** review.rs `show`'s Surprise section for a gate described as `text`. */
const section = (text: string) =>
  `\n## Surprise\n\nThe flow ${text} (\`learn --surprise\`). A step's surprise is −ln of the habit's probability of what the agent did, after a call where the flow decides; a step it does not offer there counts as handing back, and the flow's own lookups are not the agent's steps. \`--surprise off\` serves the flow without the gate, and \`--surprise NATS\` with another threshold.\n`;

gates('the sentence equals the original’s, learned and set by hand', () => {
  assert.is(describeGate(LEARNED), LEARNED_TEXT);
  assert.is(
    describeGate({ window: 3, threshold: 2 }),
    "hands back for the rest of a session once 3 of the agent's steps in a row average more than 2.00 nats of surprise",
  );
  assert.match(describeGate({ window: 5, threshold: 2.5, quantile: 1 }), 'the 1 quantile');
});

gates('a gate reads from a format-2 flow; a format-1 flow with one and a gate over no steps do not load', () => {
  assert.equal(v2('shop.flow.json', LEARNED).surprise, LEARNED);
  assert.equal(v2('shop.flow.json', { window: 5, threshold: 2, quantile: null }).surprise, { window: 5, threshold: 2 });
  assert.is(v2('shop.flow.json', null).surprise, null);
  assert.is(v2('shop.flow.json').surprise, null);
  assert.throws(() => load({ ...raw('shop.flow.json'), surprise: LEARNED }), /^a flow with a surprise gate is format 2$/);
  assert.throws(() => v2('shop.flow.json', { ...LEARNED, window: 0 }), /^a surprise gate averages over one step or more$/);
  assert.throws(() => v2('shop.flow.json', { window: 5 }), /threshold/);
});

gates('flow-show adds the Surprise section before Bindings, and nothing else changes', () => {
  const plain = renderFlowShow(v2('shop.flow.json'), 0.3);
  const gated = renderFlowShow(v2('shop.flow.json', LEARNED), 0.3);
  const at = plain.indexOf('\n## Bindings\n');
  assert.ok(at > 0);
  assert.fixture(gated, plain.slice(0, at) + section(LEARNED_TEXT) + plain.slice(at));
});

gates('after a promotion, the Surprise section follows the promotion table', () => {
  const plain = renderFlowShow(v2('shop.promoted.flow.json'), 0.3);
  const gated = renderFlowShow(v2('shop.promoted.flow.json', { window: 3, threshold: 2 }), 0.3);
  const at = plain.indexOf('\n## Bindings\n');
  assert.ok(plain.lastIndexOf('## Promotion', at) > 0);
  assert.fixture(gated, plain.slice(0, at) + section("hands back for the rest of a session once 3 of the agent's steps in a row average more than 2.00 nats of surprise") + plain.slice(at));
});

gates('flow-diff: a Surprise section after Promotion, never one to review; an equal gate is no change', () => {
  const d = flowDiff(v2('shop.flow.json'), v2('shop.promoted.flow.json', LEARNED), 0.05, 0.3);
  assert.equal(d.sections.map((s) => s.title), ['Promotion', 'Surprise']);
  assert.equal(d.sections[1]!.changes, [`none: it never hands back for surprise → it ${LEARNED_TEXT}`]);
  assert.equal(d.review, []);
  assert.ok(d.markdown.endsWith(`\n## Surprise\n\n- none: it never hands back for surprise → it ${LEARNED_TEXT}\n`), d.markdown);
  const back = flowDiff(v2('shop.flow.json', LEARNED), v2('shop.flow.json', { window: 4, threshold: 1.25 }), 0.05, 0.3);
  assert.equal(back.changes, [
    `it ${LEARNED_TEXT} → it hands back for the rest of a session once 4 of the agent's steps in a row average more than 1.25 nats of surprise`,
  ]);
  assert.equal(flowDiff(v2('shop.flow.json', LEARNED), v2('shop.flow.json', { ...LEARNED }), 0.05, 0.3).sections, []);
});

gates.run();
