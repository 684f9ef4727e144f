// A large registry costs the servers list O(entries) without holding up the event loop: 60k entries list in
// about a second of the console's CPU at most (measured from /proc, not by the clock: a loaded CI machine makes
// the wall time wait on other processes), and /api/health, asked again and again meanwhile, stays fast.
// Thousands of entries on one flow do not square the answer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { FlowListSchema } from '../../shared/flows.ts';
import { ServerListSchema } from '../../shared/servers.ts';
import { launch } from '../support/launch.ts';

const ENTRIES = 60_000;

/** The CPU time a process has used so far (Linux; 0 elsewhere), to tell its cost from a busy machine's wait. */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
    return ((utime ?? 0) + (stime ?? 0)) * 10;
  } catch {
    return 0;
  }
}

/** Entries of every kind: stdio commands on PATH, by path and nowhere, HTTP, some with a flow. */
function entry(i: number) {
  const upstream =
    i % 5 === 4
      ? { kind: 'http', url: `https://mcp.example.com/${i}/mcp`, headers: [] }
      : { kind: 'stdio', command: [['sh', '/bin/sh', `missing-${i % 400}`, `./rel/tool-${i}`][i % 4]!, '--n', String(i)], env: [] };
  return {
    name: `server-${i}`,
    upstream,
    mode: i % 10 === 0 ? 'serve' : 'record',
    // A few serve the fixture's flow (each summary names every server that serves it), the rest flows not there.
    flow: i % 10 === 0 ? (i < 100 ? 'shop.flow.json' : `flows/f-${i}.flow.json`) : null,
    record_dir: null,
    decider: null,
    threshold: null,
    created_unix_ms: 1790553600000,
    updated_unix_ms: 1790553600000,
  };
}

const scale = suite('a registry of 60k entries');

scale('lists in about a second of CPU at most while /api/health keeps answering fast', async () => {
  const l = await launch();
  try {
    const servers = Array.from({ length: ENTRIES }, (_, i) => entry(i));
    writeFileSync(join(l.dataDir, 'servers.json'), JSON.stringify({ engine_servers: 1, servers }));
    // The overview reads the new registry first: what is measured is the list, not the registry's first read.
    assert.is((await l.api('/api/overview')).status, 200);
    // The CPU of a list asked alone (health answers cost CPU too); then the same list with health asked meanwhile.
    const cpu0 = cpuMs(l.child.pid);
    const t0 = performance.now();
    const res = await l.api('/api/servers');
    const body = await res.json();
    const listMs = performance.now() - t0;
    const listCpuMs = cpuMs(l.child.pid) - cpu0;
    let listing = true;
    const healthMs: number[] = [];
    const poll = (async () => {
      while (listing) {
        const h0 = performance.now();
        const health = await l.api('/api/health');
        await health.arrayBuffer();
        healthMs.push(performance.now() - h0);
      }
    })();
    const again = await l.api('/api/servers');
    await again.arrayBuffer();
    listing = false;
    await poll;
    const worst = Math.max(...healthMs);
    console.log(`  ${ENTRIES} entries: list ${listMs.toFixed(0)} ms (${listCpuMs.toFixed(0)} ms of the console's CPU); listed again with /api/health ×${healthMs.length} meanwhile, max ${worst.toFixed(1)} ms`);
    assert.is(again.status, 200);
    assert.is(res.status, 200);
    const list = v.parse(ServerListSchema, body);
    assert.is(list.items.length, ENTRIES);
    const byName = new Map(list.items.map((s) => [s.name, s.issues]));
    const pathIssue = (name: string) => (byName.get(name) ?? []).some((i) => i.includes('PATH'));
    assert.is(pathIssue('server-0'), false, 'sh is on PATH');
    assert.is(pathIssue('server-1'), false, '/bin/sh is a file');
    assert.is(pathIssue('server-2'), true, 'missing-2 is nowhere');
    assert.is(pathIssue('server-3'), true, './rel/tool-3 is not there');
    assert.equal(list.items.find((s) => s.name === 'server-0')?.flow_summary?.served_by.length, 10);
    assert.is(list.items.find((s) => s.name === 'server-0')?.flow_summary?.served_by_more, 0);
    assert.ok(byName.get('server-100')?.some((i) => i.startsWith('flow not found: ') && i.endsWith('/flows/f-100.flow.json')), 'a missing flow is an issue');
    assert.ok(listCpuMs < 1_500, `the list took ${listCpuMs.toFixed(0)} ms of the console's CPU`);
    assert.ok(healthMs.length > 0, 'health was asked while listing');
    assert.ok(worst < 250, `/api/health waited ${worst.toFixed(1)} ms while listing`);
  } finally {
    await l.stop();
  }
});

scale('thousands of entries on one flow: each names the first 20 servers and counts the rest', async () => {
  const l = await launch();
  try {
    const count = 6_000;
    const servers = Array.from({ length: count }, (_, i) => ({ ...entry(i * 10), name: `shop-${i}`, flow: 'shop.flow.json' }));
    writeFileSync(join(l.dataDir, 'servers.json'), JSON.stringify({ engine_servers: 1, servers }));
    const res = await l.api('/api/servers');
    assert.is(res.status, 200);
    const list = v.parse(ServerListSchema, await res.json());
    assert.is(list.items.length, count);
    for (const item of [list.items[0], list.items[count - 1]]) {
      assert.equal(item?.flow_summary?.served_by, Array.from({ length: 20 }, (_, i) => `shop-${i}`));
      assert.is(item?.flow_summary?.served_by_more, count - 20);
    }
    // The flows list still names every server (spec): one flow, one list of names.
    const flows = v.parse(FlowListSchema, await (await l.api('/api/flows')).json());
    assert.is(flows.items.find((f) => f.path === 'shop.flow.json')?.served_by.length, count);
  } finally {
    await l.stop();
  }
});

scale.run();
