// The trash (issue 15): what the console's deletes moved to console/trash, newest first; restore one
// (refused, with why, when its path is taken again), or empty it all after a confirmation.
import { createSignal, For, Show } from 'solid-js';
import type { TrashEntry } from '../../../shared/trash.ts';
import { emptyTrash, getTrash, restoreTrash } from '../api/endpoints.ts';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, Empty, Notice, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { formatBytes, plural } from '../lib/format.ts';
import { retireDeleteToasts } from '../lib/undo-delete.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';

const KIND = { session: 'Session', flow: 'Flow', server: 'Server', other: 'File' } as const;

/** What the item is called: a removed server by its name, anything else by its path. */
const shownAs = (e: TrashEntry) => e.server ?? e.path;

/** One deleted item: what it was, when, its files, and Restore (refused while its path is taken again). */
function TrashItem(props: { entry: TrashEntry; restoring: boolean; problem: string | null; onRestore: () => void }) {
  return (
    <li id={`trash-${props.entry.id}`} data-testid={`trash-${props.entry.id}`}>
      <div class="trash-main">
        <span class="badge">{KIND[props.entry.kind]}</span>
        <span class="mono trash-path">{shownAs(props.entry)}</span>
        <span class="subtle">
          deleted <RelTime ms={props.entry.deleted_unix_ms} /> · {plural(props.entry.files.length, 'file')} · {formatBytes(props.entry.files.reduce((n, f) => n + f.size_bytes, 0))}
        </span>
        <Show when={props.entry.files.length > 1}>
          <span class="subtle trash-files">with {props.entry.files.filter((f) => f.path !== props.entry.path).map((f) => f.path.split('/').pop()).join(', ')}</span>
        </Show>
        <Show when={props.entry.files.some((f) => f.taken)}>
          <span class="warn-line">
            <Icon name="warn" size={13} />{' '}
            {props.entry.kind === 'server'
              ? `A server named ${shownAs(props.entry)} is registered again: remove or rename it first, then restore.`
              : `Something is at ${props.entry.files.filter((f) => f.taken).map((f) => f.path).join(', ')} again: restoring would write over it.`}
          </span>
        </Show>
        <Show when={props.problem}>
          <Notice tone="danger" role="alert" testid="trash-problem">
            {props.problem}
          </Notice>
        </Show>
      </div>
      <Button
        icon="corner-up-left"
        loading={props.restoring}
        disabled={readOnly() || props.entry.files.some((f) => f.taken)}
        reason={readOnly() ? READ_ONLY_REASON : props.entry.kind === 'server' ? 'A server of that name is registered again' : 'Its path is taken again: move that file first'}
        onClick={props.onRestore}
        testid={`restore-${props.entry.id}`}
        label={`Restore ${shownAs(props.entry)}`}
      >
        Restore
      </Button>
    </li>
  );
}

export default function TrashPage() {
  useTitle(() => 'Trash');
  const res = createApiResource(
    () => true,
    (_s, signal) => getTrash({ signal }),
    { topics: ['sessions', 'flows', 'servers'] },
  );
  const [confirm, setConfirm] = createSignal(false);
  // Which item the last restore was for: its refusal shows on that item only.
  const [restoring, setRestoring] = createSignal<string | null>(null);
  const restore = createAction((e: TrashEntry) => restoreTrash(e.id), {
    success: (_answer, e) => ({ title: `${KIND[e.kind]} restored`, message: shownAs(e) }),
    after: (_answer, e) => {
      retireDeleteToasts(e.files.map((f) => f.path));
      res.refetch();
    },
  });
  const empty = createAction(emptyTrash, {
    failure: 'The trash was not emptied',
    success: (r) => ({ title: 'Trash emptied', message: `${plural(r.removed, 'deleted item')} removed for good.` }),
    after: () => {
      setConfirm(false);
      res.refetch();
    },
  });
  const items = () => res.data()?.items ?? [];

  return (
    <div class="page">
      <PageHeader
        title="Trash"
        sub={
          <>
            What you deleted here, kept in <code>console/trash</code> in the data dir until you empty it. Restore puts each file back where it was.
          </>
        }
        actions={
          <Button variant="danger" icon="trash" disabled={readOnly() || items().length === 0} reason={readOnly() ? READ_ONLY_REASON : 'The trash is empty'} onClick={() => setConfirm(true)} testid="trash-empty">
            Empty the trash
          </Button>
        }
      />
      <Card label="Deleted items" flush>
        <Loaded resource={res} skeleton={<div style={{ padding: '8px 18px' }}><Skeleton lines={4} /></div>}>
          {() => (
            <Show when={items().length > 0} fallback={<Empty icon="trash" title="The trash is empty">Sessions and flows you delete, and servers you remove, wait here, to restore or to empty.</Empty>}>
              <ul class={`trash-list${res.refreshing() ? ' refreshing' : ''}`} data-testid="trash-list">
                <For each={items()}>
                  {(e) => (
                    <TrashItem
                      entry={e}
                      restoring={restore.busy() && restoring() === e.id}
                      problem={restoring() === e.id ? restore.error() : null}
                      onRestore={() => {
                        if (restore.busy()) return;
                        setRestoring(e.id);
                        void restore.run(e);
                      }}
                    />
                  )}
                </For>
              </ul>
            </Show>
          )}
        </Loaded>
      </Card>
      <Dialog
        open={confirm()}
        title="Empty the trash?"
        description={`${plural(items().length, 'deleted item')} will be removed from the disk for good. This cannot be undone.`}
        onClose={() => setConfirm(false)}
        testid="trash-empty-dialog"
        footer={
          <>
            <Button variant="primary" onClick={() => setConfirm(false)}>
              Keep them
            </Button>
            <Button variant="danger" icon="trash" loading={empty.busy()} onClick={() => void empty.run()} testid="trash-empty-confirm">
              Empty the trash
            </Button>
          </>
        }
      />
    </div>
  );
}
