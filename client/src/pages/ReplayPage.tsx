// A replay run: live progress, counts overall and per tool, the paths that look volatile (ignore them and
// compare again), a filter to differences, and each call with its two answers side by side.
import './replay/replay.css';
import { useParams } from '@solidjs/router';
import { createSignal, For, Show } from 'solid-js';
import { VERDICTS, type ReplayRun } from '../../../shared/replay.ts';
import { replayDownloadUrl } from '../api/endpoints.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, Notice, PageHeader } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { formatDateTime } from '../lib/format.ts';
import { countsByTool } from '../lib/replay-marks.ts';
import ReplaySites from './replay/ReplaySites.tsx';
import { readOnly } from '../stores/auth.ts';
import CallRow from './replay/CallRow.tsx';
import { createReplayPageData, replayRunning } from './ReplayPage.data.ts';


function RunView(props: { run: ReplayRun; data: ReturnType<typeof createReplayPageData> }) {
  const [onlyDiffs, setOnlyDiffs] = createSignal(false);
  const r = () => props.run;
  const calls = () => (onlyDiffs() ? r().calls.filter((c) => c.verdict !== 'same') : r().calls);
  return (
    <>
      <Card title="Progress" testid="replay-progress">
        <p>
          <span data-testid="replay-status">{r().status}</span>: {r().progress.done} of {r().progress.total} calls
          {r().error ? ` (${r().error})` : ''}
        </p>
        <p class="replay-counts" data-testid="replay-counts">
          <For each={VERDICTS}>{(v) => <span class={`replay-verdict replay-${v}`}>{v.replace('_', ' ')} {r().counts[v]}</span>}</For>
        </p>
        <p class="muted">Only tools the live server marks readOnlyHint: true, and the recording did not mark as writing, were called.</p>
        <Show when={replayRunning(r())}>
          <Button variant="danger" testid="replay-cancel" loading={props.data.cancel.busy()} disabled={readOnly()} onClick={() => void props.data.cancel.run()}>
            Cancel
          </Button>
        </Show>
      </Card>
      <Show when={r().answers_dropped_unix_ms}>
        {(at) => (
          <Notice tone="info" testid="replay-answers-dropped">
            <p>
              This run's answers were let go at {formatDateTime(at())}: the console keeps a bounded amount of answers over all its
              runs, the oldest runs' going first. The verdicts and differences stay; to compare again, start a new run.
            </p>
          </Notice>
        )}
      </Show>
      <Show when={r().volatile.length > 0}>
        <Notice tone="warn" testid="replay-volatile">
          <p>These paths differ in every call of their tool (a timestamp or a request id, likely):</p>
          <ul>
            <For each={r().volatile}>{(p) => <li><code>{p.tool}</code> <code>{p.path}</code></li>}</For>
          </ul>
          <Button
            size="sm"
            testid="replay-ignore-volatile"
            loading={props.data.ignore.busy()}
            disabled={readOnly() || replayRunning(r()) || r().answers_dropped_unix_ms !== null}
            onClick={() => void props.data.ignore.run([...new Set([...r().ignore_paths, ...r().volatile.map((p) => p.path)])])}
          >
            Ignore them and compare again
          </Button>
        </Notice>
      </Show>
      <Card title="By tool">
        <div class="table-wrap">
        <table class="table" data-testid="replay-by-tool">
          <thead>
            <tr><th>Tool</th><For each={VERDICTS}>{(v) => <th>{v.replace('_', ' ')}</th>}</For></tr>
          </thead>
          <tbody>
            <For each={countsByTool(r().calls)}>
              {(row) => <tr><td><code>{row.tool}</code></td><For each={VERDICTS}>{(v) => <td>{row.counts[v]}</td>}</For></tr>}
            </For>
          </tbody>
        </table>
        </div>
      </Card>
      <ReplaySites run={r()} />
      <Card
        title="Calls"
        actions={
          <label>
            <input type="checkbox" data-testid="replay-only-diffs" checked={onlyDiffs()} onChange={(e) => setOnlyDiffs(e.currentTarget.checked)} /> Only what did not answer the same
          </label>
        }
      >
        <Show when={r().ignore_paths.length > 0}>
          <p class="muted">Ignored: <For each={r().ignore_paths}>{(p) => <code>{p} </code>}</For></p>
        </Show>
        <ul class="replay-calls">
          <For each={calls()}>{(c) => <CallRow call={c} />}</For>
        </ul>
      </Card>
    </>
  );
}

export default function ReplayPage() {
  const params = useParams<{ id: string }>();
  const data = createReplayPageData(() => params.id);
  useTitle(() => `Replay ${params.id}`);
  return (
    <div class="page">
      <PageHeader
        back={{ to: '/servers', label: 'Servers' }}
        title={<Show when={data.run.data()} fallback="Replay">{(r) => <>Replay of {r().server}</>}</Show>}
        actions={
          <>
            <Button size="sm" variant="secondary" icon="download" href={replayDownloadUrl(params.id, 'json')} download="">JSON</Button>
            <Button size="sm" variant="secondary" icon="download" href={replayDownloadUrl(params.id, 'md')} download="">Markdown</Button>
          </>
        }
      />
      <Loaded resource={data.run} notFoundTitle="No such replay" errorTitle="This replay could not be loaded" errorFrame={(e) => <div class="card">{e}</div>}>
        {(run) => <RunView run={run()} data={data} />}
      </Loaded>
    </div>
  );
}
