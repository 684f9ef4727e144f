// The Overview's parts: first-run steps, the health list, a domain card and the newest jobs list.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { Job } from '../../../../shared/jobs.ts';
import type { DomainSummary, HealthItem } from '../../../../shared/overview.ts';
import { formatCount } from '../../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { Button, Empty, JobStatusBadge, RelTime, RichText } from '../ui/ui.tsx';

export function FirstRun(props: { servers: number; sessions: number; flows: number }) {
  const steps = () => [
    {
      title: 'Add a server',
      body: 'Register the MCP server your agent uses. The console prints the configuration for your host, with engine-proxy in front.',
      done: props.servers > 0,
      action: () => (
        <Button size="sm" variant="primary" to="/servers/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
          Add a server
        </Button>
      ),
    },
    {
      title: 'Use your agent through it',
      body: 'Work as usual. The proxy records each session, and they appear here as they are written.',
      done: props.sessions > 0,
      action: () => (
        <Button size="sm" to="/servers">
          Show the host configuration
        </Button>
      ),
    },
    {
      title: 'Learn a flow',
      body: 'From the recorded sessions, with no key: which reads follow which calls, and where their arguments come from.',
      done: props.flows > 0,
      action: () => (
        <Button size="sm" variant="primary" to="/jobs/new?kind=learn" disabled={readOnly()} reason={READ_ONLY_REASON}>
          Learn a flow
        </Button>
      ),
    },
  ];
  const current = () => steps().findIndex((s) => !s.done);
  return (
    <section class="card first-run" aria-labelledby="first-run-title">
      <div class="card-head">
        <div>
          <h2 id="first-run-title">
            <Icon name="sparkles" /> Get started
          </h2>
          <p class="card-caption">Three steps from a server to a flow that reads ahead of your agent.</p>
        </div>
      </div>
      <div class="card-body">
        <ol>
          <For each={steps()}>
            {(s, i) => (
              <li class={s.done ? 'done' : i() === current() ? 'current' : undefined}>
                <span class="step-title">
                  <span class="step-no" aria-hidden="true">
                    {s.done ? <Icon name="check" size={13} /> : i() + 1}
                  </span>
                  {s.title}
                  <Show when={s.done}>
                    <span class="sr-only">(done)</span>
                  </Show>
                </span>
                <span class="step-body">{s.body}</span>
                <Show when={i() === current()}>
                  <div>{s.action()}</div>
                </Show>
              </li>
            )}
          </For>
        </ol>
      </div>
    </section>
  );
}

const LEVEL: Record<HealthItem['level'], { icon: IconName; sr: string }> = {
  ok: { icon: 'circle-check', sr: 'OK:' },
  note: { icon: 'info', sr: 'Note:' },
  warn: { icon: 'warn', sr: 'Warning:' },
  error: { icon: 'circle-x', sr: 'Error:' },
};

export function HealthList(props: { items: HealthItem[] }) {
  return (
    <Show when={props.items.length > 0} fallback={<p class="muted">Nothing to report.</p>}>
      <ul class="health">
        <For each={props.items}>
          {(h) => (
            <li class={`lvl-${h.level}`}>
              <Icon name={LEVEL[h.level].icon} />
              <span>
                <span class="sr-only">{LEVEL[h.level].sr} </span>
                <RichText text={h.message} />
              </span>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

export function DomainCard(props: { d: DomainSummary }) {
  const m = () => props.d.modes;
  const total = () => m().served + m().shadow + m().recorded;
  const segs = () =>
    (
      [
        ['served', m().served],
        ['shadow', m().shadow],
        ['recorded', m().recorded],
      ] as const
    ).filter(([, n]) => n > 0);
  const label = () => `${m().served} served, ${m().shadow} in shadow, ${m().recorded} recorded`;
  const q = () => encodeURIComponent(props.d.name);
  return (
    <article class="card dc">
      <div class="dc-head">
        <A class="dc-name" href={`/sessions?domain=${q()}`}>
          {props.d.name}
          <Icon name="arrow-right" size={14} />
        </A>
        <span class="subtle" style={{ 'font-size': '12px' }}>
          last <RelTime ms={props.d.last_session_unix_ms} />
        </span>
      </div>
      <div class="dc-count">
        <strong>{formatCount(props.d.sessions)}</strong>
        {props.d.sessions === 1 ? 'session' : 'sessions'}
      </div>
      <div class="modebar" role="img" aria-label={label()}>
        <For each={segs()}>{([k, n]) => <span class={`seg-${k}`} style={{ flex: `${n / Math.max(1, total())} 0 4px` }} />}</For>
      </div>
      <div class="legend">
        <span>
          <span class="swatch seg-served" /> {m().served} served
        </span>
        <span>
          <span class="swatch seg-shadow" /> {m().shadow} in shadow
        </span>
        <span>
          <span class="swatch seg-recorded" /> {m().recorded} recorded
        </span>
      </div>
      <div class="dc-links">
        <Icon name="flow" />
        <span class="sr-only">Flows</span>
        <Show when={props.d.flows.length > 0} fallback={<A href={`/jobs/new?kind=learn&domain=${q()}`}>Learn a flow</A>}>
          <For each={props.d.flows}>
            {(f) => (
              <A class="mono" href={`/flows/${encodeURIComponent(f)}`}>
                {f}
              </A>
            )}
          </For>
        </Show>
      </div>
      <div class="dc-links">
        <Icon name="server" />
        <span class="sr-only">Servers</span>
        <Show when={props.d.servers.length > 0} fallback={<A href={`/servers/new?domain=${q()}`}>Register its server</A>}>
          <For each={props.d.servers}>
            {(s) => (
              <A class="mono" href={`/servers/${encodeURIComponent(s)}`}>
                {s}
              </A>
            )}
          </For>
        </Show>
      </div>
    </article>
  );
}

export function JobList(props: { jobs: Job[] }) {
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
