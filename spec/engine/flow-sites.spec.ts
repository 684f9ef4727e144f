// engine/flow-sites.ts alone, and the per-site counts the summary keeps for it (fixture logs read in place).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowSiteEvidence } from '../../server/engine/flow-sites.ts';
import { indexedSession, type IndexedSession, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { newestFirst } from '../../server/engine/session-filter.ts';
import { tempDir } from '../support/fixtures.ts';
import { fixtureSessions } from './session-files.ts';

const SHOP_SITES = ['find_user_id_by_email', 'get_order_details', 'get_user_details'];
const all = () => fixtureSessions().map((f) => indexedSession(sessionSummary(f))).sort((a, b) => newestFirst(a.summary, b.summary));

const sites = suite('flow sites');

sites('each summary counts what its flow log shows per site, as the detail reads it', () => {
  for (const f of fixtureSessions()) {
    const s = sessionSummary(f);
    const per = new Map<string, { site: string; lookups: number; hand_backs: number; shadow: number }>();
    for (const d of sessionDetail(f).decisions) {
      const at = per.get(d.site) ?? { site: d.site, lookups: 0, hand_backs: 0, shadow: 0 };
      if (d.shadow) at.shadow++;
      else if (d.action === 'lookup') at.lookups++;
      else at.hand_backs++;
      per.set(d.site, at);
    }
    const expected = [...per.values()].sort((a, b) => (a.site < b.site ? -1 : 1));
    assert.equal(s.flow_sites, expected.length ? expected : undefined, f.rel);
  }
});

sites('a flow log written by another hand (unsorted keys, a null site) is counted too', () => {
  const t = tempDir();
  const log = join(t.dir, 's.jsonl');
  writeFileSync(log, `${JSON.stringify({ engine_mcp_log: 2, session: 's', started_unix_ms: 1, server_command: [], domain: 'd' })}\n`);
  writeFileSync(
    join(t.dir, 's.flow.jsonl'),
    [
      '{"site":"a \\"quoted\\" (error)","action":"lookup","after":1,"tool":"x"}',
      '{"action":"hand_back","after":1,"site":null}',
      '{"action":"lookup","after":2,"shadow":true,"site":"b","tool":"y"}',
      'not json',
    ].join('\n'),
  );
  const s = sessionSummary({ key: 's', rel: 's.jsonl', path: log, flowLog: join(t.dir, 's.flow.jsonl'), confirmLog: null });
  assert.equal(s.flow_sites, [
    { site: '', lookups: 0, hand_backs: 1, shadow: 0 },
    { site: 'a "quoted" (error)', lookups: 1, hand_backs: 0, shadow: 0 },
    { site: 'b', lookups: 0, hand_backs: 0, shadow: 1 },
  ]);
  t.cleanup();
});

sites('the sites of shop.flow.json with the fixture sessions behind each, newest first', () => {
  const e = flowSiteEvidence({ key: 'shop', domain: 'shop', sites: SHOP_SITES }, all(), 50);
  const brief = e.sites.map((x) => [x.site, x.in_flow, x.sessions, x.lookups, x.hand_backs, x.shadow, x.items.map((i) => i.key.slice(-5))]);
  assert.equal(brief, [
    ['find_user_id_by_email', true, 5, 2, 0, 3, ['14768', '14759', '14750', '14715', '14662']],
    ['get_order_details', true, 5, 2, 2, 6, ['14768', '14759', '14750', '14715', '14662']],
    ['get_user_details', true, 5, 2, 0, 3, ['14768', '14759', '14750', '14715', '14662']],
    ['cancel_pending_order', false, 3, 0, 1, 2, ['14768', '14750', '14662']],
  ]);
  assert.equal(e.sites[1]!.items.at(-1), {
    key: '20260928T020401.117Z-14662',
    session_id: '20260928T020401.117Z-14662',
    mode: 'served',
    started_unix_ms: 1790561041117,
    lookups: 1,
    hand_backs: 1,
    shadow: 0,
    line: null,
  });
});

sites('a site no session reached is listed empty; other domains and the limit are respected', () => {
  const e = flowSiteEvidence({ key: 'f', domain: 'shop', sites: ['never_called (error)'] }, all(), 2);
  assert.equal(e.sites[0], { site: 'never_called (error)', in_flow: true, sessions: 0, lookups: 0, hand_backs: 0, shadow: 0, items: [] });
  assert.equal(e.sites.find((x) => x.site === 'get_user_details')!.items.length, 2);
  assert.is(e.sites.find((x) => x.site === 'get_user_details')!.sessions, 5);
  assert.equal(flowSiteEvidence({ key: 'r', domain: 'retail', sites: ['x'] }, all(), 50).sites.map((x) => x.sessions), [0]);
});

sites('summaries not newest first are put in order', () => {
  const reversed: IndexedSession[] = all().reverse();
  const e = flowSiteEvidence({ key: 'shop', domain: 'shop', sites: SHOP_SITES }, reversed, 1);
  assert.is(e.sites[0]!.items[0]!.key, '20260928T020401.278Z-14768');
});

sites.run();
