// The trash (issue 15): what the console's deletes moved to console/trash, newest first; restore one
// (refused, with why, when its path is taken again), or empty it all after a confirmation.
import { createSignal, For, Show } from 'solid-js';
import type { TrashEntry } from '../../../shared/trash.ts';
import { emptyTrash, getTrash, restoreTrash } from '../api/endpoints.ts';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, Empty, ErrorState, Notice, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { formatBytes, plural } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { toast } from '../stores/toasts.ts';
import { errorText } from '../../../shared/error-text.ts';

const KIND = { session: 'Session', flow: 'Flow', other: 'File' } as const;

export default function TrashPage() {
  useTitle(() => 'Trash');
  const res = createApiResource(
    () => true,
    (_s, signal) => getTrash({ signal }),
    { topics: ['sessions', 'flows'] },
  );
  const [busy, setBusy] = createSignal<string | null>(null);
  const [problem, setProblem] = createSignal<{ id: string; message: string } | null>(null);
  const [confirm, setConfirm] = createSignal(false);

  const restore = async (e: TrashEntry) => {
    setBusy(e.id);
    setProblem(null);
    try {
      await restoreTrash(e.id);
      toast({ kind: 'success', title: `${KIND[e.kind]} restored`, message: e.path });
      res.refetch();
    } catch (err) {
      setProblem({ id: e.id, message: errorText(err) });
    } finally {
      setBusy(null);
    }
  };
  const empty = async () => {
    setBusy('all');
    try {
      const r = await emptyTrash();
      toast({ kind: 'success', title: 'Trash emptied', message: `${plural(r.removed, 'deleted item')} removed for good.` });
      setConfirm(false);
      res.refetch();
    } catch (err) {
      toast({ kind: 'error', title: 'The trash was not emptied', message: errorText(err) });
    } finally {
      setBusy(null);
    }
  };
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
        <Show when={!res.error()} fallback={<ErrorState error={res.error()!} retry={res.refetch} />}>
          <Show when={res.data()} fallback={<div style={{ padding: '8px 18px' }}><Skeleton lines={4} /></div>}>
            <Show when={items().length > 0} fallback={<Empty icon="trash" title="The trash is empty">Sessions and flows you delete wait here, to restore or to empty.</Empty>}>
              <ul class={`trash-list${res.refreshing() ? ' refreshing' : ''}`} data-testid="trash-list">
                <For each={items()}>
                  {(e) => (
                    <li data-testid={`trash-${e.id}`}>
                      <div class="trash-main">
                        <span class="badge">{KIND[e.kind]}</span>
                        <span class="mono trash-path">{e.path}</span>
                        <span class="subtle">
                          deleted <RelTime ms={e.deleted_unix_ms} /> · {plural(e.files.length, 'file')} · {formatBytes(e.files.reduce((n, f) => n + f.size_bytes, 0))}
                        </span>
                        <Show when={e.files.length > 1}>
                          <span class="subtle trash-files">with {e.files.filter((f) => f.path !== e.path).map((f) => f.path.split('/').pop()).join(', ')}</span>
                        </Show>
                        <Show when={e.files.some((f) => f.taken)}>
                          <span class="warn-line">
                            <Icon name="warn" size={13} /> Something is at {e.files.filter((f) => f.taken).map((f) => f.path).join(', ')} again: restoring would write over it.
                          </span>
                        </Show>
                        <Show when={problem()?.id === e.id}>
                          <Notice tone="danger" role="alert" testid="trash-problem">
                            {problem()!.message}
                          </Notice>
                        </Show>
                      </div>
                      <Button
                        icon="corner-up-left"
                        loading={busy() === e.id}
                        disabled={readOnly() || e.files.some((f) => f.taken)}
                        reason={readOnly() ? READ_ONLY_REASON : 'Its path is taken again: move that file first'}
                        onClick={() => void restore(e)}
                        testid={`restore-${e.id}`}
                        label={`Restore ${e.path}`}
                      >
                        Restore
                      </Button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </Show>
        </Show>
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
            <Button variant="danger" icon="trash" loading={busy() === 'all'} onClick={() => void empty()} testid="trash-empty-confirm">
              Empty the trash
            </Button>
          </>
        }
      />
    </div>
  );
}
