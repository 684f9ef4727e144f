import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../../shared/sessions.ts';
import { diskKind, diskUsage, RETENTION_NOTE } from '../../server/engine/disk.ts';
import { activity, healthList, totalsAndDomains } from '../../server/engine/overview.ts';
import { flowCounts } from '../../server/engine/session/companions.ts';
import { tempDir } from '../support/fixtures.ts';
import { endsWith, startsWith } from '../support/assert.ts';

const overview = suite('overview');

function session(over: Partial<SessionSummary>): SessionSummary {
  return {
    key: 'k', path: 'logs/x/k.jsonl', session_id: 'k', domain: 'shop', agent: null, started_unix_ms: 0, duration_ms: 0,
    mode: 'recorded', tool_calls: 1, llm_turns: 0, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 0,
    upstream: null, size_bytes: 0, has_flow_log: false, has_confirm_log: false, ...over,
  };
}

const NOW = Date.UTC(2026, 8, 28, 12, 0, 0);

overview('the activity covers the last 14 UTC days, oldest first, and counts a session on its UTC day', () => {
  const late = Date.UTC(2026, 8, 26, 23, 59, 0);
  const early = Date.UTC(2026, 8, 27, 0, 1, 0);
  const days = activity(
    [
      session({ started_unix_ms: late, tool_calls: 3, flow_lookups: 1 }),
      session({ started_unix_ms: early, tool_calls: 5, flow_lookups: 2 }),
      session({ started_unix_ms: early + 60_000, tool_calls: 1 }),
      session({ started_unix_ms: Date.UTC(2026, 8, 14, 23, 59) }),
      session({ started_unix_ms: Date.UTC(2026, 8, 15, 0, 0) }),
      session({ started_unix_ms: NOW + 86_400_000 }),
    ],
    NOW,
  );
  assert.is(days.length, 14);
  assert.is(days[0]!.day, '2026-09-15');
  assert.is(days[13]!.day, '2026-09-28');
  const byDay = Object.fromEntries(days.map((d) => [d.day, d]));
  assert.equal(byDay['2026-09-26'], { day: '2026-09-26', sessions: 1, tool_calls: 3, flow_lookups: 1 });
  assert.equal(byDay['2026-09-27'], { day: '2026-09-27', sessions: 2, tool_calls: 6, flow_lookups: 2 });
  assert.is(byDay['2026-09-15']!.sessions, 1, 'the first day counts; the day before is out of range');
  assert.is(days.reduce((n, d) => n + d.sessions, 0), 4, 'a session from tomorrow is not counted');
});

overview('totals and domains join the sessions, the loadable flows and the registry', () => {
  const { totals, domains } = totalsAndDomains(
    {
      sessions: [
        session({ domain: 'shop', mode: 'served', started_unix_ms: NOW - 1000, tool_calls: 2, flow_lookups: 3, hand_backs: 2, errors: 1 }),
        session({ domain: 'shop', mode: 'shadow', started_unix_ms: NOW - 8 * 86_400_000 }),
        session({ domain: null, started_unix_ms: NOW }),
      ],
      shadowDecisions: 5,
      flows: [
        { key: 'shop.promoted', domain: 'shop' },
        { key: 'broken', domain: null },
        { key: 'shop', domain: 'shop' },
        { key: 'notes', domain: 'notes' },
      ],
      servers: ['airline', 'shop'],
    },
    NOW,
  );
  assert.equal(totals, {
    sessions: 3, sessions_7d: 2, domains: 3, flows: 4, servers: 2, tool_calls: 4, flow_lookups: 3, hand_backs: 2,
    shadow_decisions: 5, errors: 1,
  });
  assert.equal(domains.map((d) => d.name), ['airline', 'notes', 'shop']);
  assert.equal(domains[2], {
    name: 'shop', sessions: 2, last_session_unix_ms: NOW - 1000, modes: { recorded: 0, shadow: 1, served: 1 },
    flows: ['shop.promoted', 'shop'], servers: ['shop'],
  });
  assert.equal(domains[0], { name: 'airline', sessions: 0, last_session_unix_ms: null, modes: { recorded: 0, shadow: 0, served: 0 }, flows: [], servers: ['airline'] });
});

overview('the health list keeps the reference\'s order and words', () => {
  const items = healthList({
    setup: [{ level: 'ok', message: 'setup' }],
    registryError: 'servers.json is format 2; this build reads 1',
    flows: [
      { rel: 'broken.flow.json', error: 'not an engine flow' },
      { rel: 'shop.flow.json', warnings: ['the flow looks up `x`, which y does not list'] },
    ],
    unreadable: Array.from({ length: 7 }, (_, i) => ({ rel: `logs/bad${i}.jsonl`, error: 'not JSON' })),
    servers: [{ name: 'shop', issues: ['mode is shadow but no flow is set'] }],
  });
  assert.equal(items.slice(0, 4), [
    { level: 'ok', message: 'setup' },
    { level: 'error', message: 'servers.json is format 2; this build reads 1' },
    { level: 'error', message: 'broken.flow.json: this engine cannot read it (not an engine flow)' },
    { level: 'warn', message: 'shop.flow.json: the flow looks up `x`, which y does not list' },
  ]);
  assert.is(items.filter((i) => i.message.includes('is not a session log this engine can read')).length, 5);
  assert.equal(items[4], { level: 'warn', message: 'logs/bad0.jsonl is not a session log this engine can read: not JSON' });
  assert.equal(items.at(-1), { level: 'warn', message: 'server shop: mode is shadow but no flow is set' });
});

overview('shadow decisions are the flow log\'s decisions marked shadow, lookups and hand-backs alike', () => {
  const log = [
    '{"action":"lookup","shadow":true}',
    '{"after":3,"run":{"shadow":true}}',
    '{"action":"hand_back","shadow":true}',
    '{"action":"lookup","shadow":false}',
    '{"action":"lookup","shad',
  ].join('\n');
  const t = tempDir();
  try {
    writeFileSync(join(t.dir, 'x.flow.jsonl'), log);
    const c = flowCounts(join(t.dir, 'x.flow.jsonl'));
    assert.equal([c.shadow_lookups, c.shadow_hand_backs], [1, 1]);
  } finally {
    t.cleanup();
  }
});

overview('the disk is measured by kind over the whole tree, links not followed', () => {
  const t = tempDir();
  try {
    const d = t.dir;
    mkdirSync(join(d, 'logs/shop/deep/deeper'), { recursive: true });
    mkdirSync(join(d, 'oracle-cache'), { recursive: true });
    mkdirSync(join(d, 'console/jobs'), { recursive: true });
    writeFileSync(join(d, 'logs/shop/a.jsonl'), 'x'.repeat(10));
    writeFileSync(join(d, 'logs/shop/a.flow.jsonl'), 'x'.repeat(5));
    writeFileSync(join(d, 'logs/shop/deep/deeper/b.jsonl'), 'x'.repeat(7));
    writeFileSync(join(d, 'shop.flow.json'), 'x'.repeat(100));
    writeFileSync(join(d, 'oracle-cache/c.json'), 'x'.repeat(20));
    writeFileSync(join(d, 'console/jobs/j.json'), 'x'.repeat(3));
    writeFileSync(join(d, 'console/jobs/x.flow.json'), 'x'.repeat(4));
    writeFileSync(join(d, 'servers.json'), 'x'.repeat(2));
    symlinkSync(join(d, 'shop.flow.json'), join(d, 'link.flow.json'));
    assert.equal(diskUsage(d), { logs_bytes: 22, flows_bytes: 100, cache_bytes: 20, other_bytes: 9, total_bytes: 151 });
    assert.is(diskKind('oracle-cache/x.jsonl'), 'cache');
    assert.is(diskKind('console/trash/1/a.jsonl'), 'other');
  } finally {
    t.cleanup();
  }
});

overview('the retention note is the reference\'s text', () => {
  startsWith(RETENTION_NOTE, 'engine-proxy --retain-days N deletes, when it starts, the session logs');
  endsWith(RETENTION_NOTE, 'docs/privacy.md lists what each file holds.');
});

overview.run();
