// Host configuration as the CLI's `engine init` prints it: the proxy's argv, the snippet per host, where it
// goes, and the next steps from the current configuration to a served flow. The console's config view must
// equal the CLI's text byte for byte, so every sentence here is the CLI's. The caller builds the Setup
// (paths already shown as the host gets them); nothing here reads files or the environment.
import type { DeciderName } from '../../shared/flows.ts';
import type { Host } from '../../shared/servers.ts';
import { display } from './format.ts';
import { shellJoin, shellQuote } from './shell.ts';

/** A flow the proxy runs, as the host passes it. */
export interface ServedFlow {
  /** The flow file, as the host passes it (may start with `~`). */
  path: string;
  /** The flow loads and has an arbiter. */
  arbiter: boolean;
  /** The flow holds reach counts, or does not load. */
  reach: boolean;
  /** Decide and log, but look nothing up. */
  shadow: boolean;
  decideWith: DeciderName | null;
  threshold: number | null;
  /** The surprise gate in place of the flow's own (`--flow-surprise`): `off` or a threshold in nats. */
  surprise?: 'off' | number | null;
  /** The only tools the flow may call on its own (`--flow-tools`); none, every lookup it knows. */
  tools?: readonly string[];
}

/** What the proxy does besides recording and running a flow (a later engine's registry fields). */
export interface Policy {
  guards: boolean;
  judge: { enforce: boolean; context: string } | null;
  commit: boolean;
  retainDays: number | null;
}

/** One proxy that hosts connect to by URL (`--listen`), in place of each host starting its own. */
export interface Listening {
  addr: string;
  /** As the host passes it. */
  tokenFile: string | null;
}

/** The variable a host's JSON configuration reads the listening proxy's token from. */
const TOKEN_VAR = 'ENGINE_PROXY_TOKEN';

/** One server behind the proxy, as `init` sets it up. */
export interface Setup {
  /** The server's name in the host: also the domain of its sessions and flow. */
  domain: string;
  /** Where the proxy records sessions, as the host passes it. */
  record: string;
  flow: ServedFlow | null;
  /** `engine-proxy` or its full path. */
  proxy: string;
  /** The stdio server's command; empty for an HTTP upstream. */
  server: string[];
  upstream: { url: string; headers: [name: string, variable: string][] } | null;
  /** Absent: none of it (a spec-era entry). */
  policy?: Policy;
  listen?: Listening | null;
}

/** The decider passed to the proxy: the one asked for; none for an arbiter; else reach or habit. */
function deciderArg(flow: ServedFlow): DeciderName | null {
  if (flow.decideWith) return flow.decideWith;
  if (flow.arbiter) return null;
  return flow.reach ? 'reach' : 'habit';
}

/** The server as the proxy's last arguments: `--upstream` and its headers, or `--` and the command. */
function targetArgs(setup: Setup): string[] {
  if (setup.upstream) {
    const args = ['--upstream', setup.upstream.url];
    for (const [name, variable] of setup.upstream.headers) args.push('--upstream-header', `${name}=${variable}`);
    return args;
  }
  return ['--', ...setup.server];
}

/** The policy flags, in the proxy's order: retention, guards, the judge, commit. */
function policyArgs(policy: Policy | undefined): string[] {
  if (!policy) return [];
  const args: string[] = [];
  if (policy.retainDays !== null) args.push('--retain-days', String(policy.retainDays));
  if (policy.guards) args.push('--guards');
  if (policy.judge) args.push('--confirm-judge', policy.judge.enforce ? 'enforce' : 'log', '--context', policy.judge.context);
  if (policy.commit) args.push('--commit');
  return args;
}

function listenArgs(listen: Listening): string[] {
  return listen.tokenFile === null ? ['--listen', listen.addr] : ['--listen', listen.addr, '--listen-token-file', listen.tokenFile];
}

/** The argv of a proxy a host starts itself, over stdio, without the program. */
function stdioArgs(setup: Setup): string[] {
  const args = ['--record', setup.record, '--domain', setup.domain];
  const flow = setup.flow;
  if (flow) {
    args.push('--flow', flow.path);
    const decider = deciderArg(flow);
    if (decider) args.push('--flow-decider', decider);
    if (flow.threshold !== null) args.push('--flow-threshold', display(flow.threshold));
    if (flow.surprise != null) args.push('--flow-surprise', flow.surprise === 'off' ? 'off' : display(flow.surprise));
    if (flow.tools && flow.tools.length > 0) args.push('--flow-tools', flow.tools.join(','));
    if (flow.shadow) args.push('--flow-shadow');
  }
  args.push(...policyArgs(setup.policy), ...targetArgs(setup));
  return args;
}

/** The proxy's argv without the program: with `listen`, the one proxy hosts connect to (listening just before the server). */
export function proxyArgs(setup: Setup): string[] {
  const args = stdioArgs(setup);
  if (setup.listen) args.splice(args.length - targetArgs(setup).length, 0, ...listenArgs(setup.listen));
  return args;
}

/** An IP literal that means every address: 0.0.0.0 or an IPv6 of zeros (`[::]`), with a port. */
function unspecified(addr: string): 'v4' | 'v6' | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):\d+$/.exec(addr);
  if (v4) return v4.slice(1).every((n) => Number(n) === 0) ? 'v4' : null;
  const v6 = /^\[([0-9A-Fa-f:]+)\]:\d+$/.exec(addr);
  if (v6 && /^[0:]+$/.test(v6[1]!) && (v6[1]!.includes('::') || v6[1]!.split(':').length === 8)) return 'v6';
  return null;
}

/** The listening proxy's MCP endpoint, loopback named for an address that means every address. */
function listenUrl(listen: Listening): string {
  const port = listen.addr.slice(listen.addr.lastIndexOf(':') + 1);
  const kind = unspecified(listen.addr);
  const host = kind === 'v4' ? `127.0.0.1:${port}` : kind === 'v6' ? `[::1]:${port}` : listen.addr;
  return `http://${host}/mcp`;
}

/** The URL `host` connects to when the proxy listens; Claude Desktop starts its servers as commands, so never. */
function urlFor(setup: Setup, host: Host | null): string | null {
  return setup.listen && host !== null && host !== 'claude-desktop' ? listenUrl(setup.listen) : null;
}

/** The Authorization header value a JSON host sends the listening proxy, as that host expands a variable. */
function bearer(setup: Setup, host: Host): string | null {
  if (!setup.listen || setup.listen.tokenFile === null) return null;
  return host === 'claude-code' ? `Bearer \${${TOKEN_VAR}}` : `Bearer \${env:${TOKEN_VAR}}`;
}

/** The host's whole configuration file with only this server (JSON hosts), laid out as the CLI writes it. */
function configText(host: Host, setup: Setup): string {
  const j = (s: string) => JSON.stringify(s);
  const key = host === 'vscode' ? 'servers' : 'mcpServers';
  const url = urlFor(setup, host);
  let body: string;
  if (url !== null) {
    const fields: string[] = [];
    if (host !== 'cursor') fields.push('      "type": "http"');
    fields.push(`      "url": ${j(url)}`);
    const auth = bearer(setup, host);
    if (auth !== null) fields.push(`      "headers": { "Authorization": ${j(auth)} }`);
    body = `${fields.join(',\n')}\n`;
  } else {
    const type = host === 'vscode' ? '      "type": "stdio",\n' : '';
    body = `${type}      "command": ${j(setup.proxy)},\n      "args": [${stdioArgs(setup).map(j).join(', ')}]\n`;
  }
  return `{\n  "${key}": {\n    ${j(setup.domain)}: {\n${body}    }\n  }\n}\n`;
}

/** What the host takes: `claude mcp add …` for Claude Code, else the JSON configuration. */
export function snippet(host: Host, setup: Setup): string {
  if (host !== 'claude-code') return configText(host, setup);
  const url = urlFor(setup, host);
  if (url === null) return `${shellJoin(['claude', 'mcp', 'add', setup.domain, '--', setup.proxy, ...stdioArgs(setup)])}\n`;
  let text = shellJoin(['claude', 'mcp', 'add', '--transport', 'http', setup.domain, url]);
  const file = setup.listen?.tokenFile ?? null;
  // The shell reads the token from its file as it adds the server: the word is double-quoted on purpose.
  if (file !== null) text += ` --header "Authorization: Bearer $(cat ${shellQuote(file)})"`;
  return `${text}\n`;
}

/** What else `host` needs when the proxy listens, or null: the token's variable, every address, or Claude Desktop's own proxy. */
function listenNote(host: Host, setup: Setup, written = false): string | null {
  const listen = setup.listen;
  if (!listen) return null;
  if (host === 'claude-desktop') {
    return `Claude Desktop starts its servers as commands, so it runs a proxy of its own, over stdio, rather than connecting to the one at ${listenUrl(listen)}.`;
  }
  const notes: string[] = [];
  if (listen.tokenFile !== null && (written || host !== 'claude-code')) {
    notes.push(`The host sends the token from ${TOKEN_VAR}: set it, in the environment the host starts in, to the token in ${listen.tokenFile}.`);
  }
  if (unspecified(listen.addr) !== null) {
    notes.push("The proxy listens on every address: a host on another machine puts this one's name in the URL.");
  }
  return notes.length > 0 ? notes.join(' ') : null;
}

/** Where the configuration goes: one sentence per host, and what a listening proxy adds. */
export function placement(host: Host, setup?: Setup): string {
  const note = setup ? listenNote(host, setup) : null;
  return note === null ? hostPlacement(host) : `${hostPlacement(host)} ${note}`;
}

function hostPlacement(host: Host): string {
  switch (host) {
    case 'claude-code':
      return 'Run the command in the project where you use Claude Code. With `--scope user` it applies to every project; `--scope project` writes it to .mcp.json, to share.';
    case 'claude-desktop':
      return 'Merge it into claude_desktop_config.json (on macOS in ~/Library/Application Support/Claude/, on Windows in %APPDATA%\\Claude\\), then restart Claude Desktop.';
    case 'cursor':
      return 'Merge it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project).';
    case 'vscode':
      return 'Merge it into .vscode/mcp.json in the workspace, or into your user mcp.json (the command MCP: Open User Configuration).';
  }
}

const ARBITER_NOTE =
  "\nThis flow has an arbiter, which asks TypeSafe's Jev at each decision: give the server TYPESAFE_API_KEY (or TYPESAFE_API_KEY_FILE) in the host's `env`, or serve it with `--flow-decider habit`, which needs no key.\n";

function promoteStep(flow: string, sessions: string, promoted: string, arbiter: boolean, decider: string | null): string {
  const dec = decider ? ` --decider ${decider}` : '';
  const cache = arbiter ? ' --oracle-cache ~/.engine/oracle-cache' : '';
  return `Keep the flow to the calls where its lookups were the agent's own:\nengine promote --flow ${flow} --sessions ${sessions}${dec}${cache} --out ${promoted}`;
}

function serveStep(init: string, promoted: string, server: string, replace: string): string {
  return `Serve it: after each of the agent's calls, the flow's lookups ride in the same result. ${replace}:\n${init} --flow ${promoted} ${server}`;
}

/** Rust's str::lines: split at `\n`, no empty last line, a trailing `\r` dropped from each. */
function lines(text: string): string[] {
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * The steps from this configuration to a served flow. `init` reruns init for the same host and server
 * (`engine init --host {host} --domain {name}`); the policy and listening flags are added to it, the same at
 * every step. The flow paths are the CLI's, always under ~/.engine. `host` null: a host that starts its own
 * proxy (as every host does unless the proxy listens).
 */
export function nextSteps(setup: Setup, init: string, host: Host | null = null): string {
  const again = [init, ...[...policyArgs(setup.policy), ...(setup.listen ? listenArgs(setup.listen) : [])].map(shellQuote)].join(' ');
  const d = setup.domain;
  const server = targetArgs(setup).map(shellQuote).join(' ');
  const flowPath = `~/.engine/${d}.flow.json`;
  const promoted = `~/.engine/${d}-promoted.flow.json`;
  const record = setup.record;
  const flow = setup.flow;
  const steps: string[] = [];
  // A host that connects by URL keeps its configuration; the proxy changes.
  const url = urlFor(setup, host);
  let replaceAbove = 'Replace the configuration above with what this prints';
  let replace = 'Replace the configuration with what this prints';
  if (url !== null) {
    steps.push(
      `Start the proxy, and keep it running: each host that connects to ${url} gets a session of its own.\n${shellJoin([setup.proxy, ...proxyArgs(setup)])}`,
    );
    replaceAbove = replace = 'Restart the proxy with the command this prints';
  }
  if (!flow) {
    steps.push(
      `Use the agent as usual. The proxy records each session in ${record}.`,
      `Learn a flow from the sessions, with no key:\nengine learn --sessions ${record} --domain ${d} --habit-only --out ${flowPath}`,
      `Review what it may do: the tools it may call, the lookups it may make and where their arguments come from:\nengine flow-show ${flowPath}`,
      `Run it in shadow: it decides and logs, but looks nothing up. ${replaceAbove}:\n${again} --flow ${flowPath} --shadow ${server}`,
      promoteStep(flowPath, `~/.engine/shadow/${d}`, promoted, false, 'reach'),
      serveStep(again, promoted, server, replace),
    );
  } else if (flow.shadow) {
    steps.push(
      `Use the agent as usual. The proxy records each session in ${record}, and next to it what the flow would have looked up (<session>.flow.jsonl).`,
      promoteStep(flow.path, record, promoted, flow.arbiter, deciderArg(flow)),
      serveStep(again, promoted, server, replace),
    );
  } else {
    steps.push(
      `Use the agent as usual. After each of its calls, the flow's lookups ride in the same result. The proxy records each session in ${record}, and next to it each of the flow's decisions (<session>.flow.jsonl).`,
      `When the agent, its prompts or the server change, learn again and review what changed (flow-diff exits with 1 when a change needs review):\nengine learn --sessions ${record} --domain ${d} --habit-only --out ~/.engine/${d}-new.flow.json\nengine flow-diff ${flow.path} ~/.engine/${d}-new.flow.json`,
    );
  }
  let out = 'Next steps (docs/walkthrough.md runs them on a real server):\n';
  steps.forEach((step, i) => {
    const [first = '', ...rest] = lines(step);
    out += `\n${i + 1}. ${first}\n`;
    for (const line of rest) out += `     ${line}\n`;
  });
  if (flow?.arbiter) out += ARBITER_NOTE;
  const judge = setup.policy?.judge;
  if (judge) {
    out += `\nThe confirmation judge asks TypeSafe's Jev about each write the guards check for a confirmation: give the server TYPESAFE_API_KEY (or TYPESAFE_API_KEY_FILE) in the host's \`env\`. It reads the conversation from ${judge.context}, which the host appends to, one JSON line per message: {"role": "user" | "assistant", "content": text}.\n`;
  }
  return out;
}

/** Where the proxy the configuration names was found: on PATH, only beside the binary, or nowhere. */
export type ProxyFound = 'path' | 'beside' | 'nowhere';

/** What `engine init` prints to stderr about the proxy it names (nothing when it is on PATH). */
export function proxyNote(found: ProxyFound): string | null {
  if (found === 'beside') return 'engine: engine-proxy is not on PATH, so the configuration names it by its full path';
  if (found === 'nowhere') return 'engine: engine-proxy is not on PATH; install it before the host starts the server (docs/install.md)';
  return null;
}

/** Everything the config view shows for one host. */
export interface InitOutput {
  host: Host;
  language: 'shell' | 'json';
  snippet: string;
  placement: string;
  next_steps: string;
}

/** The snippet, where it goes and the next steps for `host`, as `engine init --host {host} --domain {name}` prints them. */
export function initOutput(host: Host, setup: Setup, name: string): InitOutput {
  return {
    host,
    language: host === 'claude-code' ? 'shell' : 'json',
    snippet: snippet(host, setup),
    placement: placement(host, setup),
    next_steps: nextSteps(setup, `engine init --host ${host} --domain ${name}`, host),
  };
}
