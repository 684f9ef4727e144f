// A new job: choose the kind, fill in its fields (prefilled from ?kind, ?flow, ?domain, or a past job's
// parameters with ?from), see the command it runs (the server's preview, byte for byte), start it. The checks here are the server's, said
// before anything is sent; the server's own refusal shows beside the Start button and stays until the next
// try. Leaving a filled form asks first. The form's state is components/job/new/createJobForm.ts, what the
// page loads JobNewPage.data.ts.
import { A, useNavigate, useSearchParams } from '@solidjs/router';
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { JOB_KINDS, type JobKind } from '../../../shared/jobs.ts';
import { LeaveGuard } from '../components/form/LeaveGuard.tsx';
import { createJobForm } from '../components/job/new/createJobForm.ts';
import { CommandPreview } from '../components/job/new/CommandPreview.tsx';
import { KindFields } from '../components/job/new/KindFields.tsx';
import { KindPicker, KINDS } from '../components/job/new/KindPicker.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, Notice, PageHeader } from '../components/ui/ui.tsx';
import { createJobPreview } from '../data/job-preview.ts';
import { fieldsFromParams, requestBody } from '../lib/jobform.ts';
import { meta, READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { createJobNewData } from './JobNewPage.data.ts';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

export default function JobNewPage() {
  useTitle(() => 'New job');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const k = one(params.kind);
  const data = createJobNewData(one(params.from));
  const m = createJobForm(
    {
      kind: (JOB_KINDS as readonly string[]).includes(k) ? (k as JobKind) : 'learn',
      fields: { domain: one(params.domain), flow: one(params.flow), sessions: one(params.sessions) },
    },
    data,
  );
  const setKind = (x: JobKind) => {
    m.setKind(x);
    setParams({ kind: x }, { replace: true, scroll: false });
  };
  // A kind only some engines have (drift), asked for by address of an engine without it: a learn job instead.
  const [unoffered, setUnoffered] = createSignal<JobKind | null>(null);
  createEffect(
    on(
      () => meta()?.job_kinds,
      (kinds) => {
        const asked = m.kind();
        if (!kinds || kinds.length === 0 || kinds.includes(asked) || asked !== k) return;
        setUnoffered(asked);
        setKind('learn');
      },
    ),
  );
  // Run again with parameters: the past job's kind and parameters are the form's start.
  createEffect(on(data.source, (j) => j && m.restart(j.kind, fieldsFromParams(j.params))));
  // A refusal is about what was sent: another kind is another request.
  createEffect(on(m.kind, () => data.start.clearError(), { defer: true }));
  const preview = createJobPreview(() => (m.valid() ? requestBody(m.kind(), m.f(), m.flow()) : null));

  let form: HTMLFormElement | undefined;
  const submit = async (e: Event) => {
    e.preventDefault();
    data.start.clearError();
    if (!m.check()) {
      queueMicrotask(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const body = requestBody(m.kind(), m.f(), m.flow());
    // Sent with its preview's id, the job runs the very command shown (its reports are named for the id).
    const shown = await preview.of(body);
    const job = await data.start.run(body, shown?.id ?? null);
    if (job) {
      m.markStarted();
      navigate(`/jobs/${encodeURIComponent(job.id)}`);
    } else {
      // Beside the Start button, where the person is; it stays until the next try.
      queueMicrotask(() => form?.querySelector<HTMLElement>('[data-testid="job-error"]')?.scrollIntoView({ block: 'nearest' }));
    }
  };

  return (
    <div class="page narrow">
      <PageHeader
        back={{ to: '/jobs', label: 'Jobs' }}
        title="New job"
        sub={
          <>
            Runs the engine CLI in the data dir, <code>{meta()?.data_dir ?? '~/.engine'}</code>. Paths are relative to it, or start with <code>~/</code>.
          </>
        }
      />
      <LeaveGuard dirty={m.dirty} what="in this job" />
      <form ref={form} class="stack" novalidate onSubmit={(e) => void submit(e)}>
        <Show when={data.source()}>
          {(source) => (
            <Notice tone="accent" testid="job-from">
              The parameters of <A href={`/jobs/${encodeURIComponent(source().id)}`}>{source().title}</A>. Change what it writes, or let it replace the file.
            </Notice>
          )}
        </Show>
        <Show when={unoffered()}>
          {(x) => (
            <Notice tone="warn" testid="job-kind-unoffered">
              The engine CLI this console runs has no <code>{x()}</code> command (it did not answer <code>engine {x()} --help</code>), so no {x()} job
              can run here: the form is a learn job instead. An engine that has <code>{x()}</code> is offered it once the console sees its binary change.
            </Notice>
          )}
        </Show>
        <KindPicker kind={m.kind()} onKind={setKind} />
        <Card title={KINDS.find((x) => x.kind === m.kind())?.name ?? ''}>
          <KindFields model={m} />
        </Card>
        <CommandPreview preview={preview} />
        <Show when={data.start.error()}>
          <div data-testid="job-error">
            <Notice tone="danger" role="alert">
              The job did not start: {data.start.error()}
            </Notice>
          </div>
        </Show>
        <div class="form-actions">
          <Button to="/jobs">Cancel</Button>
          <Button type="submit" variant="primary" icon="play" loading={data.start.busy()} disabled={readOnly()} reason={READ_ONLY_REASON} testid="job-start">
            Start the job
          </Button>
        </div>
        <datalist id="job-dirs">
          <For each={m.dirs()}>{(d) => <option value={d} />}</For>
        </datalist>
        <datalist id="job-domains">
          <For each={m.domains()}>{(d) => <option value={d} />}</For>
        </datalist>
      </form>
    </div>
  );
}
