import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  HOSTS,
  initOutput,
  nextSteps,
  placement,
  proxyArgs,
  snippet,
  type Host,
  type Setup,
} from '../../server/engine/init.ts';
import { expectedText } from '../support/fixtures.ts';

// Expected texts below are written out from init-doctor-stage.md §1.2–1.6 (templates and examples), not
// computed, so a change in any byte fails.

const notesCommand = ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'];

const record: Setup = {
  domain: 'notes',
  record: '~/.engine/logs/notes',
  flow: null,
  proxy: 'engine-proxy',
  server: notesCommand,
  upstream: null,
};

const shadow: Setup = {
  domain: 'notes',
  record: '~/.engine/shadow/notes',
  flow: { path: '/home/me/.engine/notes.flow.json', arbiter: false, reach: true, shadow: true, decideWith: null, threshold: null },
  proxy: 'engine-proxy',
  server: notesCommand,
  upstream: null,
};

const serve: Setup = {
  domain: 'notes',
  record: '~/.engine/served/notes',
  flow: { path: '~/.engine/notes.flow.json', arbiter: false, reach: true, shadow: false, decideWith: 'habit', threshold: 0.5 },
  proxy: 'engine-proxy',
  server: [],
  upstream: { url: 'https://example.com/mcp', headers: [['Authorization', 'NOTES_AUTH']] },
};

const recordArgs = ['--record', '~/.engine/logs/notes', '--domain', 'notes', '--', ...notesCommand];
const shadowArgs = [
  '--record', '~/.engine/shadow/notes', '--domain', 'notes',
  '--flow', '/home/me/.engine/notes.flow.json', '--flow-decider', 'reach', '--flow-shadow',
  '--', ...notesCommand,
];
const serveArgs = [
  '--record', '~/.engine/served/notes', '--domain', 'notes',
  '--flow', '~/.engine/notes.flow.json', '--flow-decider', 'habit', '--flow-threshold', '0.5',
  '--upstream', 'https://example.com/mcp', '--upstream-header', 'Authorization=NOTES_AUTH',
];

const snippets: Record<'record' | 'shadow' | 'serve', Record<Host, string>> = {
  record: {
    'claude-code':
      'claude mcp add notes -- engine-proxy --record ~/.engine/logs/notes --domain notes -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes\n',
    'claude-desktop': `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/logs/notes", "--domain", "notes", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
    cursor: `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/logs/notes", "--domain", "notes", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
    vscode: `{
  "servers": {
    "notes": {
      "type": "stdio",
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/logs/notes", "--domain", "notes", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
  },
  shadow: {
    'claude-code':
      'claude mcp add notes -- engine-proxy --record ~/.engine/shadow/notes --domain notes --flow /home/me/.engine/notes.flow.json --flow-decider reach --flow-shadow -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes\n',
    'claude-desktop': `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/shadow/notes", "--domain", "notes", "--flow", "/home/me/.engine/notes.flow.json", "--flow-decider", "reach", "--flow-shadow", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
    cursor: `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/shadow/notes", "--domain", "notes", "--flow", "/home/me/.engine/notes.flow.json", "--flow-decider", "reach", "--flow-shadow", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
    vscode: `{
  "servers": {
    "notes": {
      "type": "stdio",
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/shadow/notes", "--domain", "notes", "--flow", "/home/me/.engine/notes.flow.json", "--flow-decider", "reach", "--flow-shadow", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    }
  }
}
`,
  },
  serve: {
    'claude-code':
      'claude mcp add notes -- engine-proxy --record ~/.engine/served/notes --domain notes --flow ~/.engine/notes.flow.json --flow-decider habit --flow-threshold 0.5 --upstream https://example.com/mcp --upstream-header Authorization=NOTES_AUTH\n',
    'claude-desktop': `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/served/notes", "--domain", "notes", "--flow", "~/.engine/notes.flow.json", "--flow-decider", "habit", "--flow-threshold", "0.5", "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=NOTES_AUTH"]
    }
  }
}
`,
    cursor: `{
  "mcpServers": {
    "notes": {
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/served/notes", "--domain", "notes", "--flow", "~/.engine/notes.flow.json", "--flow-decider", "habit", "--flow-threshold", "0.5", "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=NOTES_AUTH"]
    }
  }
}
`,
    vscode: `{
  "servers": {
    "notes": {
      "type": "stdio",
      "command": "engine-proxy",
      "args": ["--record", "~/.engine/served/notes", "--domain", "notes", "--flow", "~/.engine/notes.flow.json", "--flow-decider", "habit", "--flow-threshold", "0.5", "--upstream", "https://example.com/mcp", "--upstream-header", "Authorization=NOTES_AUTH"]
    }
  }
}
`,
  },
};

function recordSteps(host: Host): string {
  return `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. The proxy records each session in ~/.engine/logs/notes.

2. Learn a flow from the sessions, with no key:
     engine learn --sessions ~/.engine/logs/notes --domain notes --habit-only --out ~/.engine/notes.flow.json

3. Review what it may do: the tools it may call, the lookups it may make and where their arguments come from:
     engine flow-show ~/.engine/notes.flow.json

4. Run it in shadow: it decides and logs, but looks nothing up. Replace the configuration above with what this prints:
     engine init --host ${host} --domain notes --flow ~/.engine/notes.flow.json --shadow -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes

5. Keep the flow to the calls where its lookups were the agent's own:
     engine promote --flow ~/.engine/notes.flow.json --sessions ~/.engine/shadow/notes --decider reach --out ~/.engine/notes-promoted.flow.json

6. Serve it: after each of the agent's calls, the flow's lookups ride in the same result. Replace the configuration with what this prints:
     engine init --host ${host} --domain notes --flow ~/.engine/notes-promoted.flow.json -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes
`;
}

function shadowSteps(host: Host): string {
  return `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. The proxy records each session in ~/.engine/shadow/notes, and next to it what the flow would have looked up (<session>.flow.jsonl).

2. Keep the flow to the calls where its lookups were the agent's own:
     engine promote --flow /home/me/.engine/notes.flow.json --sessions ~/.engine/shadow/notes --decider reach --out ~/.engine/notes-promoted.flow.json

3. Serve it: after each of the agent's calls, the flow's lookups ride in the same result. Replace the configuration with what this prints:
     engine init --host ${host} --domain notes --flow ~/.engine/notes-promoted.flow.json -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes
`;
}

function serveSteps(): string {
  return `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. After each of its calls, the flow's lookups ride in the same result. The proxy records each session in ~/.engine/served/notes, and next to it each of the flow's decisions (<session>.flow.jsonl).

2. When the agent, its prompts or the server change, learn again and review what changed (flow-diff exits with 1 when a change needs review):
     engine learn --sessions ~/.engine/served/notes --domain notes --habit-only --out ~/.engine/notes-new.flow.json
     engine flow-diff ~/.engine/notes.flow.json ~/.engine/notes-new.flow.json
`;
}

const placements: Record<Host, string> = {
  'claude-code':
    'Run the command in the project where you use Claude Code. With `--scope user` it applies to every project; `--scope project` writes it to .mcp.json, to share.',
  'claude-desktop':
    'Merge it into claude_desktop_config.json (on macOS in ~/Library/Application Support/Claude/, on Windows in %APPDATA%\\Claude\\), then restart Claude Desktop.',
  cursor: 'Merge it into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project).',
  vscode: 'Merge it into .vscode/mcp.json in the workspace, or into your user mcp.json (the command MCP: Open User Configuration).',
};

const init = suite('init');

init('the proxy argv follows the CLI order for record, shadow and serve', () => {
  assert.equal(proxyArgs(record), recordArgs);
  assert.equal(proxyArgs(shadow), shadowArgs);
  assert.equal(proxyArgs(serve), serveArgs);
});

init('the decider is none for an arbiter, reach with reach counts, habit without, and the one asked for', () => {
  const base = shadow.flow!;
  const decider = (f: Partial<typeof base>) => {
    const args = proxyArgs({ ...shadow, flow: { ...base, ...f } });
    const at = args.indexOf('--flow-decider');
    return at === -1 ? null : args[at + 1];
  };
  assert.is(decider({ arbiter: true, reach: true }), null);
  assert.is(decider({ arbiter: false, reach: true }), 'reach');
  assert.is(decider({ arbiter: false, reach: false }), 'habit');
  assert.is(decider({ arbiter: true, decideWith: 'habit' }), 'habit');
});

for (const host of HOSTS) {
  init(`${host}: the record, shadow and serve outputs equal the CLI's byte for byte`, () => {
    const cases: ['record' | 'shadow' | 'serve', Setup, string][] = [
      ['record', record, recordSteps(host)],
      ['shadow', shadow, shadowSteps(host)],
      ['serve', serve, serveSteps()],
    ];
    for (const [mode, setup, steps] of cases) {
      const out = initOutput(host, setup, 'notes');
      assert.is(out.host, host);
      assert.is(out.language, host === 'claude-code' ? 'shell' : 'json');
      assert.fixture(out.snippet, snippets[mode][host], `${mode} snippet`);
      assert.is(out.placement, placements[host]);
      assert.fixture(out.next_steps, steps, `${mode} next steps`);
    }
  });
}

init('the reference Claude Code example quotes an argument with a quote in it', () => {
  const setup: Setup = { ...record, server: [...notesCommand, "it's here"] };
  assert.is(
    snippet('claude-code', setup),
    "claude mcp add notes -- engine-proxy --record ~/.engine/logs/notes --domain notes -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes 'it'\\''s here'\n",
  );
});

init('an HTTP upstream in record mode puts the upstream words in the rerun lines', () => {
  const setup: Setup = { ...record, server: [], upstream: serve.upstream };
  const steps = nextSteps(setup, 'engine init --host cursor --domain notes');
  // §1.6: "With an HTTP upstream, {server} is for example --upstream https://example.com/mcp …".
  assert.fixture(steps, recordSteps('cursor').replaceAll('-- ' + notesCommand.join(' '), '--upstream https://example.com/mcp --upstream-header Authorization=NOTES_AUTH'));
});

init('a flow with an arbiter adds the oracle cache and the key note, and passes no decider', () => {
  const setup: Setup = {
    ...shadow,
    proxy: '/usr/local/bin/engine-proxy',
    flow: { ...shadow.flow!, arbiter: true },
  };
  assert.fixture(
    nextSteps(setup, 'engine init --host claude-desktop --domain notes'),
    `Next steps (docs/walkthrough.md runs them on a real server):

1. Use the agent as usual. The proxy records each session in ~/.engine/shadow/notes, and next to it what the flow would have looked up (<session>.flow.jsonl).

2. Keep the flow to the calls where its lookups were the agent's own:
     engine promote --flow /home/me/.engine/notes.flow.json --sessions ~/.engine/shadow/notes --oracle-cache ~/.engine/oracle-cache --out ~/.engine/notes-promoted.flow.json

3. Serve it: after each of the agent's calls, the flow's lookups ride in the same result. Replace the configuration with what this prints:
     engine init --host claude-desktop --domain notes --flow ~/.engine/notes-promoted.flow.json -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes

This flow has an arbiter, which asks TypeSafe's Jev at each decision: give the server TYPESAFE_API_KEY (or TYPESAFE_API_KEY_FILE) in the host's \`env\`, or serve it with \`--flow-decider habit\`, which needs no key.
`,
  );
  // The shadow snippet with the proxy's own path and, with an arbiter, no decider (§1.2).
  assert.fixture(
    snippet('claude-desktop', setup),
    snippets.shadow['claude-desktop']
      .replace('"command": "engine-proxy",', '"command": "/usr/local/bin/engine-proxy",')
      .replace('"--flow-decider", "reach", ', ''),
  );
});

init('JSON snippets escape as JSON.stringify does', () => {
  const setup: Setup = { ...record, server: ['srv', 'a"b\\c', 'tab\there', 'é'] };
  assert.fixture(
    snippet('cursor', setup),
    snippets.record.cursor.replace(notesCommand.map((w) => `"${w}"`).join(', '), '"srv", "a\\"b\\\\c", "tab\\there", "é"'),
  );
});

init('a threshold prints as the CLI prints floats', () => {
  const args = proxyArgs({ ...serve, flow: { ...serve.flow!, threshold: 1 } });
  assert.is(args[args.indexOf('--flow-threshold') + 1], '1');
});

init('each host has its own placement sentence', () => {
  for (const host of HOSTS) assert.is(placement(host), placements[host]);
});

// The later engine's policy and listening proxy (init-doctor-stage.md Appendix A; the original's later init.rs).
const policy = { guards: true, judge: { enforce: false, context: '~/.engine/context/retail.jsonl' }, commit: true, retainDays: 30 };
const retail: Setup = {
  ...record,
  domain: 'retail',
  record: '~/.engine/logs/retail',
  policy,
};

init('the later flags come in the later argv order: surprise and tools before --flow-shadow, policy before the target', () => {
  const setup: Setup = {
    ...shadow,
    flow: { ...shadow.flow!, threshold: 0.5, surprise: 2.5, tools: ['read_text_file', 'list_directory'] },
    policy,
  };
  assert.equal(proxyArgs(setup), [
    '--record', '~/.engine/shadow/notes', '--domain', 'notes',
    '--flow', '/home/me/.engine/notes.flow.json', '--flow-decider', 'reach', '--flow-threshold', '0.5',
    '--flow-surprise', '2.5', '--flow-tools', 'read_text_file,list_directory', '--flow-shadow',
    '--retain-days', '30', '--guards', '--confirm-judge', 'log', '--context', '~/.engine/context/retail.jsonl', '--commit',
    '--', ...notesCommand,
  ]);
  const off = proxyArgs({ ...serve, flow: { ...serve.flow!, surprise: 'off' }, policy: { ...policy, judge: { enforce: true, context: 'c' }, commit: false, retainDays: null } });
  assert.equal(off.slice(10), [
    '--flow-surprise', 'off', '--guards', '--confirm-judge', 'enforce', '--context', 'c',
    '--upstream', 'https://example.com/mcp', '--upstream-header', 'Authorization=NOTES_AUTH',
  ]);
});

init('the next steps rerun init with the policy and say what the judge needs', () => {
  const steps = nextSteps(retail, 'engine init --host cursor --domain retail', 'cursor');
  // Appendix A names these steps without printing them: the expected text is our output, checked against
  // §1.6's layout and the original's later init.rs wording (spec/fixtures/README.md).
  assert.fixture(steps, expectedText('init/policy-cursor.txt'));
  assert.match(
    steps,
    '\n     engine init --host cursor --domain retail --retain-days 30 --guards --confirm-judge log --context ~/.engine/context/retail.jsonl --commit --flow ~/.engine/retail.flow.json --shadow -- npx -y @modelcontextprotocol/server-filesystem /home/me/notes\n',
  );
  assert.match(
    steps,
    /\nThe confirmation judge asks TypeSafe's Jev about each write the guards check for a confirmation: give the server TYPESAFE_API_KEY \(or TYPESAFE_API_KEY_FILE\) in the host's `env`\. It reads the conversation from ~\/\.engine\/context\/retail\.jsonl, which the host appends to, one JSON line per message: \{"role": "user" \| "assistant", "content": text\}\.\n$/,
  );
});

init('a listening proxy gives each host its URL, loopback for every address, and Claude Desktop a proxy of its own', () => {
  const setup: Setup = { ...record, listen: { addr: '0.0.0.0:8931', tokenFile: '~/.engine/proxy-token' } };
  assert.equal(proxyArgs(setup).slice(4, 9), ['--listen', '0.0.0.0:8931', '--listen-token-file', '~/.engine/proxy-token', '--']);
  assert.is(
    snippet('claude-code', setup),
    'claude mcp add --transport http notes http://127.0.0.1:8931/mcp --header "Authorization: Bearer $(cat ~/.engine/proxy-token)"\n',
  );
  assert.fixture(
    snippet('cursor', setup),
    '{\n  "mcpServers": {\n    "notes": {\n      "url": "http://127.0.0.1:8931/mcp",\n      "headers": { "Authorization": "Bearer ${env:ENGINE_PROXY_TOKEN}" }\n    }\n  }\n}\n',
  );
  assert.fixture(
    snippet('vscode', setup),
    '{\n  "servers": {\n    "notes": {\n      "type": "http",\n      "url": "http://127.0.0.1:8931/mcp",\n      "headers": { "Authorization": "Bearer ${env:ENGINE_PROXY_TOKEN}" }\n    }\n  }\n}\n',
  );
  // Claude Desktop starts the proxy itself, over stdio: no --listen in its args.
  assert.fixture(snippet('claude-desktop', setup), snippets.record['claude-desktop']);
  assert.match(placement('claude-desktop', setup), /rather than connecting to the one at http:\/\/127\.0\.0\.1:8931\/mcp\.$/);
  const everywhere = " The proxy listens on every address: a host on another machine puts this one's name in the URL.";
  assert.is(
    placement('cursor', setup),
    `${placements.cursor} The host sends the token from ENGINE_PROXY_TOKEN: set it, in the environment the host starts in, to the token in ~/.engine/proxy-token.${everywhere}`,
  );
  assert.is(placement('claude-code', setup), `${placements['claude-code']}${everywhere}`);
  // Our output, checked against §1.6's layout (spec/fixtures/README.md): a first step that starts the
  // listening proxy, and "Restart the proxy" where a stdio host would replace its configuration.
  const steps = nextSteps(setup, 'engine init --host cursor --domain notes', 'cursor');
  assert.fixture(steps, expectedText('init/listen-cursor.txt'));
  const desktopSteps = nextSteps(setup, 'engine init --host claude-desktop --domain notes', 'claude-desktop');
  assert.fixture(desktopSteps, expectedText('init/listen-claude-desktop.txt'));
  assert.not.match(desktopSteps, 'Start the proxy');
  // Without a token no header; a named address is its own URL; [::] is shown as [::1].
  const plain: Setup = { ...record, listen: { addr: '127.0.0.1:8931', tokenFile: null } };
  assert.is(snippet('claude-code', plain), 'claude mcp add --transport http notes http://127.0.0.1:8931/mcp\n');
  assert.is(placement('cursor', plain), placements.cursor);
  const urlSnippet = (url: string) => `{\n  "mcpServers": {\n    "notes": {\n      "url": "${url}"\n    }\n  }\n}\n`;
  assert.fixture(snippet('cursor', { ...record, listen: { addr: '[::]:1', tokenFile: null } }), urlSnippet('http://[::1]:1/mcp'));
  assert.fixture(snippet('cursor', { ...record, listen: { addr: 'localhost:1', tokenFile: null } }), urlSnippet('http://localhost:1/mcp'));
  assert.fixture(snippet('cursor', { ...record, listen: { addr: '[0:0:0:0:0:0:0:0]:2', tokenFile: null } }), urlSnippet('http://[::1]:2/mcp'));
  assert.fixture(snippet('cursor', { ...record, listen: { addr: '[::1]:3', tokenFile: null } }), urlSnippet('http://[::1]:3/mcp'));
});

init.run();
