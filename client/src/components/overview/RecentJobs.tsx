// The Overview's newest jobs, each a link with its status and when it started.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { Job } from '../../../../shared/jobs.ts';
import { Empty, JobStatusBadge, RelTime } from '../ui/ui.tsx';

export function RecentJobs(props: { jobs: Job[] }) {
  return (
    <Show
      when={props.jobs.length > 0}
      fallback={
        <Empty compact icon="terminal" title="No jobs yet">
          Jobs run the engine CLI for you: learn a flow from sessions, promote it, audit it.
        </Empty>
      }
    >
      <ul class="joblist">
        <For each={props.jobs}>
          {(j) => (
            <li>
              <A href={`/jobs/${encodeURIComponent(j.id)}`}>{j.title}</A>
              <span class="right">
                <JobStatusBadge status={j.status} />
                <RelTime ms={j.created_unix_ms} />
              </span>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
