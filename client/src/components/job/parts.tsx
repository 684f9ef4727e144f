// Pieces of the job pages: the artifact list and the parameters list.
import { A } from '@solidjs/router';
import { For, Match, Show, Switch } from 'solid-js';
import type { Job } from '../../../../shared/jobs.ts';
import { jobArtifactUrl } from '../../api/endpoints.ts';
import { Icon } from '../ui/Icon.tsx';

const ended = (j: Job) => j.status !== 'queued' && j.status !== 'running';

export function ArtifactLines(props: { job: Job; compact?: boolean }) {
  return (
    <Show when={props.job.artifacts.length > 0} fallback={<span class="subtle">{props.compact ? '—' : ended(props.job) ? 'Nothing.' : 'Nothing yet.'}</span>}>
      <ul class="artifacts">
        <For each={props.job.artifacts}>
          {(a, i) => (
            <li>
              <Icon name={a.kind === 'flow' ? 'flow' : a.kind === 'report' ? 'file-text' : 'folder'} />
              <span>
                <Switch fallback={<span class="mono">{a.path}</span>}>
                  <Match when={a.kind === 'flow' && a.key}>
                    <A class="mono" href={`/flows/${encodeURIComponent(a.key!)}`}>
                      {a.path}
                    </A>
                  </Match>
                  <Match when={a.kind === 'report' && ended(props.job) && !props.compact}>
                    <a class="mono" href={jobArtifactUrl(props.job.id, i())} target="_blank" rel="noopener noreferrer">
                      {a.path}
                    </a>
                  </Match>
                </Switch>
                <Show when={!props.compact}>
                  <small>
                    {a.kind === 'flow'
                      ? ended(props.job)
                        ? 'A flow: open it to review what it may do.'
                        : 'The flow it writes.'
                      : a.kind === 'report'
                        ? a.path.endsWith('.md')
                          ? 'The report, in Markdown.'
                          : 'The report, as JSON.'
                        : 'A directory.'}
                  </small>
                </Show>
              </span>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

function paramText(v: unknown): string {
  if (v === null || v === undefined) return 'default';
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : 'none';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function ParamList(props: { params: unknown }) {
  const entries = () =>
    props.params !== null && typeof props.params === 'object' && !Array.isArray(props.params)
      ? Object.entries(props.params as Record<string, unknown>).filter(([k]) => k !== 'kind')
      : [];
  return (
    <Show when={entries().length > 0} fallback={<p class="muted">None.</p>}>
      <dl class="kv">
        <For each={entries()}>
          {([k, v]) => (
            <>
              <dt class="mono">{k}</dt>
              <dd class={v === null ? 'subtle' : 'mono'}>{paramText(v)}</dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  );
}
