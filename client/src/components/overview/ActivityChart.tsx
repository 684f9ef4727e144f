// The 14-day activity chart: per day a stacked bar of the agent's tool calls (slate) and the flow's lookups
// (accent), hand-drawn SVG with a nice y scale, a tooltip on hover or keyboard focus, and a table view one
// click away. The plot is a focusable img whose label sums it up; arrows read each day; a bar (or Enter) opens
// that day's sessions.
import { A, useNavigate } from '@solidjs/router';
import { createSignal, For, type JSX, onCleanup, onMount, Show } from 'solid-js';
import type { DayActivity } from '../../../../shared/overview.ts';
import { barWidth, labelPlace, labelledDays, niceScale, stack, ticks } from '../../lib/chart.ts';
import { formatCount, formatDay, plural } from '../../lib/format.ts';
import { Icon } from '../ui/Icon.tsx';

const M = { top: 10, right: 6, bottom: 28, left: 40 };

export function ActivityChart(props: { days: DayActivity[]; /** The list of a day's sessions. */ dayHref: (day: string) => string }) {
  const navigate = useNavigate();
  const [table, setTable] = createSignal(false);
  const [width, setWidth] = createSignal(640);
  const [active, setActive] = createSignal<number | null>(null);
  let box: HTMLDivElement | undefined;
  onMount(() => {
    if (!box) return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w) setWidth(w);
    });
    ro.observe(box);
    onCleanup(() => ro.disconnect());
  });
  const height = () => Math.max(232, Math.min(420, Math.round(width() * 0.42)));
  const plotW = () => Math.max(120, width() - M.left - M.right);
  const plotH = () => height() - M.top - M.bottom;
  const max = () => Math.max(0, ...props.days.map((d) => d.tool_calls + d.flow_lookups));
  const scale = () => niceScale(max());
  const band = () => plotW() / Math.max(1, props.days.length);
  // A long range packs the days: a bar never reaches into the next day's band.
  const bw = () => Math.min(barWidth(band()), band() * 0.9);
  const y = (v: number) => M.top + plotH() - (v / scale().top) * plotH();
  const labels = () => labelledDays(props.days.length, band());
  const geometry = (): Geometry => ({ band: band(), bw: bw(), width: width(), height: height(), plotH: plotH(), top: scale().top, y0: y(0) });
  const calls = () => props.days.reduce((s, d) => s + d.tool_calls, 0);
  const lookups = () => props.days.reduce((s, d) => s + d.flow_lookups, 0);
  const summary = () =>
    `Tool calls per day over the last ${props.days.length} days: ${formatCount(calls())} by the agent and ${formatCount(lookups())} read ahead by engine. Use the arrow keys to read each day, Enter to list its sessions.`;
  const key = (e: KeyboardEvent) => {
    const open = active();
    if (e.key === 'Enter' && open !== null && props.days[open]) {
      e.preventDefault();
      navigate(props.dayHref(props.days[open].day));
      return;
    }
    const next = dayAfterKey(e.key, active(), props.days.length);
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
  };
  const tip = () => {
    const i = active();
    if (i === null) return null;
    const d = props.days[i];
    if (!d) return null;
    const cx = M.left + band() * i + band() / 2;
    const flip = cx > width() - 190;
    const top = y(d.tool_calls + d.flow_lookups);
    return { d, style: { top: `${Math.max(0, top - 90)}px`, ...(flip ? { right: `${width() - cx + 10}px` } : { left: `${cx + 10}px` }) } };
  };
  return (
    <figure class="chart">
      <div class="chart-top">
        <div class="legend">
          <span>
            <span class="swatch" style={{ background: 'var(--slate)' }} /> Agent’s calls
          </span>
          <span>
            <span class="swatch" style={{ background: 'var(--accent-graphic)' }} /> Read ahead by engine
          </span>
        </div>
        <button type="button" class="btn btn-ghost btn-sm" aria-pressed={table()} onClick={() => setTable(!table())}>
          <Icon name={table() ? 'chart' : 'table'} />
          {table() ? 'Chart' : 'Table'}
        </button>
      </div>
      <Show
        when={!table()}
        fallback={<ActivityTable days={props.days} summary={summary()} dayHref={props.dayHref} />}
      >
        <div class="chart-box" ref={box}>
          <svg
            width={width()}
            height={height()}
            viewBox={`0 0 ${width()} ${height()}`}
            role="img"
            aria-label={summary()}
            tabindex="0"
            onKeyDown={key}
            onBlur={() => setActive(null)}
            onMouseLeave={() => setActive(null)}
          >
            <g class="grid axis">
              <Show when={max() > 0}>
                <For each={ticks(scale().top, scale().step)}>
                  {(t) => (
                    <>
                      <line x1={M.left} x2={M.left + plotW()} y1={y(t)} y2={y(t)} />
                      <text x={M.left - 6} y={y(t) + 4} text-anchor="end">
                        {formatCount(t)}
                      </text>
                    </>
                  )}
                </For>
              </Show>
            </g>
            <line class="baseline" x1={M.left} x2={M.left + plotW()} y1={y(0)} y2={y(0)} />
            <Show when={max() === 0}>
              <text class="chart-empty" x={M.left + plotW() / 2} y={M.top + plotH() / 2} text-anchor="middle">
                No tool calls in these {props.days.length} days
              </text>
            </Show>
            <For each={props.days}>
              {(d, i) => <DayBar day={d} index={i()} geometry={geometry()} active={active()} labelled={labels().has(i())} onEnter={() => setActive(i())} onOpen={() => navigate(props.dayHref(d.day))} />}
            </For>
          </svg>
          <Show when={tip()}>{(t) => <DayTip day={t().d} style={t().style} />}</Show>
        </div>
      </Show>
    </figure>
  );
}

/** Where the arrow keys, Home, End and Escape move the day read out; undefined for any other key. */
function dayAfterKey(key: string, active: number | null, n: number): number | null | undefined {
  if (n === 0) return undefined;
  if (key === 'ArrowRight') return active === null ? 0 : Math.min(n - 1, active + 1);
  if (key === 'ArrowLeft') return active === null ? n - 1 : Math.max(0, active - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return n - 1;
  if (key === 'Escape') return null;
  return undefined;
}

/** The chart as a table, newest day first. */
function ActivityTable(props: { days: DayActivity[]; summary: string; dayHref: (day: string) => string }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="sr-only">{props.summary}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" class="n">
              Sessions
            </th>
            <th scope="col" class="n">
              Agent’s calls
            </th>
            <th scope="col" class="n">
              Read ahead by engine
            </th>
          </tr>
        </thead>
        <tbody>
          <For each={[...props.days].reverse()}>
            {(d) => (
              <tr>
                <td>{formatDay(d.day, true)}</td>
                <td class="n">
                  <A href={props.dayHref(d.day)}>{formatCount(d.sessions)}</A>
                </td>
                <td class="n">{formatCount(d.tool_calls)}</td>
                <td class="n">{formatCount(d.flow_lookups)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}

/** What a day's bar needs of the plot's size and scale. */
interface Geometry {
  band: number;
  bw: number;
  width: number;
  height: number;
  plotH: number;
  /** The y scale's top value, and the baseline's y. */
  top: number;
  y0: number;
}

/** A day's stacked bar (the agent's calls, then the lookups, rounded on top), its label, and its hover band. */
function DayBar(props: { day: DayActivity; index: number; geometry: Geometry; active: number | null; labelled: boolean; onEnter: () => void; onOpen: () => void }) {
  const g = () => props.geometry;
  const d = () => props.day;
  const x = () => M.left + g().band * props.index + (g().band - g().bw) / 2;
  const s = () => stack(d().tool_calls, d().flow_lookups, g().top, g().plotH);
  const dim = () => props.active !== null && props.active !== props.index;
  const topSeg = (yTop: number, h: number, cls: string) => {
    const rr = Math.min(4, h, g().bw / 2);
    const x0 = x();
    const w = g().bw;
    return <path class={cls} d={`M${x0},${yTop + h} V${yTop + rr} Q${x0},${yTop} ${x0 + rr},${yTop} H${x0 + w - rr} Q${x0 + w},${yTop} ${x0 + w},${yTop + rr} V${yTop + h} Z`} />;
  };
  const label = () => labelPlace(M.left + g().band * props.index + g().band / 2, g().width);
  return (
    <g class={dim() ? 'dim' : undefined}>
      <Show when={s().calls > 0}>
        {s().lookups > 0 ? <rect class="bar-calls" x={x()} y={g().y0 - s().calls} width={g().bw} height={s().calls} /> : topSeg(g().y0 - s().calls, s().calls, 'bar-calls')}
      </Show>
      <Show when={s().lookups > 0}>{topSeg(g().y0 - s().calls - s().gap - s().lookups, s().lookups, 'bar-lookups')}</Show>
      <Show when={props.labelled}>
        <text class="axis" x={label().x} y={g().height - 8} text-anchor={label().anchor} data-testid="chart-day-label">
          {formatDay(d().day)}
        </text>
      </Show>
      <rect x={M.left + g().band * props.index} y={M.top} width={g().band} height={g().plotH} fill="transparent" class="day-hit" data-testid={`chart-day-${d().day}`} onMouseEnter={() => props.onEnter()} onClick={() => props.onOpen()} />
    </g>
  );
}

/** The tooltip of the day read out. */
function DayTip(props: { day: DayActivity; style: JSX.CSSProperties }) {
  return (
    <div class="chart-tip" style={props.style} aria-live="polite">
      <strong>{formatDay(props.day.day, true)}</strong>
      <div>{formatCount(props.day.flow_lookups)} read ahead by engine</div>
      <div>{formatCount(props.day.tool_calls)} agent’s calls</div>
      <hr />
      <div>{plural(props.day.sessions, 'session')}</div>
      <div class="subtle">Click or Enter lists them</div>
    </div>
  );
}
