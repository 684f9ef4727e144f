// A JSON value as a tree: objects and arrays are toggle buttons (aria-expanded) that show a summary when
// closed; strings are JSON-quoted text. Everything is text nodes, so hostile values stay inert.
import { createEffect, createSignal, For, type JSX, Match, on, Show, Switch } from 'solid-js';
import { jsonSummary, pretty } from '../../lib/json.ts';
import { CopyButton } from './ui.tsx';

function Node(props: { name?: string; value: unknown; depth: number; open: number; version: () => number; last: boolean }): JSX.Element {
  const isObj = () => props.value !== null && typeof props.value === 'object';
  const entries = (): [string, unknown][] =>
    Array.isArray(props.value) ? props.value.map((v, i) => [String(i), v]) : Object.entries(props.value as Record<string, unknown>);
  // A node's own choice wins until Expand all / Collapse all bumps the version and sets every node by depth.
  const [own, setOwn] = createSignal<boolean | null>(null);
  createEffect(on(props.version, () => setOwn(null), { defer: true }));
  const isOpen = () => own() ?? props.depth < props.open;
  const setOpen = (v: boolean) => setOwn(v);
  const open = isOpen;
  const key = () =>
    props.name !== undefined ? (
      <span class="json-key">
        {Array.isArray(props.value) || !/^\d+$/.test(props.name) ? JSON.stringify(props.name) : props.name}
        {': '}
      </span>
    ) : null;
  const comma = () => (props.last ? '' : ',');
  return (
    <Switch>
      <Match when={isObj()}>
        <div class="json-node">
          <button type="button" class="json-toggle" aria-expanded={isOpen()} disabled={entries().length === 0} onClick={() => setOpen(!open())}>
            {key()}
            {Array.isArray(props.value) ? '[' : '{'}
            <Show when={!isOpen() || entries().length === 0}>
              <Show when={entries().length > 0}>
                <span class="json-summary"> {jsonSummary(props.value)} </span>
              </Show>
              {Array.isArray(props.value) ? ']' : '}'}
              {comma()}
            </Show>
          </button>
          <Show when={isOpen() && entries().length > 0}>
            <div class="json-children">
              <For each={entries()}>
                {([k, v], i) => <Node name={Array.isArray(props.value) ? undefined : k} value={v} depth={props.depth + 1} open={props.open} version={props.version} last={i() === entries().length - 1} />}
              </For>
            </div>
            <span class="json-close">
              {Array.isArray(props.value) ? ']' : '}'}
              {comma()}
            </span>
          </Show>
        </div>
      </Match>
      <Match when={!isObj()}>
        <div class="json-leaf">
          {key()}
          <span class={`json-${props.value === null ? 'null' : typeof props.value}`}>{JSON.stringify(props.value) ?? 'undefined'}</span>
          {comma()}
        </div>
      </Match>
    </Switch>
  );
}

export function JsonTree(props: { value: unknown; label?: string; depth?: number; maxHeight?: number; what?: string }) {
  const [version, setVersion] = createSignal(0);
  const [depth, setDepth] = createSignal(props.depth ?? 2);
  const [all, setAll] = createSignal(false);
  const isObj = () => props.value !== null && typeof props.value === 'object';
  const toggleAll = () => {
    const next = !all();
    setAll(next);
    setDepth(next ? 99 : 0);
    setVersion(version() + 1);
  };
  return (
    <div class="json">
      <div class="json-head">
        <span class="json-label">{props.label}</span>
        <Show when={isObj()}>
          <button type="button" class="btn btn-ghost btn-sm" onClick={toggleAll}>
            {all() ? 'Collapse all' : 'Expand all'}
          </button>
        </Show>
        <CopyButton text={() => pretty(props.value)} what={props.what ?? 'JSON'} />
      </div>
      <div class="json-body mono" style={{ 'max-height': props.maxHeight ? `${props.maxHeight}px` : undefined }}>
        <Node value={props.value} depth={0} open={depth()} version={version} last />
      </div>
    </div>
  );
}
