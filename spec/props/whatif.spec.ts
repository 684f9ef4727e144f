// Properties of what a threshold would change: for generated flow logs (decisions as the proxy writes them,
// with run lines, lines in another key order, junk and a half-written last line), the counts read through
// the pool task's outlines equal a slow recount straight from the generated decisions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { whatIfAt } from '../../server/engine/whatif.ts';
import { flowLogOutlinesTask } from '../../server/workers/tasks/flows.ts';
import { tempDir } from '../support/fixtures.ts';
import { check } from './check.ts';

const props = suite('props: threshold what-if');
const t = tempDir('engine-props-whatif-');
props.after(() => t.cleanup());

type Why = 'below' | 'times' | 'other' | 'surprise';
interface Made {
  site: string;
  lookup: boolean;
  prob: number | null;
  binding: number | null;
  why: Why;
  shadow: boolean;
}

const p = fc.double({ min: 0, max: 1, noNaN: true });
const decision: fc.Arbitrary<Made> = fc.record({
  site: fc.constantFrom('find_user_id_by_email', 'get_order_details', 'list_orders (error)', ''),
  lookup: fc.boolean(),
  prob: fc.option(p, { freq: 8 }),
  binding: fc.option(p, { freq: 3 }),
  why: fc.constantFrom<Why>('below', 'times', 'other', 'surprise'),
  shadow: fc.boolean(),
});

const fmt2 = (n: number) => n.toFixed(2);

/** A decision line as the proxy writes it (sorted keys), or with its keys in another order. */
function line(d: Made, sorted: boolean): string {
  const o: Record<string, unknown> = { action: d.lookup ? 'lookup' : 'hand_back', address: 'decide#0', after: 3, binding: d.lookup ? d.binding : null, key: null, ms: 0, oracle: {}, predicates: {}, prob: d.prob, probs: {} };
  if (!d.lookup) {
    const c = d.binding ?? 1;
    o.reason =
      d.why === 'below' ? `t at ${fmt2(d.prob ?? 0)}, below 0.3`
      : d.why === 'times' ? `t at ${fmt2(d.prob ?? 0)}, times ${fmt2(c)} for its arguments, below 0.3`
      : d.why === 'surprise' ? 'the session surprised the flow: 5 of the agent\'s steps in a row averaged 3.42 nats, above 3.10'
      : 'the site is not promoted';
  }
  if (d.shadow) o.shadow = true;
  o.site = d.site;
  if (d.lookup) o.tool = 't';
  const keys = Object.keys(o).sort();
  return JSON.stringify(Object.fromEntries((sorted ? keys : keys.reverse()).map((k) => [k, o[k]])));
}

/** Whether the recorded decision would look up at `at`: the proxy's rule, spelled out per kind of line. */
function slowServed(d: Made, at: number): boolean {
  if (d.lookup) {
    if (d.prob === null) return true;
    return d.prob >= at && d.prob * (d.binding ?? 1) >= at;
  }
  if (d.prob === null) return false;
  if (d.why === 'below') return d.prob >= at;
  if (d.why === 'times') return d.prob >= at && d.prob * Number(fmt2(d.binding ?? 1)) >= at;
  return false;
}

props('the what-if from the outlines equals a recount from the generated decisions', async () => {
  const session = fc.record({ decisions: fc.array(decision, { maxLength: 8 }), sortedLines: fc.boolean(), halfLine: fc.boolean() });
  await check(
    fc.property(fc.array(session, { minLength: 1, maxLength: 6 }), fc.oneof(p, fc.constant(0.3)), fc.nat(), (sessions, asked, pick) => {
      // Sometimes the threshold is exactly a recorded probability: the bar is ≥, not >.
      const probs = sessions.flatMap((s) => s.decisions.flatMap((d) => (d.prob === null ? [] : [d.prob])));
      const at = probs.length > 0 && pick % 3 === 0 ? probs[pick % probs.length]! : asked;
      const paths = sessions.map((s, i) => {
        const path = join(t.dir, `s${i}.flow.jsonl`);
        const lines = s.decisions.map((d) => line(d, s.sortedLines));
        lines.splice(1, 0, '{"after":3,"run":{"call":"x","failed":false,"max_lookups":8,"sites":[],"surprise":-0.0}}', 'not json');
        writeFileSync(path, lines.join('\n') + (s.halfLine ? '\n{"action":"lookup","prob":0.9' : '\n'));
        return path;
      });
      const outlines = flowLogOutlinesTask({ paths });
      const got = whatIfAt(outlines.map((o, i) => ({ key: `k${i}`, decisions: o ?? [] })), at);

      const total = { served_then: 0, handed_back_then: 0, served_at: 0, handed_back_at: 0 };
      const sites: Record<string, typeof total> = {};
      const flips: { key: string; served_then: number; served_at: number; n: number; i: number }[] = [];
      sessions.forEach((s, i) => {
        const mine = { key: `k${i}`, served_then: 0, served_at: 0, n: 0, i };
        for (const d of s.decisions) {
          const now = slowServed(d, at);
          for (const c of [total, (sites[d.site] ??= { served_then: 0, handed_back_then: 0, served_at: 0, handed_back_at: 0 })]) {
            c[d.lookup ? 'served_then' : 'handed_back_then']++;
            c[now ? 'served_at' : 'handed_back_at']++;
          }
          mine.served_then += d.lookup ? 1 : 0;
          mine.served_at += now ? 1 : 0;
          mine.n += now === d.lookup ? 0 : 1;
        }
        if (mine.n > 0) flips.push(mine);
      });
      flips.sort((a, b) => b.n - a.n || a.i - b.i);
      assert.equal(got.total, total);
      assert.is(got.sessions, sessions.length);
      assert.equal(Object.fromEntries(got.sites.map(({ site, ...c }) => [site, c])), sites);
      assert.equal(got.sites.map((s) => s.site), Object.keys(sites).sort());
      assert.equal(got.changed, flips.map(({ key, served_then, served_at }) => ({ key, served_then, served_at })));
      assert.is(got.threshold, at);
    }),
    150,
  );
});

props('at the threshold each session ran with, nothing changes', async () => {
  await check(
    fc.property(fc.array(fc.tuple(p, fc.option(p)), { maxLength: 10 }), (made) => {
      // The proxy's own lines at 0.3: a lookup cleared the bar, a hand-back for its probability did not.
      const decisions = made.map(([prob, binding]) => {
        const lookup = prob >= 0.3 && prob * (binding ?? 1) >= 0.3;
        return { site: 's', lookup, prob, binding, why: (binding === null ? 'below' : 'times') as Why, shadow: false };
      // A hand-back's reason rounds the binding: one whose rounding crosses the bar is not the proxy's line.
      }).filter((d) => d.lookup || d.why === 'below' || (d.prob * Number(fmt2(d.binding ?? 1)) < 0.3));
      const path = join(t.dir, 'same.flow.jsonl');
      writeFileSync(path, decisions.map((d) => line(d, true)).join('\n'));
      const got = whatIfAt([{ key: 'k', decisions: flowLogOutlinesTask({ paths: [path] })[0] ?? [] }], 0.3);
      assert.is(got.total.served_at, got.total.served_then);
      assert.equal(got.changed, []);
    }),
    100,
  );
});

props.run();
