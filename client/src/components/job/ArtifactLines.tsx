// What a job wrote: a line per artifact (a flow links to its page, a report of an ended job opens raw), with
// a word on what it is; compact in the jobs list.
import { A } from '@solidjs/router';
import { For, Match, Show, Switch } from 'solid-js';
import type { Job } from '../../../../shared/jobs.ts';
import { jobArtifactUrl } from '../../api/endpoints.ts';
import { jobRunning } from '../../lib/job-status.ts';
import { Icon } from '../ui/Icon.tsx';

const ended = (j: Job) => !jobRunning(j);

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
