// One session as the proxy binary writes it (session-format.md §1–5): the session log (`<id>.jsonl`, header
// then one entry per line the proxy saw or sent), and, when a flow ran, the flow log (`<id>.flow.jsonl`:
// decision lines and run lines), and when the confirmation judge ran, its log (`<id>.confirm.jsonl`).
// A conversation (worlds.ts) is acted out: the client's lines keep the client's key order, the server's and
// the proxy's are sorted-key JSON. Served, the flow makes the reads the agent would have made next and
// appends them to the agent's answer; in shadow it only logs what it would have done.
import { createHash } from 'node:crypto';
import type { Rng } from './rng.ts';
import { sortedJson } from './json.ts';
import { siteName, type LearnedFlow } from './flow.ts';
import { listedTools, type Domain, type Outcome, type Step } from './worlds.ts';

export type Mode = 'recorded' | 'shadow' | 'served';

export interface SessionPlan {
  domain: Domain;
  mode: Mode;
  /** The flow the proxy ran (shadow and served). */
  flow: LearnedFlow | null;
  conversation: Step[];
  startedMs: number;
  pid: number;
  agentModel: string | null;
  clientName: string;
  /** The confirmation judge ran before each write; `enforce` refuses a write it fails (served only). */
  judge: 'off' | 'log' | 'enforce';
  /** From this agent call on (0-based), the flow's surprise gate hands back (served and shadow). */
  surpriseAfter: number | null;
  /** The server printed a banner line that is not JSON. */
  banner: string | null;
  /** The log ends with a half-written line (a crash mid-write); readers drop it. */
  torn: boolean;
}

export interface WrittenSession {
  id: string;
  log: string;
  flowLog: string | null;
  confirmLog: string | null;
}

const HAND_OFF = '--- Also looked up automatically (current results; no need to repeat these calls) ---';
const MAX_LOOKUPS = 8;
const SURPRISE = "the session surprised the flow: 5 of the agent's steps in a row averaged 3.42 nats, above 3.10";

/** `YYYYMMDDTHHMMSS.mmmZ-<pid>`: the UTC start to the millisecond, then the proxy's pid. */
export function sessionId(startedMs: number, pid: number): string {
  const iso = new Date(startedMs).toISOString(); // 2026-09-28T02:04:01.117Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 23)}Z-${pid}`;
}

function resultMessage(id: unknown, outcome: Outcome): Record<string, unknown> {
  if (outcome.kind === 'rpc-error') return { error: { code: outcome.code, message: outcome.message }, id, jsonrpc: '2.0' };
  if (outcome.kind === 'none') throw new Error('no answer to write');
  return { id, jsonrpc: '2.0', result: { content: [{ text: outcome.text, type: 'text' }], isError: outcome.isError } };
}

type CallStep = Extract<Step, { kind: 'call' }>;

/** The `tools/list` answer's tools as text, once per domain: it is the same in every session. */
const listed = new Map<string, string>();
function toolsText(domain: Domain): string {
  let text = listed.get(domain.name);
  if (text === undefined) {
    text = sortedJson(listedTools(domain));
    listed.set(domain.name, text);
  }
  return text;
}

export function writeSession(plan: SessionPlan, rng: Rng): WrittenSession {
  const { domain, mode } = plan;
  const id = sessionId(plan.startedMs, plan.pid);
  const lines: string[] = [];
  const decisions: string[] = [];
  const confirms: string[] = [];
  let t = rng.int(0, 2);
  let proxyN = 0;
  let agentCalls = 0;

  lines.push(
    JSON.stringify({
      engine_mcp_log: 2,
      session: id,
      started_unix_ms: plan.startedMs,
      server_command: domain.serverCommand,
      domain: domain.name,
      agent_model: plan.agentModel,
    }),
  );
  const entry = (from: 'client' | 'server' | 'proxy' | 'context', messageText: string) =>
    lines.push(`{"t_ms":${t},"from":"${from}","message":${messageText}}`);
  const client = (m: Record<string, unknown>) => entry('client', JSON.stringify(m));
  const server = (m: Record<string, unknown>) => entry('server', sortedJson(m));
  const proxy = (m: Record<string, unknown>) => entry('proxy', sortedJson(m));

  if (plan.banner !== null) lines.push(`{"t_ms":${t},"from":"server","raw":${JSON.stringify(plan.banner)}}`);
  client({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: plan.clientName, version: '1' } } });
  t += rng.int(1, 40);
  server({ id: 1, jsonrpc: '2.0', result: { capabilities: { tools: { listChanged: false } }, instructions: domain.instructions, protocolVersion: '2025-06-18', serverInfo: { name: domain.serverName, version: '1.4.2' } } });
  t += rng.int(0, 2);
  client({ jsonrpc: '2.0', method: 'notifications/initialized' });
  client({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  t += rng.int(1, 20);
  entry('server', `{"id":2,"jsonrpc":"2.0","result":{"tools":${toolsText(domain)}}}`);
  let nextId = 3;

  const queue = [...plan.conversation];
  const flowMode = mode !== 'recorded' && plan.flow !== null;
  let surprised = false;

  /** The flow's run after the agent's call `after` returned (session-format §4). */
  const run = (after: number, step: CallStep, failed: boolean, answer: Outcome) => {
    const flow = plan.flow;
    if (!flowMode || flow === null) return;
    const decide = (fields: Record<string, unknown>) =>
      decisions.push(sortedJson({ after, binding: null, key: null, ms: rng.int(0, 2), oracle: {}, predicates: {}, ...fields, ...(mode === 'shadow' ? { shadow: true } : {}) }));
    const sites: [string, unknown, number][] = [];
    const finish = (call: string) => {
      const surprise = -sites.reduce((s, [, , logp]) => s + logp, 0);
      decisions.push(sortedJson({ after, run: { call, failed, max_lookups: MAX_LOOKUPS, sites, surprise } }));
    };
    if (plan.surpriseAfter !== null && agentCalls > plan.surpriseAfter) surprised = true;
    if (surprised) {
      decide({ action: 'hand_back', address: 'decide#0', prob: null, probs: {}, reason: SURPRISE, site: siteName(step.tool, failed) });
      sites.push(['decide#0', 0, 0]);
      return finish(step.tool);
    }
    const lookups: { tool: string; args: Record<string, unknown>; outcome: Outcome }[] = [];
    let site = siteName(step.tool, failed);
    for (let i = 0; i < (mode === 'shadow' ? 1 : MAX_LOOKUPS); i++) {
      const address = `decide#${i}`;
      const options = [...(flow.next.get(site)?.keys() ?? [])].sort();
      if (options.length === 0) {
        decide({ action: 'hand_back', address, prob: null, probs: {}, reason: 'no lookups followed here in training', site });
        sites.push([address, 0, 0]);
        break;
      }
      const coming = queue[0];
      const fits = coming?.kind === 'call' && options.includes(coming.tool) && coming.outcome.kind === 'result' && !coming.outcome.isError;
      if (coming?.kind === 'call' && fits && rng.chance(0.92)) {
        const prob = rng.between(0.86, 0.997);
        const binding = rng.pick([0.875, 0.9285714285714286, 1]);
        const probs = Object.fromEntries([...options.map((o) => [o, o === coming.tool ? prob : rng.between(0, 1 - prob)]), ['respond', 0]]);
        decide({ action: 'lookup', address, arguments: coming.args, binding, prob, probs, site, tool: coming.tool });
        sites.push([address, options.indexOf(coming.tool) + 1, 0]);
        if (mode === 'shadow') break;
        // Served: the proxy makes the read itself, the server answers it, and the agent need not.
        proxyN += 1;
        const rid = `engine-${proxyN}`;
        t += rng.int(0, 2);
        proxy({ id: rid, jsonrpc: '2.0', method: 'tools/call', params: { arguments: coming.args, name: coming.tool } });
        t += rng.int(1, 30);
        server(resultMessage(rid, coming.outcome));
        sites.push([`outcome#${i}`, true, -rng.between(0.03, 0.4)]);
        lookups.push({ tool: coming.tool, args: coming.args, outcome: coming.outcome });
        queue.shift();
        site = coming.tool;
        continue;
      }
      const best = options[0]!;
      const p = rng.between(0.01, 0.28);
      decide({ action: 'hand_back', address, prob: p, probs: { [best]: p, respond: 0 }, reason: `${best} at ${p.toFixed(2)}, below 0.3`, site });
      sites.push([address, 0, 0]);
      break;
    }
    if (lookups.length > 0) {
      const text =
        HAND_OFF +
        lookups.map((l) => `\n\n${l.tool} ${sortedJson(l.args)}:\n${l.outcome.kind === 'result' ? l.outcome.text : ''}`).join('');
      const first = answer.kind === 'result' ? [{ text: answer.text, type: 'text' }] : [];
      t += rng.int(0, 2);
      proxy({ id: after, jsonrpc: '2.0', result: { content: [...first, { text, type: 'text' }], isError: false } });
    }
    finish(step.tool);
  };

  /** The judge before a write; true when the write is refused. */
  const judge = (step: CallStep, confirmed: boolean): boolean => {
    if (plan.judge === 'off' || domain.tools.find((x) => x.name === step.tool)?.readOnly !== false) return false;
    const enforced = plan.judge === 'enforce' && mode === 'served';
    const pYes = confirmed ? rng.between(0.7, 0.99) : rng.between(0.05, 0.4);
    const fails = pYes < 0.5;
    confirms.push(
      sortedJson({
        arguments: step.args,
        enforced,
        fails,
        key: createHash('sha256').update(`${id}:${step.tool}:${confirms.length}`).digest('hex'),
        ms: rng.int(300, 1800),
        p_yes: Math.round(pYes * 1000) / 1000,
        proposal_check: [],
        tool: step.tool,
        unknown: false,
        word_list: confirmed,
      }),
    );
    return enforced && fails;
  };

  let firstCall = true;
  while (queue.length > 0) {
    const step = queue.shift()!;
    if (step.kind === 'say') {
      t += step.role === 'user' ? rng.int(300, 2500) : rng.int(600, 2500);
      entry('context', JSON.stringify({ role: step.role, content: step.text }));
      continue;
    }
    // One LLM turn: this call and those sent with it while it is open.
    const group: CallStep[] = [step];
    while (queue[0]?.kind === 'call' && queue[0].together) group.push(queue.shift() as CallStep);
    t += firstCall ? rng.int(400, 1500) : rng.int(600, 3000);
    firstCall = false;
    const ids = group.map(() => nextId++);
    const refused = group.map((s) => judge(s, rng.chance(0.8)));
    group.forEach((s, i) => {
      if (i > 0) t += rng.int(0, 1);
      client({ jsonrpc: '2.0', id: ids[i], method: 'tools/call', params: { name: s.tool, arguments: s.args } });
    });
    for (let i = 0; i < group.length; i++) {
      const s = group[i]!;
      const cid = ids[i]!;
      agentCalls += 1;
      if (s.outcome.kind === 'none') continue;
      t += rng.int(1, 250);
      if (refused[i]) {
        proxy({ id: cid, jsonrpc: '2.0', result: { content: [{ text: `Refused by the policy check, so ${s.tool} was not run and nothing changed: the customer did not explicitly agree to this change.`, type: 'text' }], isError: true } });
        queue.unshift(
          { kind: 'say', role: 'assistant', text: 'Before I change anything: do you confirm this change?' },
          { kind: 'say', role: 'user', text: 'Yes, I confirm.' },
          { ...s, together: false },
        );
        continue;
      }
      server(resultMessage(cid, s.outcome));
      if (s.outcome.kind === 'result') run(cid, s, s.outcome.isError, s.outcome);
    }
  }

  let log = lines.join('\n') + '\n';
  if (plan.torn) log += `{"t_ms":${t + 1},"from":"client","message":{"jsonrpc":"2.0","met`;
  return {
    id,
    log,
    flowLog: flowMode ? decisions.map((d) => d + '\n').join('') : null,
    confirmLog: confirms.length > 0 ? confirms.map((c) => c + '\n').join('') : null,
  };
}
