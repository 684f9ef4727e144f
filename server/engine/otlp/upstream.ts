// Where the proxy sent the session's requests, as the MCP conventions' network attributes: a stdio server
// is reached over a pipe; a Streamable HTTP upstream (the header's only word is its URL) over TCP, with its
// host and port. The header's command was already redacted by the proxy.
import type { Attributes } from '@opentelemetry/api';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export function upstreamAttributes(serverCommand: readonly string[]): Attributes {
  const only = serverCommand.length === 1 ? serverCommand[0] : undefined;
  if (only !== undefined && /^https?:\/\//i.test(only)) {
    try {
      const url = new URL(only);
      const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
      const out: Attributes = { 'network.transport': 'tcp', 'network.protocol.name': 'http', 'server.address': url.hostname.replace(/^\[|\]$/g, '') };
      if (port !== undefined) out['server.port'] = port;
      return out;
    } catch {
      return { 'network.transport': 'tcp', 'network.protocol.name': 'http' };
    }
  }
  return serverCommand.length === 0 ? {} : { 'network.transport': 'pipe' };
}
