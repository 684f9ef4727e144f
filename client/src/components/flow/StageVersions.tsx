// The Staged tab's Versions card: every committed version of the flow (engine flow-log), the latest first,
// each with what it was, its evidence, its changes and "Roll back to this".
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { StageView, VersionView } from '../../../../shared/stage.ts';
import { formatDateTime } from '../../lib/format.ts';
import { counted, versionWhat } from '../../lib/flow-stage.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Term } from '../ui/Term.tsx';
import { Button, Card, Notice, RichText } from '../ui/ui.tsx';

function Version(props: { version: VersionView; onRollback: (v: number) => void; href?: string; explain?: boolean }) {
  const ver = () => props.version;
  const e = () => ver().evidence;
  return (
    <li class="version" data-testid={`version-${ver().version}`}>
      <div class="version-head">
        <strong class="mono">v{ver().version}</strong>
        <Show when={ver().current}>
          <span class="badge accent">committed now</span>
        </Show>
        <span>
          <Show when={ver().kind === 'found' && props.explain} fallback={versionWhat(ver().kind, ver().restored)}>
            <Term word="found in place" />
          </Show>
        </span>
        <span class="muted">{formatDateTime(ver().unix_ms)}</span>
        <Show when={props.href}>
          {(href) => (
            <A href={href()} class="mono" data-testid={`version-open-${ver().version}`}>
              open v{ver().version}
            </A>
          )}
        </Show>
        <Show when={!ver().current}>
          <Button
            size="sm"
            icon="retry"
            testid={`rollback-${ver().version}`}
            disabled={readOnly()}
            reason={READ_ONLY_REASON}
            onClick={() => props.onRollback(ver().version)}
            class="version-rollback"
          >
            Roll back to this
          </Button>
        </Show>
      </div>
      <Show when={ver().note}>
        <blockquote class="version-note">{ver().note}</blockquote>
      </Show>
      <Show when={e()}>
        {(ev) => (
          <p class="caption">
            On the last {counted(ev().compared, 'session')} before it, the staged flow’s lookups: {ev().total.staged.lookups},{' '}
            {ev().total.staged.used} used, {counted(ev().total.staged.detours, 'detour')}
            <Show when={ev().committed}>
              ; the committed flow’s: {ev().total.committed.lookups}, {ev().total.committed.used} used,{' '}
              {counted(ev().total.committed.detours, 'detour')}
            </Show>
            .
          </p>
        )}
      </Show>
      <Show when={ver().changes.length > 0}>
        <details class="version-changes">
          <summary>
            {counted(ver().changes.length, 'change')} from the version before
          </summary>
          <ul>
            <For each={ver().changes}>{(c) => <li><RichText text={c} /></li>}</For>
          </ul>
        </details>
      </Show>
    </li>
  );
}
export function VersionsCard(props: { s: StageView; onRollback: (v: number) => void; versionHrefs?: Map<number, string> }) {
  const s = () => props.s;
  return (
    <Card title="Versions" caption={`Every committed version of ${s().committed_path}, the latest first: engine flow-log`}>
      <Show when={s().unrecorded && s().committed !== null && s().versions.length > 0}>
        <Notice tone="warn" role="status">
          The committed flow is not the latest version: it changed since, by other means than a commit. A commit or a rollback keeps it as
          a version first.
        </Notice>
      </Show>
      <Show
        when={s().versions.length > 0}
        fallback={
          <p class="muted" data-testid="versions-empty">
            No version has been committed. The first commit keeps the flow as it is now as a version of its own, so it can be rolled back
            to.
          </p>
        }
      >
        <ol class="versions" data-testid="versions">
          <For each={s().versions}>
            {(ver) => (
              <Version
                version={ver}
                onRollback={props.onRollback}
                href={props.versionHrefs?.get(ver.version)}
                explain={s().versions.find((x) => x.kind === 'found') === ver}
              />
            )}
          </For>
        </ol>
      </Show>
    </Card>
  );
}
