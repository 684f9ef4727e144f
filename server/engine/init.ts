// Host configuration as the CLI's `engine init` prints it: the proxy's argv, the snippet per host, where it
// goes, and the next steps from the current configuration to a served flow. The console's config view must
// equal the CLI's text byte for byte, so every sentence here is the CLI's. The caller builds the Setup
// (paths already shown as the host gets them); nothing here reads files or the environment.
import type { DeciderName } from '../../shared/flows.ts';
import { HOSTS, type Host } from '../../shared/servers.ts';
import { display } from './format.ts';
import { shellJoin, shellQuote } from './shell.ts';

export { HOSTS, type Host };

export function isHost(s: string): s is Host {
  return (HOSTS as readonly string[]).includes(s);
}

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
}

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
}

/** The decider passed to the proxy: the one asked for; none for an arbiter; else reach or habit. */
export function deciderArg(flow: ServedFlow): DeciderName | null {
  if (flow.decideWith) return flow.decideWith;
  if (flow.arbiter) return null;
  return flow.reach ? 'reach' : 'habit';
}

/** The server as the proxy's last arguments: `--upstream` and its headers, or `--` and the command. */
export function targetArgs(setup: Setup): string[] {
  if (setup.upstream) {
    const args = ['--upstream', setup.upstream.url];
    for (const [name, variable] of setup.upstream.headers) args.push('--upstream-header', `${name}=${variable}`);
    return args;
  }
  return ['--', ...setup.server];
}

/** The proxy's argv without the program. */
export function proxyArgs(setup: Setup): string[] {
  const args = ['--record', setup.record, '--domain', setup.domain];
  const flow = setup.flow;
  if (flow) {
    args.push('--flow', flow.path);
    const decider = deciderArg(flow);
    if (decider) args.push('--flow-decider', decider);
    if (flow.threshold !== null) args.push('--flow-threshold', display(flow.threshold));
    if (flow.shadow) args.push('--flow-shadow');
  }
  args.push(...targetArgs(setup));
  return args;
}

/** The host's whole configuration file with only this server (JSON hosts), laid out as the CLI writes it. */
export function configText(host: Host, setup: Setup): string {
  const j = (s: string) => JSON.stringify(s);
  const key = host === 'vscode' ? 'servers' : 'mcpServers';
  const type = host === 'vscode' ? '      "type": "stdio",\n' : '';
  const args = proxyArgs(setup).map(j).join(', ');
  return `{\n  "${key}": {\n    ${j(setup.domain)}: {\n${type}      "command": ${j(setup.proxy)},\n      "args": [${args}]\n    }\n  }\n}\n`;
}

/** What the host takes: `claude mcp add …` for Claude Code, else the JSON configuration. */
export function snippet(host: Host, setup: Setup): string {
  if (host === 'claude-code') {
    return `${shellJoin(['claude', 'mcp', 'add', setup.domain, '--', setup.proxy, ...proxyArgs(setup)])}\n`;
  }
  return configText(host, setup);
}

/** Where the configuration goes, one sentence per host. */
export function placement(host: Host): string {
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

function serveStep(init: string, promoted: string, server: string): string {
  return `Serve it: after each of the agent's calls, the flow's lookups ride in the same result. Replace the configuration with what this prints:\n${init} --flow ${promoted} ${server}`;
}

/** Rust's str::lines: split at `\n`, no empty last line, a trailing `\r` dropped from each. */
function lines(text: string): string[] {
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * The steps from this configuration to a served flow. `init` reruns init for the same host and server
 * (`engine init --host {host} --domain {name}`). The flow paths are the CLI's, always under ~/.engine.
 */
export function nextSteps(setup: Setup, init: string): string {
  const d = setup.domain;
  const server = targetArgs(setup).map(shellQuote).join(' ');
  const flowPath = `~/.engine/${d}.flow.json`;
  const promoted = `~/.engine/${d}-promoted.flow.json`;
  const record = setup.record;
  const flow = setup.flow;
  let steps: string[];
  if (!flow) {
    steps = [
      `Use the agent as usual. The proxy records each session in ${record}.`,
      `Learn a flow from the sessions, with no key:\nengine learn --sessions ${record} --domain ${d} --habit-only --out ${flowPath}`,
      `Review what it may do: the tools it may call, the lookups it may make and where their arguments come from:\nengine flow-show ${flowPath}`,
      `Run it in shadow: it decides and logs, but looks nothing up. Replace the configuration above with what this prints:\n${init} --flow ${flowPath} --shadow ${server}`,
      promoteStep(flowPath, `~/.engine/shadow/${d}`, promoted, false, 'reach'),
      serveStep(init, promoted, server),
    ];
  } else if (flow.shadow) {
    steps = [
      `Use the agent as usual. The proxy records each session in ${record}, and next to it what the flow would have looked up (<session>.flow.jsonl).`,
      promoteStep(flow.path, record, promoted, flow.arbiter, deciderArg(flow)),
      serveStep(init, promoted, server),
    ];
  } else {
    steps = [
      `Use the agent as usual. After each of its calls, the flow's lookups ride in the same result. The proxy records each session in ${record}, and next to it each of the flow's decisions (<session>.flow.jsonl).`,
      `When the agent, its prompts or the server change, learn again and review what changed (flow-diff exits with 1 when a change needs review):\nengine learn --sessions ${record} --domain ${d} --habit-only --out ~/.engine/${d}-new.flow.json\nengine flow-diff ${flow.path} ~/.engine/${d}-new.flow.json`,
    ];
  }
  let out = 'Next steps (docs/walkthrough.md runs them on a real server):\n';
  steps.forEach((step, i) => {
    const [first = '', ...rest] = lines(step);
    out += `\n${i + 1}. ${first}\n`;
    for (const line of rest) out += `     ${line}\n`;
  });
  if (flow?.arbiter) out += ARBITER_NOTE;
  return out;
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
    placement: placement(host),
    next_steps: nextSteps(setup, `engine init --host ${host} --domain ${name}`),
  };
}
