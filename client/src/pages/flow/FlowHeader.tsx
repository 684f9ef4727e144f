// The flow page's header parts: the decider and promotion badges, the line of provenance under the title,
// and the actions (download, promote, audit, delete).
import { Show } from 'solid-js';
import type { FlowDetail, FlowSummary } from '../../../../shared/flows.ts';
import { flowRawUrl } from '../../api/endpoints.ts';
import { Term } from '../../components/ui/Term.tsx';
import { Button } from '../../components/ui/ui.tsx';
import { basename, formatDateTime } from '../../lib/format.ts';
import { deciderSentence, deciderTitle, joinWords, plural } from '../../lib/flow-words.ts';
import { meta, READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';

export function FlowBadges(props: { summary: FlowSummary }) {
  const s = () => props.summary;
  return (
    <span class="badges">
      <span class="badge mono" title={deciderTitle(s().decider)}>
        {s().decider}
      </span>
      <Term word={s().decider}>
        <span class="sr-only">decider</span>
      </Term>
      <Show when={s().promoted}>
        {(p) => (
          <>
            <span class="badge accent" title={`Acts at ${p().sites_promoted} of the ${p().sites_scored} calls promote scored`}>
              promoted {p().sites_promoted}/{p().sites_scored}
            </span>
            <Term word="promoted">
              <span class="sr-only">promoted</span>
            </Term>
          </>
        )}
      </Show>
    </span>
  );
}

export function FlowProvenance(props: { detail: FlowDetail }) {
  const d = () => props.detail;
  const s = () => d().summary;
  return (
    <>
      Domain <code>{s().domain}</code>. Learned by engine {d().provenance.engine} from {plural(s().habit_episodes, 'session')} of{' '}
      {joinWords(s().sources, 'no named source')}, on {formatDateTime(s().compiled_unix_ms)}. {deciderSentence(s().decider, s().arbiter_cases)}
    </>
  );
}

/**
 * Download and Delete work on any file the list has, loaded or not; Promote and Audit run the CLI on a flow
 * that loads, so they are offered only then. Before the file is known (or when it is gone) there is nothing.
 */
export function FlowActions(props: { flowKey: string; summary: FlowSummary | undefined; loads: boolean; onDelete: () => void }) {
  const jobHref = (kind: 'promote' | 'audit' | 'drift') => `/jobs/new?kind=${kind}&flow=${encodeURIComponent(props.flowKey)}`;
  return (
    <Show when={props.summary}>
      {(s) => (
        <>
          <Button icon="download" href={flowRawUrl(props.flowKey)} download={basename(s().path)}>
            Download
          </Button>
          <Show when={props.loads && s().error === null}>
            <Button icon="badge" to={jobHref('promote')} disabled={readOnly()} reason={READ_ONLY_REASON}>
              Promote
            </Button>
            <Button icon="file-search" to={jobHref('audit')} disabled={readOnly()} reason={READ_ONLY_REASON}>
              Audit
            </Button>
            <Show when={meta()?.job_kinds.includes('drift')}>
              <Button icon="zap" to={jobHref('drift')} disabled={readOnly()} reason={READ_ONLY_REASON} testid="flow-drift">
                Check for drift
              </Button>
            </Show>
          </Show>
          <Button
            variant="danger"
            icon="trash"
            square
            label="Delete the flow"
            title="Delete the flow"
            testid="flow-delete"
            disabled={readOnly()}
            reason={READ_ONLY_REASON}
            onClick={props.onDelete}
          />
        </>
      )}
    </Show>
  );
}
