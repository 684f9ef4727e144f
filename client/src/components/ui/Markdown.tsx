// Renders the CLI's Markdown (job reports, flow-show and flow reviews, flow-diff, the stage report) from the
// tree lib/cli-markdown.ts reads: every piece of text is a text node (nothing reaches innerHTML), links are
// web links only and open in a new tab (noopener noreferrer), tables scroll in their own frame so the page
// never scrolls sideways.
import { For, Match, Switch, createMemo, type JSX } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { parseMarkdown, type Block, type Inline } from '../../lib/cli-markdown.ts';

function Inlines(props: { nodes: readonly Inline[] }): JSX.Element {
  return (
    <For each={props.nodes}>
      {(node) => (
        <Switch>
          <Match when={node.t === 'text' && node}>{(n) => n().text}</Match>
          <Match when={node.t === 'code' && node}>{(n) => <code>{n().text}</code>}</Match>
          <Match when={node.t === 'strong' && node}>{(n) => <strong><Inlines nodes={n().children} /></strong>}</Match>
          <Match when={node.t === 'em' && node}>{(n) => <em><Inlines nodes={n().children} /></em>}</Match>
          <Match when={node.t === 'link' && node}>
            {(n) => (
              <a href={n().href} target="_blank" rel="noopener noreferrer">
                <Inlines nodes={n().children} />
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
      {(block) => (
        <Switch>
          <Match when={block.t === 'heading' && block}>
            {(b) => (
              <Dynamic component={`h${Math.min(6, b().level + props.shift)}`}>
                <Inlines nodes={b().children} />
              </Dynamic>
            )}
          </Match>
          <Match when={block.t === 'paragraph' && block}>{(b) => <p><Inlines nodes={b().children} /></p>}</Match>
          <Match when={block.t === 'list' && block}>
            {(b) => (
              <Dynamic component={b().ordered ? 'ol' : 'ul'}>
                <For each={b().items}>{(item) => <li><Inlines nodes={item} /></li>}</For>
              </Dynamic>
            )}
          </Match>
          <Match when={block.t === 'table' && block}>
            {(b) => (
              <div class="md-table" tabindex="0" role="region" aria-label="Table">
                <table>
                  <thead>
                    <tr><For each={b().head}>{(cell) => <th scope="col"><Inlines nodes={cell} /></th>}</For></tr>
                  </thead>
                  <tbody>
                    <For each={b().rows}>
                      {(row) => <tr><For each={row}>{(cell) => <td><Inlines nodes={cell} /></td>}</For></tr>}
                    </For>
                  </tbody>
                </table>
              </div>
            )}
          </Match>
          <Match when={block.t === 'code' && block}>
            {(b) => <pre class="md-code" tabindex="0"><code>{b().text}</code></pre>}
          </Match>
          <Match when={block.t === 'quote' && block}>
            {(b) => <blockquote><Blocks blocks={b().children} shift={props.shift} /></blockquote>}
          </Match>
          <Match when={block.t === 'rule'}>
            <hr />
          </Match>
        </Switch>
      )}
    </For>
  );
}

/**
 * Markdown as elements. `shift` lowers every heading level (a page already has its h1 and cards their h2,
 * so a text's "# Flow: shop" reads as an h3 inside a card) without changing the words.
 */
export function Markdown(props: { text: string; shift?: number; label?: string }) {
  const blocks = createMemo(() => parseMarkdown(props.text));
  return (
    <div class="markdown" aria-label={props.label}>
      <Blocks blocks={blocks()} shift={props.shift ?? 0} />
    </div>
  );
}
