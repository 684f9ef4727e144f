// The rules a registry entry's name and proxy policy must meet, as valibot pipes: the registry
// (server/data/registry.ts) and the server form (client/src/lib/server-form.ts) both check with these and
// word their own messages.
import * as v from 'valibot';
import { REGISTRY_ARG_BYTES_MAX, REGISTRY_DESCRIPTION_MAX, REGISTRY_NAME_MAX } from './limits.ts';

export const FLOW_TOOLS_MAX = 256;
export const TOOL_NAME_BYTES_MAX = 128;
export const JUDGE_CONTEXT_BYTES_MAX = 4096;

const ENCODER = new TextEncoder();
const bytes = (s: string): number => ENCODER.encode(s).length;
const CONTROL = /\p{Cc}/u;

/** The domains whose proxy has policy guards. */
export const GUARDED_DOMAINS = ['retail', 'airline'] as const;
export const GuardedDomainSchema = v.picklist(GUARDED_DOMAINS);

/** A server's name: the domain of its sessions and flows. */
export const ServerNameSchema = v.pipe(v.string(), v.regex(new RegExp(`^[a-z0-9][a-z0-9_-]{0,${REGISTRY_NAME_MAX - 1}}$`)));

export const DescriptionSchema = v.pipe(v.string(), v.check((s) => [...s].length <= REGISTRY_DESCRIPTION_MAX));

/** One tool the flow may serve (the proxy takes them comma-separated). */
export const ToolNameSchema = v.pipe(
  v.string(),
  v.nonEmpty(),
  v.check((t) => bytes(t) <= TOOL_NAME_BYTES_MAX && !/[\s,\p{Cc}]/u.test(t)),
);
export const FlowToolsSchema = v.pipe(v.array(v.string()), v.maxLength(FLOW_TOOLS_MAX));

/** The file the host appends the conversation to, for the judge (trimmed). */
export const JudgeContextSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(),
  v.check((c) => bytes(c) <= JUDGE_CONTEXT_BYTES_MAX && !CONTROL.test(c)),
);

// host:port, the host an IPv4 address, a bracketed IPv6 address or a name; the port from 1 to 65535.
const LISTEN_ADDR = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?):(\d{1,5})$/;
export const ListenAddrSchema = v.pipe(
  v.string(),
  v.trim(),
  v.check((addr) => {
    const port = Number(LISTEN_ADDR.exec(addr)?.[1] ?? 0);
    return port >= 1 && port <= 65535;
  }),
);

/** The listening proxy's token file, trimmed: empty when there is none. */
export const TokenFileSchema = v.pipe(v.string(), v.trim(), v.check((f) => bytes(f) <= REGISTRY_ARG_BYTES_MAX && !CONTROL.test(f)));
