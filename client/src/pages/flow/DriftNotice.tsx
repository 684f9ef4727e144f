// The flow's last drift check (the original's drift alarm, test id `drift-alarm`): when engine drift sounded,
// what it found; when it was quiet, a one-line note of when it last looked.
import { A } from '@solidjs/router';
import { Show } from 'solid-js';
import type { DriftCheck } from '../../../../shared/drift.ts';
import { jobArtifactUrl } from '../../api/endpoints.ts';
import { Notice } from '../../components/ui/ui.tsx';
import { formatRelative } from '../../lib/format.ts';
import { plural } from '../../lib/flow-words.ts';

function ReportLink(props: { check: DriftCheck }) {
  return (
    <Show when={props.check.report !== null} fallback={<A href={`/jobs/${encodeURIComponent(props.check.job)}`}>the job</A>}>
      <a href={jobArtifactUrl(props.check.job, props.check.report ?? 0)} target="_blank" rel="noopener">
        the report
      </a>
    </Show>
  );
}

export function DriftNotice(props: { check: DriftCheck }) {
  const c = () => props.check;
  const when = () => formatRelative(c().finished_unix_ms, Date.now());
  return (
    <Show
      when={c().alarm}
      fallback={
        <Notice tone="info" role="status" testid="drift-quiet">
          engine drift found no change under this flow, {when()}, over {plural(c().sessions, 'session')} (<ReportLink check={c()} />).
        </Notice>
      }
    >
      <Notice tone="warn" role="status" testid="drift-alarm">
        <strong>The agent may have changed under this flow:</strong> engine drift sounded its alarm {when()}, over {plural(c().sessions, 'session')}
        <Show when={c().since !== null && c().probability !== null}>
          , a change likeliest {plural(c().since ?? 0, 'session')} ago, at {Math.round((c().probability ?? 0) * 100)}%
        </Show>
        .
        <Show when={c().sites.length > 0}>
          {' '}Surprise rose most at <span class="mono">{c().sites.join(', ')}</span>.
        </Show>
        <Show when={c().unknown_tools.length > 0}>
          {' '}Tools training never saw: <span class="mono">{c().unknown_tools.join(', ')}</span>.
        </Show>{' '}
        See <ReportLink check={c()} />.
      </Notice>
    </Show>
  );
}
