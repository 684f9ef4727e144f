// A whole synthetic data directory in the engine's formats: session logs under logs/<domain>/ (recorded),
// served/<domain>/ and shadow/<domain>/ (with their flow logs), some confirmation logs, a flow per domain
// learned from that domain's conversations, the promoted shop flow, one flow of a format this build cannot
// read, the server registry, and optionally a few big logs. Everything follows from the seed and "now", so
// the demo and the tests see the same directory each time; `GeneratedHome` says what was written.
import { mkdirSync, readdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from './rng.ts';
import { brokenFlow, learnFlow, promoteFlow, type LearnedFlow } from './flow.ts';
import { writeSession, type Mode } from './session.ts';
import { writeBigLog } from './big.ts';
import { stageFiles } from './stage.ts';
import { DOMAIN_NAMES, domainOf, type Step } from './worlds.ts';

export const MODES: readonly Mode[] = ['recorded', 'shadow', 'served'];
const DAY_MS = 86_400_000;
const MODE_DIR: Record<Mode, string> = { recorded: 'logs', shadow: 'shadow', served: 'served' };
const MODE_WEIGHT: Record<Mode, number> = { recorded: 55, served: 25, shadow: 20 };
const DOMAIN_WEIGHT: Record<string, number> = { shop: 45, retail: 30, travel: 25 };
const AGENT_MODELS = [null, null, 'claude-sonnet-4-5', 'claude-opus-4-1', 'gpt-5', 'gemini-2.5-pro'];
const CLIENTS = ['claude-code', 'claude-code', 'cursor', 'vscode', 'quickstart', 'claude-desktop'];
const TRAINING_CONVERSATIONS = 24;

export interface HomeOptions {
  /** The data directory to write; created if missing, refused if it holds anything. */
  dir: string;
  sessions?: number;
  domains?: string[];
  modes?: Mode[];
  /** Sizes in MB of big recorded logs to add (not counted in `sessions`). */
  big?: number[];
  seed?: number;
  /** Start times spread over the `days` before this. */
  nowMs?: number;
  days?: number;
  /** A phrase the customer writes in this many sessions, spread evenly over them (no random draw moves). */
  planted?: { text: string; sessions: number };
}

export interface GeneratedSession {
  rel: string;
  id: string;
  domain: string;
  mode: Mode;
  startedMs: number;
  flowLog: string | null;
  confirmLog: string | null;
}

export interface GeneratedHome {
  dir: string;
  sessions: GeneratedSession[];
  /** Data-dir-relative paths of the flows, and whether each loads. */
  flows: { rel: string; domain: string | null; loads: boolean }[];
  big: { rel: string; id: string; bytes: number; calls: number }[];
  byMode: Record<Mode, number>;
  byDomain: Record<string, number>;
  /** Parts left out because they could not be made (the demo still works without them). */
  warnings: string[];
  /** The planted phrase and the ids of the sessions that hold it. */
  planted: { text: string; ids: string[] } | null;
}

function choose<K extends string>(rng: Rng, allowed: readonly K[], weights: Record<string, number>): K {
  return rng.weighted(Object.fromEntries(allowed.map((k) => [k, weights[k] ?? 1])) as Record<K, number>);
}

export async function generateHome(options: HomeOptions): Promise<GeneratedHome> {
  const dir = options.dir;
  const count = options.sessions ?? 60;
  const domains = options.domains ?? DOMAIN_NAMES;
  const modes = options.modes ?? [...MODES];
  const seed = options.seed ?? 1;
  const nowMs = options.nowMs ?? Date.now();
  const days = options.days ?? 20;
  if (domains.length === 0) throw new Error('no domain to generate: name at least one');
  if (modes.length === 0) throw new Error('no mode to generate: name at least one');
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`mode "${m}": expected recorded, shadow or served`);
  domains.forEach(domainOf);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: generate into a new directory`);
  mkdirSync(dir, { recursive: true });

  const root = new Rng(seed);
  const result: GeneratedHome = {
    dir,
    sessions: [],
    flows: [],
    big: [],
    byMode: { recorded: 0, shadow: 0, served: 0 },
    byDomain: Object.fromEntries(domains.map((d) => [d, 0])),
    warnings: [],
    planted: null,
  };
  const plant = options.planted && options.planted.sessions > 0 ? { ...options.planted, every: Math.max(1, Math.floor(count / options.planted.sessions)), ids: [] as string[] } : null;
  if (plant) result.planted = { text: plant.text, ids: plant.ids };

  // Flows first: served and shadow sessions act them out.
  const flows = new Map<string, LearnedFlow>();
  const trainRng = root.fork(1);
  for (const name of domains) {
    const domain = domainOf(name);
    const conversations: Step[][] = Array.from({ length: TRAINING_CONVERSATIONS }, () => domain.conversation(trainRng));
    const learned = learnFlow(domain, conversations, {
      compiledMs: nowMs - (days + 1) * DAY_MS + trainRng.int(0, DAY_MS),
      sources: name === 'travel' ? ['claude-sonnet-4-5', 'gpt-5'] : ['claude-sonnet-4-5'],
      program: name !== 'travel',
      ...(name === 'travel' ? { thresholds: { search_flights: 0.5, get_reservation: 1.5 } } : {}),
    });
    flows.set(name, learned);
    writeFileSync(join(dir, `${name}.flow.json`), JSON.stringify(learned.json) + '\n');
    result.flows.push({ rel: `${name}.flow.json`, domain: name, loads: true });
  }
  const shop = flows.get('shop');
  if (shop) {
    writeFileSync(join(dir, 'shop.promoted.flow.json'), JSON.stringify(promoteFlow(shop, (site) => (site.startsWith('get_order') ? 0.55 : 0.95))) + '\n');
    result.flows.push({ rel: 'shop.promoted.flow.json', domain: 'shop', loads: true });
  }
  const anyFlow = flows.values().next().value;
  if (anyFlow) {
    writeFileSync(join(dir, 'legacy.flow.json'), JSON.stringify(brokenFlow(anyFlow.json)) + '\n');
    result.flows.push({ rel: 'legacy.flow.json', domain: null, loads: false });
  }

  // Sessions.
  const sessionRng = root.fork(2);
  const ids = new Set<string>();
  const made = new Set<string>();
  for (let i = 0; i < count; i++) {
    const rng = sessionRng.fork(i);
    const name = choose(rng, domains, DOMAIN_WEIGHT);
    const domain = domainOf(name);
    const mode = choose(rng, modes, MODE_WEIGHT);
    const ago = days * DAY_MS * Math.pow(rng.next(), 1.3) + rng.int(60_000, 3_600_000);
    const startedMs = Math.round(nowMs - ago);
    let pid = rng.int(1000, 65000);
    const conversation = domain.conversation(rng);
    if (rng.chance(0.02)) {
      const last = conversation.filter((s) => s.kind === 'call').pop();
      if (last?.kind === 'call') conversation.push({ kind: 'call', tool: last.tool, args: last.args, outcome: { kind: 'none' } });
    }
    const planted = plant !== null && i % plant.every === plant.every >> 1 && plant.ids.length < plant.sessions;
    if (planted) conversation.splice(1, 0, { kind: 'say', role: 'user', text: `The courier's tracking number is ${plant.text}, if that helps.` });
    const calls = conversation.filter((s) => s.kind === 'call').length;
    let written = writeSession(
      {
        domain,
        mode,
        flow: mode === 'recorded' ? null : (flows.get(name) ?? null),
        conversation,
        startedMs,
        pid,
        agentModel: rng.pick(AGENT_MODELS),
        clientName: rng.pick(CLIENTS),
        judge: name === 'travel' ? 'off' : rng.chance(0.3) ? (mode === 'served' && rng.chance(0.5) ? 'enforce' : 'log') : 'off',
        surpriseAfter: mode !== 'recorded' && calls >= 4 && rng.chance(0.06) ? 1 : null,
        banner: name === 'retail' && rng.chance(0.5) ? `${domain.serverName} 1.4.2 listening on stdio` : null,
        torn: rng.chance(0.01),
      },
      rng,
    );
    while (ids.has(written.id)) {
      pid += 1;
      written = { ...written, id: `${written.id.replace(/-\d+$/, '')}-${pid}` };
    }
    ids.add(written.id);
    const sub = `${MODE_DIR[mode]}/${name}`;
    if (!made.has(sub)) mkdirSync(join(dir, sub), { recursive: true });
    made.add(sub);
    const base = join(dir, sub, written.id);
    // A collision renamed the id: the header must say the same.
    const log = written.log.replace(/"session":"[^"]*"/, `"session":"${written.id}"`);
    writeFileSync(`${base}.jsonl`, log);
    if (written.flowLog !== null) writeFileSync(`${base}.flow.jsonl`, written.flowLog);
    if (written.confirmLog !== null) writeFileSync(`${base}.confirm.jsonl`, written.confirmLog);
    // A real log was last written when its session ended, not when this generator ran.
    const endedAt = new Date(Math.min(startedMs + 60_000, Date.now()));
    for (const suffix of ['.jsonl', '.flow.jsonl', '.confirm.jsonl']) {
      if (suffix === '.jsonl' || (suffix === '.flow.jsonl' ? written.flowLog : written.confirmLog) !== null) utimesSync(`${base}${suffix}`, endedAt, endedAt);
    }
    // An empty flow log makes the session recorded (session-format §6.6).
    const actual: Mode = mode !== 'recorded' && (written.flowLog ?? '') === '' ? 'recorded' : mode;
    result.sessions.push({
      rel: `${sub}/${written.id}.jsonl`,
      id: written.id,
      domain: name,
      mode: actual,
      startedMs,
      flowLog: written.flowLog === null ? null : `${sub}/${written.id}.flow.jsonl`,
      confirmLog: written.confirmLog === null ? null : `${sub}/${written.id}.confirm.jsonl`,
    });
    if (planted) plant.ids.push(written.id);
    result.byMode[actual] += 1;
    result.byDomain[name] = (result.byDomain[name] ?? 0) + 1;
  }

  // Staged learning on the shop flow: a staged flow learned from more sessions, and its state.
  if (shop) {
    const stageRng = root.fork(4);
    try {
      const domain = domainOf('shop');
      const conversations: Step[][] = Array.from({ length: TRAINING_CONVERSATIONS + 16 }, () => domain.conversation(stageRng));
      const staged = learnFlow(domain, conversations, { compiledMs: nowMs - DAY_MS + stageRng.int(0, DAY_MS / 2), sources: ['claude-sonnet-4-5', 'gpt-5'], program: true });
      const ids = result.sessions.filter((x) => x.domain === 'shop').map((x) => x.id).sort().slice(-40);
      const files = stageFiles('shop', JSON.stringify(shop.json), JSON.stringify(staged.json), ids, stageRng);
      writeFileSync(join(dir, 'shop.staged.flow.json'), files.staged + '\n');
      writeFileSync(join(dir, 'shop.stage.json'), files.state);
      result.flows.push({ rel: 'shop.staged.flow.json', domain: 'shop', loads: true });
    } catch (err) {
      result.warnings.push(`no staged shop flow: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // Big logs: recorded retail sessions that page through the catalogue.
  const bigRng = root.fork(3);
  for (const mb of options.big ?? []) {
    mkdirSync(join(dir, 'logs/retail'), { recursive: true });
    const startedMs = Math.round(nowMs - bigRng.int(1, days) * DAY_MS + bigRng.int(0, DAY_MS / 2));
    const big = await writeBigLog(join(dir, 'logs/retail'), mb, startedMs, bigRng.int(1000, 65000), bigRng);
    result.big.push({ rel: `logs/retail/${big.id}.jsonl`, ...big });
  }

  writeFileSync(join(dir, 'servers.json'), registryText(domains, nowMs));
  return result;
}

/** The server registry (console-api.md §4.15), pretty-printed as the console writes it. */
function registryText(domains: string[], nowMs: number): string {
  const at = (daysAgo: number) => nowMs - daysAgo * DAY_MS;
  const servers: Record<string, unknown>[] = [];
  if (domains.includes('shop')) {
    servers.push({
      name: 'shop',
      description: "The demo shop's orders, served with its flow",
      upstream: { kind: 'stdio', command: domainOf('shop').serverCommand, env: [] },
      mode: 'serve',
      flow: 'shop.flow.json',
      record_dir: 'served/shop',
      decider: null,
      threshold: null,
      created_unix_ms: at(21),
      updated_unix_ms: at(6),
    });
  }
  if (domains.includes('retail')) {
    servers.push({
      name: 'retail',
      description: 'Store stock and holds, recording only',
      upstream: { kind: 'stdio', command: domainOf('retail').serverCommand, env: ['STORE_API_KEY'] },
      mode: 'record',
      flow: null,
      record_dir: null,
      decider: null,
      threshold: null,
      created_unix_ms: at(20),
      updated_unix_ms: at(20),
    });
  }
  if (domains.includes('travel')) {
    servers.push({
      name: 'travel',
      description: 'Flight reservations over Streamable HTTP, with its flow in shadow',
      upstream: { kind: 'http', url: domainOf('travel').serverCommand[0], headers: [{ name: 'Authorization', env: 'AIRLINE_MCP_TOKEN' }] },
      mode: 'shadow',
      flow: 'travel.flow.json',
      record_dir: 'shadow/travel',
      decider: 'habit',
      threshold: 0.4,
      created_unix_ms: at(19),
      updated_unix_ms: at(2),
    });
  }
  servers.push({
    name: 'billing',
    description: null,
    upstream: { kind: 'stdio', command: ['uvx', 'billing-mcp'], env: ['BILLING_DB_URL'] },
    mode: 'shadow',
    flow: null,
    record_dir: null,
    decider: null,
    threshold: null,
    created_unix_ms: at(1),
    updated_unix_ms: at(1),
  });
  return JSON.stringify({ engine_servers: 1, servers }, null, 2) + '\n';
}
