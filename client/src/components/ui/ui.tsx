// The console's small building blocks: buttons, cards, page headers, notices, empty and error states,
// skeletons, badges, relative times, copy buttons, stats, sparklines, meters and the pager. Components take
// typed props and never fetch; every string they show is a text node.
import { A } from '@solidjs/router';
import { createEffect, createSignal, For, type JSX, on, onCleanup, Show, splitProps } from 'solid-js';
import type { JobStatus } from '../../../../shared/jobs.ts';
import type { SessionMode, ToolKind } from '../../../../shared/sessions.ts';
import type { ApiError } from '../../api/client.ts';
import { formatCompact, formatCount, formatDateTime, formatProb, formatRelative } from '../../lib/format.ts';
import { errorMayPass } from '../../lib/retry.ts';
import { toast } from '../../stores/toasts.ts';
import { Icon, type IconName } from './Icon.tsx';

// ——— time ———
const [now, setNow] = createSignal(Date.now());
setInterval(() => setNow(Date.now()), 30_000);
export { now };

export function RelTime(props: { ms: number | null | undefined }) {
  return (
    <Show when={props.ms !== null && props.ms !== undefined} fallback={<span>never</span>}>
      <time datetime={new Date(props.ms!).toISOString()} title={formatDateTime(props.ms!)}>
        {formatRelative(props.ms, now())}
      </time>
    </Show>
  );
}

// ——— buttons ———
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
type ButtonProps = {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  icon?: IconName;
  /** A router link. */
  to?: string;
  /** A download link. */
  href?: string;
  download?: string;
  disabled?: boolean;
  /** Why it is disabled: the tooltip. */
  reason?: string;
  loading?: boolean;
  type?: 'button' | 'submit';
  onClick?: (e: MouseEvent) => void;
  children?: JSX.Element;
  label?: string;
  title?: string;
  class?: string;
  testid?: string;
  square?: boolean;
};

export function Button(props: ButtonProps) {
  const cls = () =>
    `btn btn-${props.variant ?? 'secondary'} btn-${props.size ?? 'md'}${props.square ? ' btn-square' : ''} ${props.class ?? ''}`;
  const inner = () => (
    <>
      <Show when={props.loading} fallback={props.icon ? <Icon name={props.icon} /> : null}>
        <Icon name="loader" class="spin" />
      </Show>
      {props.children}
    </>
  );
  const blocked = () => props.disabled || props.loading;
  return (
    <Show
      when={!blocked() && (props.to || props.href)}
      fallback={
        <button
          type={props.type ?? 'button'}
          class={cls()}
          disabled={blocked()}
          title={blocked() ? (props.reason ?? props.title) : props.title}
          aria-label={props.label}
          aria-busy={props.loading ? 'true' : undefined}
          data-testid={props.testid}
          onClick={(e) => props.onClick?.(e)}
        >
          {inner()}
        </button>
      }
    >
      <Show
        when={props.to}
        fallback={
          <a class={cls()} href={props.href} download={props.download} title={props.title} aria-label={props.label} data-testid={props.testid}>
            {inner()}
          </a>
        }
      >
        <A class={cls()} href={props.to!} title={props.title} aria-label={props.label} data-testid={props.testid}>
          {inner()}
        </A>
      </Show>
    </Show>
  );
}

// ——— layout ———
export function PageHeader(props: { title: JSX.Element; mono?: boolean; back?: { to: string; label: string }; sub?: JSX.Element; actions?: JSX.Element; meta?: JSX.Element }) {
  return (
    <header class="page-header">
      <div class="page-header-main">
        <Show when={props.back}>
          <A class="back-link" href={props.back!.to}>
            <Icon name="arrow-left" size={14} /> {props.back!.label}
          </A>
        </Show>
        <h1 class={props.mono ? 'mono' : undefined}>{props.title}</h1>
        <Show when={props.meta}>
          <div class="page-meta">{props.meta}</div>
        </Show>
        <Show when={props.sub}>
          <p class="page-sub">{props.sub}</p>
        </Show>
      </div>
      <Show when={props.actions}>
        <div class="page-actions">{props.actions}</div>
      </Show>
    </header>
  );
}

export function Card(props: { title?: JSX.Element; caption?: JSX.Element; actions?: JSX.Element; flush?: boolean; children: JSX.Element; class?: string; id?: string; testid?: string; label?: string }) {
  const headingId = `card-${Math.random().toString(36).slice(2, 9)}`;
  return (
    <section class={`card ${props.class ?? ''}`} id={props.id} data-testid={props.testid} aria-labelledby={props.title ? headingId : undefined} aria-label={props.title ? undefined : props.label}>
      <Show when={props.title || props.actions}>
        <div class="card-head">
          <div>
            <Show when={props.title}>
              <h2 id={headingId}>{props.title}</h2>
            </Show>
            <Show when={props.caption}>
              <p class="card-caption">{props.caption}</p>
            </Show>
          </div>
          <Show when={props.actions}>
            <div class="card-actions">{props.actions}</div>
          </Show>
        </div>
      </Show>
      <div class={props.flush ? 'card-body flush' : 'card-body'}>{props.children}</div>
    </section>
  );
}

export type NoticeTone = 'info' | 'accent' | 'warn' | 'danger';
const noticeIcon: Record<NoticeTone, IconName> = { info: 'info', accent: 'circle-check', warn: 'warn', danger: 'circle-alert' };
export function Notice(props: { tone: NoticeTone; children: JSX.Element; role?: 'status' | 'alert'; testid?: string; icon?: IconName }) {
  return (
    <div class={`notice notice-${props.tone}`} role={props.role} data-testid={props.testid}>
      <Icon name={props.icon ?? noticeIcon[props.tone]} />
      <div>{props.children}</div>
    </div>
  );
}

export function Empty(props: { icon?: IconName; title: string; children?: JSX.Element; actions?: JSX.Element; compact?: boolean; heading?: 'h2' | 'h3' }) {
  return (
    <div class={props.compact ? 'empty compact' : 'empty'}>
      <Show when={props.icon}>
        <div class="empty-icon">
          <Icon name={props.icon!} size={props.compact ? 18 : 22} />
        </div>
      </Show>
      <Show when={props.heading === 'h2'} fallback={<h3 class="empty-title">{props.title}</h3>}>
        <h2 class="empty-title">{props.title}</h2>
      </Show>
      <Show when={props.children}>
        <p class="empty-body">{props.children}</p>
      </Show>
      <Show when={props.actions}>
        <div class="empty-actions">{props.actions}</div>
      </Show>
    </div>
  );
}

/** A failure: its status and message, and "Try again" only when trying again can help (lib/retry.ts). */
export function ErrorState(props: { error: ApiError; title?: string; notFoundTitle?: string; retry?: () => void; actions?: JSX.Element }) {
  const title = () => (props.error.status === 404 && props.notFoundTitle ? props.notFoundTitle : (props.title ?? 'This could not be loaded'));
  return (
    <div class="error-state" role="alert">
      <div class="empty-icon danger">
        <Icon name="circle-alert" size={22} />
      </div>
      <h2 class="empty-title">{title()}</h2>
      <p class="empty-body">
        <Show when={props.error.status > 0}>
          <code class="status-code">{props.error.status}</code>{' '}
        </Show>
        {props.error.message}
      </p>
      <Show when={props.retry && errorMayPass(props.error.status)}>
        <Button icon="retry" onClick={() => props.retry!()}>
          Try again
        </Button>
      </Show>
      {props.actions}
    </div>
  );
}

export function Skeleton(props: { lines?: number; height?: number; label?: string }) {
  return (
    <div class="skeleton-group" aria-busy="true" aria-label={props.label ?? 'Loading'} role="status">
      <For each={Array.from({ length: props.lines ?? 3 })}>{() => <div class="skeleton" style={{ height: `${props.height ?? 14}px` }} />}</For>
    </div>
  );
}

// ——— badges ———
const MODE: Record<SessionMode, { word: string; title: string }> = {
  served: { word: 'Served', title: 'The flow made lookups in this session' },
  shadow: { word: 'Shadow', title: 'The flow decides and logs, but looks nothing up' },
  recorded: { word: 'Recorded', title: 'Recorded without a flow' },
};
export function ModeBadge(props: { mode: SessionMode }) {
  return (
    <span class={`badge mode mode-${props.mode}`} title={MODE[props.mode].title}>
      <span class="dot" aria-hidden="true" />
      {MODE[props.mode].word}
    </span>
  );
}

const STATUS: Record<JobStatus, { word: string; icon: IconName }> = {
  queued: { word: 'Queued', icon: 'clock' },
  running: { word: 'Running', icon: 'loader' },
  succeeded: { word: 'Succeeded', icon: 'check' },
  failed: { word: 'Failed', icon: 'x' },
  cancelled: { word: 'Cancelled', icon: 'ban' },
};
export function JobStatusBadge(props: { status: JobStatus }) {
  return (
    <span class={`badge status status-${props.status}`}>
      <Icon name={STATUS[props.status].icon} class={props.status === 'running' ? 'spin' : undefined} size={14} />
      {STATUS[props.status].word}
    </span>
  );
}

/** A job whose command ended with its alarm (engine drift: the agent may have changed under the flow). */
export function AlarmBadge(props: { alarm: boolean }) {
  return (
    <Show when={props.alarm}>
      <span class="badge warn" data-testid="job-alarm" title="engine drift sounded its alarm: the agent may have changed under the flow (exit 1, not a failure)">
        <Icon name="zap" size={14} /> Alarm
      </span>
    </Show>
  );
}

export function KindBadge(props: { kind: ToolKind }) {
  const t = {
    read: { word: 'read', title: 'readOnlyHint: true. A flow may look it up.' },
    write: { word: 'write', title: 'readOnlyHint: false. A flow never calls it.' },
    generic: { word: 'neither', title: 'No readOnlyHint: neither read nor write. A flow never calls it.' },
  }[props.kind];
  return (
    <span class={`badge kind kind-${props.kind}`} title={t.title}>
      <Show when={props.kind === 'write'}>
        <Icon name="pencil" size={12} />
      </Show>
      {t.word}
    </span>
  );
}

// ——— copy ———
async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }
}

export function CopyButton(props: {
  text: () => string;
  /** The text is asked for only when pressed (it costs a request): used instead of `text`. */
  textWhenPressed?: () => Promise<string>;
  what: string;
  label?: string;
  size?: 'sm' | 'md';
}) {
  const [done, setDone] = createSignal(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  // Other text in the same button (another host's snippet, say) was not copied yet.
  createEffect(
    on(
      () => props.text(),
      () => {
        clearTimeout(timer);
        setDone(false);
      },
      { defer: true },
    ),
  );
  const copy = async () => {
    try {
      await writeClipboard(props.textWhenPressed ? await props.textWhenPressed() : props.text());
      toast({ kind: 'success', title: `${props.what} copied`, timeout: 2200 });
      setDone(true);
      clearTimeout(timer);
      timer = setTimeout(() => setDone(false), 1600);
    } catch {
      toast({ kind: 'error', title: 'Could not copy', message: 'Select the text and copy it by hand.' });
    }
  };
  return (
    <button
      type="button"
      class={`btn btn-ghost btn-${props.size ?? 'sm'}${props.label ? '' : ' btn-square'}`}
      aria-label={props.label ? undefined : `Copy ${props.what}`}
      title={props.label ? undefined : `Copy ${props.what}`}
      onClick={() => void copy()}
    >
      <Icon name={done() ? 'check' : 'copy'} />
      <Show when={props.label}>{done() ? 'Copied' : props.label}</Show>
    </button>
  );
}

export function CodeBlock(props: { code: string; language: string; wrap?: boolean; what?: string; testid?: string }) {
  return (
    <div class="code-block">
      <div class="code-head">
        <span class="code-lang">{props.language}</span>
        <CopyButton text={() => props.code} what={props.what ?? 'Command'} label="Copy" />
      </div>
      <pre class={props.wrap ? 'wrap' : undefined} data-testid={props.testid}>
        <code>{props.code}</code>
      </pre>
    </div>
  );
}

// ——— numbers ———
export function Stat(props: { label: string; value: number; caption?: string; to?: string; accent?: boolean; spark?: number[]; sparkLabel?: string }) {
  const body = () => (
    <>
      <span class="stat-label">{props.label}</span>
      <span class="stat-row">
        <span class="stat-value" title={formatCount(props.value)}>
          {formatCompact(props.value)}
        </span>
        <Show when={props.spark}>
          <Sparkline values={props.spark!} label={props.sparkLabel ?? props.label} />
        </Show>
      </span>
      <Show when={props.caption}>
        <span class="stat-caption">{props.caption}</span>
      </Show>
    </>
  );
  return (
    <Show when={props.to} fallback={<div class={`stat${props.accent ? ' accent' : ''}`}>{body()}</div>}>
      <A class={`stat link${props.accent ? ' accent' : ''}`} href={props.to!}>
        {body()}
      </A>
    </Show>
  );
}

export function Sparkline(props: { values: number[]; label: string }) {
  const W = 112;
  const H = 32;
  const pad = 4;
  const pts = () => {
    const v = props.values;
    const max = Math.max(...v, 1);
    return v.map((x, i) => [pad + (i * (W - 2 * pad)) / Math.max(1, v.length - 1), H - pad - (x / max) * (H - 2 * pad)] as const);
  };
  const show = () => props.values.length > 1 && props.values.some((x) => x > 0);
  return (
    <Show when={show()}>
      <svg class="sparkline" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label}>
        <path class="spark-area" d={`M${pts()[0]![0]},${H - pad} ${pts().map(([x, y]) => `L${x},${y}`).join(' ')} L${pts()[pts().length - 1]![0]},${H - pad} Z`} />
        <path class="spark-line" d={pts().map(([x, y], i) => `${i ? 'L' : 'M'}${x},${y}`).join(' ')} />
        <circle class="spark-dot" cx={pts()[pts().length - 1]![0]} cy={pts()[pts().length - 1]![1]} r="2.5" />
      </svg>
    </Show>
  );
}

export function ProbBar(props: { value: number | null; threshold: number; width?: number; acts?: boolean }) {
  const v = () => Math.max(0, Math.min(1, props.value ?? 0));
  const relation = () => (props.value === null ? 'no value' : `${formatProb(props.value)} ${props.value >= props.threshold ? '≥' : '<'} ${formatProb(props.threshold)}`);
  return (
    <span class="probbar">
      <span
        class="probbar-track"
        style={{ width: `${props.width ?? 84}px` }}
        role="meter"
        aria-valuenow={props.value ?? 0}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-label={`${formatProb(props.value)} against a threshold of ${formatProb(props.threshold)}`}
      >
        <span class={`probbar-fill${props.acts ? ' acts' : ''}`} style={{ width: `${v() * 100}%` }} />
        <span class="probbar-tick" style={{ left: `${Math.min(1, props.threshold) * 100}%` }} />
      </span>
      <span class="probbar-text mono">{relation()}</span>
    </span>
  );
}

export function Pagination(props: { offset: number; limit: number; total: number; noun: string; onChange: (offset: number) => void; prev?: string; next?: string }) {
  const last = () => Math.min(props.total, props.offset + props.limit);
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-text">
        {formatCount(props.total === 0 ? 0 : props.offset + 1)}–{formatCount(last())} of {formatCount(props.total)} {props.noun}
      </span>
      <div class="pager-buttons">
        <Button size="sm" icon="arrow-left" disabled={props.offset === 0} onClick={() => props.onChange(Math.max(0, props.offset - props.limit))}>
          {props.prev ?? 'Newer'}
        </Button>
        <Button size="sm" disabled={props.offset + props.limit >= props.total} onClick={() => props.onChange(props.offset + props.limit)}>
          {props.next ?? 'Older'} <Icon name="arrow-right" />
        </Button>
      </div>
    </nav>
  );
}

/** Server text where `backticked` words are inline code. */
export function RichText(props: { text: string }) {
  const parts = () => props.text.split(/(`[^`]*`)/g);
  return (
    <For each={parts()}>{(p) => (p.startsWith('`') && p.endsWith('`') && p.length >= 2 ? <code>{p.slice(1, -1)}</code> : p)}</For>
  );
}

export function Field(props: { id: string; label: string; hint?: JSX.Element; error?: string | null; optional?: boolean; children: JSX.Element }) {
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>
        {props.label}
        <Show when={props.optional}>
          <span class="optional"> optional</span>
        </Show>
      </label>
      {props.children}
      <Show when={props.error}>
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      </Show>
      <Show when={props.hint}>
        <p class="field-hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      </Show>
    </div>
  );
}

/** A text box's keydown handler: Enter does `action` instead of submitting a form. */
export function onEnter(action: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    action();
  };
}

/** aria-describedby for a control inside Field: the error first, then the hint. */
export function describedBy(id: string, error: string | null | undefined, hint: boolean): string | undefined {
  const ids = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function Segmented<T extends string>(props: { label: string; value: T; options: { value: T; label: string; icon?: IconName }[]; onChange: (v: T) => void; testid?: string }) {
  let group: HTMLDivElement | undefined;
  const move = (e: KeyboardEvent) => {
    const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];
    if (!keys.includes(e.key)) return;
    e.preventDefault();
    const i = props.options.findIndex((o) => o.value === props.value);
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : -1;
    const next = props.options[(i + step + props.options.length) % props.options.length]!;
    props.onChange(next.value);
    queueMicrotask(() => group?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus());
  };
  return (
    <div class="segmented" role="radiogroup" aria-label={props.label} ref={group} onKeyDown={move} data-testid={props.testid}>
      <For each={props.options}>
        {(o) => (
          <button
            type="button"
            role="radio"
            aria-checked={o.value === props.value}
            tabindex={o.value === props.value ? 0 : -1}
            onClick={() => props.onChange(o.value)}
          >
            <Show when={o.icon}>
              <Icon name={o.icon!} />
            </Show>
            {o.label}
          </button>
        )}
      </For>
    </div>
  );
}

export function Switch(props: { id: string; label: string; hint?: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  const [rest] = splitProps(props, ['id']);
  return (
    <div class="switch-row">
      <button
        type="button"
        role="switch"
        id={rest.id}
        aria-checked={props.checked}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        disabled={props.disabled}
        class="switch"
        onClick={() => props.onChange(!props.checked)}
      >
        <span class="switch-knob" aria-hidden="true" />
      </button>
      <div>
        <label for={props.id} class="switch-label">
          {props.label}
        </label>
        <Show when={props.hint}>
          <p class="field-hint" id={`${props.id}-hint`}>
            {props.hint}
          </p>
        </Show>
      </div>
    </div>
  );
}
