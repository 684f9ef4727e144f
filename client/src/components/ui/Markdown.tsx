// Renders the tree of lib/flow-markdown.ts (job reports, flow reviews, diffs) as elements with text
// children: nothing reaches innerHTML, and only http(s) links keep an address (opened in a new tab,
// noopener noreferrer). Tables scroll in their own frame.
import { For, type JSX, Match, Switch } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { parseMarkdown, type Block, type Inline } from '../../lib/flow-markdown.ts';

function Inlines(props: { nodes: readonly Inline[] }): JSX.Element {
  return (
    <For each={props.nodes}>
      {(n) => (
        <Switch>
          <Match when={n.t === 'text' && n}>{(x) => x().text}</Match>
          <Match when={n.t === 'code' && n}>{(x) => <code>{x().text}</code>}</Match>
          <Match when={n.t === 'strong' && n}>
            {(x) => (
              <strong>
                <Inlines nodes={x().children} />
              </strong>
            )}
          </Match>
          <Match when={n.t === 'em' && n}>
            {(x) => (
              <em>
                <Inlines nodes={x().children} />
              </em>
            )}
          </Match>
          <Match when={n.t === 'link' && n}>
            {(x) => (
              <a href={x().href} target="_blank" rel="noopener noreferrer">
                <Inlines nodes={x().children} />
              </a>
            )}
          </Match>
        </Switch>
      )}
    </For>
  );
}

function Blocks(props: { blocks: readonly Block[]; shift: number }): JSX.Element {
  return (
    <For each={props.blocks}>
      {(b) => (
        <Switch>
          <Match when={b.t === 'heading' && b}>
            {(x) => (
              <Dynamic component={`h${Math.min(6, x().level + props.shift)}`}>
                <Inlines nodes={x().children} />
              </Dynamic>
            )}
          </Match>
          <Match when={b.t === 'paragraph' && b}>
            {(x) => (
              <p>
                <Inlines nodes={x().children} />
              </p>
            )}
          </Match>
          <Match when={b.t === 'list' && b}>
            {(x) => (
              <Dynamic component={x().ordered ? 'ol' : 'ul'}>
                <For each={x().items}>
                  {(item) => (
                    <li>
                      <Inlines nodes={item} />
                    </li>
                  )}
                </For>
              </Dynamic>
            )}
          </Match>
          <Match when={b.t === 'table' && b}>
            {(x) => (
              <div class="md-table" tabindex="0" role="region" aria-label="Table">
                <table>
                  <thead>
                    <tr>
                      <For each={x().head}>
                        {(c) => (
                          <th scope="col">
                            <Inlines nodes={c} />
                          </th>
                        )}
                      </For>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={x().rows}>
                      {(r) => (
                        <tr>
                          <For each={r}>
                            {(c) => (
                              <td>
                                <Inlines nodes={c} />
                              </td>
                            )}
                          </For>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
            )}
          </Match>
          <Match when={b.t === 'code' && b}>
            {(x) => (
              <pre class="md-code" tabindex="0">
                <code>{x().text}</code>
              </pre>
            )}
          </Match>
          <Match when={b.t === 'quote' && b}>
            {(x) => (
              <blockquote>
                <Blocks blocks={x().children} shift={props.shift} />
              </blockquote>
            )}
          </Match>
          <Match when={b.t === 'rule'}>
            <hr />
          </Match>
        </Switch>
      )}
    </For>
  );
}

/** `shift` moves headings down (a report inside a card starts at h3 with shift 2). */
export function Markdown(props: { source: string; shift?: number }) {
  const blocks = () => parseMarkdown(props.source);
  return (
    <div class="markdown">
      <Blocks blocks={blocks()} shift={props.shift ?? 0} />
    </div>
  );
}
