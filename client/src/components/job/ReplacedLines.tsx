// What a job wrote over: each old file waits in the trash at its relative path, where the Trash page can
// restore it.
import { A } from '@solidjs/router';
import { For } from 'solid-js';
import type { Replaced } from '../../../../shared/jobs.ts';
import { Icon } from '../ui/Icon.tsx';

export function ReplacedLines(props: { replaced: readonly Replaced[] }) {
  return (
    <ul class="artifacts" data-testid="job-replaced">
      <For each={props.replaced}>
        {(r) => (
          <li>
            <Icon name="trash" />
            <span>
              <span class="mono">{r.path}</span>
              <small>
                The old file is in the trash, as <A href={`/trash#trash-${r.trash_id}`} class="mono">console/trash/{r.trash_id}/{r.path}</A>: restore it from there.
              </small>
            </span>
          </li>
        )}
      </For>
    </ul>
  );
}
