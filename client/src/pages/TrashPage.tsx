// The trash: what the console's deletes moved to console/trash, newest first; restore one, or the ticked
// ones (each refused, with why on it, when its path is taken again), or empty it all after a confirmation.
import { createSignal, For, Show } from 'solid-js';
import { emptyTrash, getTrash } from '../api/endpoints.ts';
import { Dialog } from '../components/ui/Dialog.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, Empty, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { plural } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { TrashBulkActions } from './trash/TrashBulkActions.tsx';
import { TrashItem } from './trash/TrashItem.tsx';
import { createTrashRestores } from './trash/trash-restores.ts';

export default function TrashPage() {
  useTitle(() => 'Trash');
  const res = createApiResource(
    () => true,
    (_s, signal) => getTrash({ signal }),
    { topics: ['sessions', 'flows', 'servers'] },
  );
  const [confirm, setConfirm] = createSignal(false);
  const items = () => res.data()?.items ?? [];
  const restores = createTrashRestores(items, () => res.refetch());
  const empty = createAction(emptyTrash, {
    failure: 'The trash was not emptied',
    success: (r) => ({ title: 'Trash emptied', message: `${plural(r.removed, 'deleted item')} removed for good.` }),
    after: () => {
      setConfirm(false);
      res.refetch();
    },
  });

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
              <TrashBulkActions
                ticked={restores.ticked().length}
                listed={items().length}
                restoring={restores.restoringTicked()}
                onRestore={restores.restoreTicked}
                onTickAll={restores.tickAll}
                onUntick={restores.untick}
              />
              <ul class={`trash-list${res.refreshing() ? ' refreshing' : ''}`} data-testid="trash-list">
                <For each={items()}>
                  {(e) => (
                    <TrashItem
                      entry={e}
                      ticked={restores.isTicked(e.id)}
                      onTick={(on) => restores.tick(e.id, on)}
                      restoring={restores.restoringOne(e.id)}
                      problem={restores.problem(e.id)}
                      onRestore={() => void restores.restoreOne(e)}
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
