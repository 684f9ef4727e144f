// The session page's header parts: the mode, domain, agent, time and size beside the title, and the line
// naming the upstream server and the log's path.
import { A } from '@solidjs/router';
import { Show } from 'solid-js';
import type { SessionSummary } from '../../../../shared/sessions.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { ModeBadge } from '../../components/ui/ui.tsx';
import { formatBytes, formatDateTime, formatDuration } from '../../lib/format.ts';

/** The upstream as a person would type it: a URL, or the command with shell quoting where a word needs it. */
export function upstreamText(u: { kind: 'stdio'; command: string[] } | { kind: 'http'; url: string }): string {
  if (u.kind === 'http') return u.url;
  return u.command.map((w) => (/^[A-Za-z0-9\-_./:=@%+,~]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function SessionMeta(props: { summary: SessionSummary }) {
  const s = () => props.summary;
  return (
    <>
      <ModeBadge mode={s().mode} />
      <Show when={s().domain}>
        {(domain) => (
          <A class="mono" href={`/sessions?domain=${encodeURIComponent(domain())}`}>
            {domain()}
          </A>
        )}
      </Show>
      <Show when={s().agent}>
        <span>
          <Icon name="bot" /> {s().agent}
        </span>
      </Show>
      <span>
        {formatDateTime(s().started_unix_ms)} · {formatDuration(s().duration_ms)}
      </span>
      <span class="subtle">{formatBytes(s().size_bytes)}</span>
    </>
  );
}

export function SessionUpstream(props: { summary: SessionSummary }) {
  return (
    <Show when={props.summary.upstream}>
      {(u) => (
        <>
          Server: <code>{upstreamText(u())}</code> · <code>{props.summary.path}</code>
        </>
      )}
    </Show>
  );
}
