// A session's page when the session is not there (404): if its log is in the trash, say so, since when, and
// offer Restore; otherwise say there is no such session, with the ways on (no "Try again": it would not help).
import { Show } from 'solid-js';
import type { ApiError } from '../../api/client.ts';
import { getTrash, restoreTrash } from '../../api/endpoints.ts';
import { Button, Empty, ErrorState, Notice, RelTime } from '../../components/ui/ui.tsx';
import { createAction } from '../../data/createAction.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { formatDateTime } from '../../lib/format.ts';
import { retireDeleteToasts } from '../../lib/undo-delete.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';

/** Whether a trash path is this session's log: its file stem is the key's (a clashing key adds `~hash`). */
const isLogOf = (path: string, key: string) => (path.split('/').pop() ?? '') === `${key.split('~')[0]}.jsonl`;

export function SessionGone(props: { sessionKey: string; error: ApiError; onRestored: () => void }) {
  const trash = createApiResource(
    () => props.sessionKey,
    (_k, signal) => getTrash({ signal }),
    { topics: ['sessions'] },
  );
  const entry = () => trash.data()?.items.find((e) => e.kind === 'session' && isLogOf(e.path, props.sessionKey));
  const restore = createAction(
    async () => {
      const e = entry();
      if (!e) throw new Error('It is no longer in the trash');
      await restoreTrash(e.id);
      return e;
    },
    {
      success: (e) => ({ title: 'Session restored', message: e.path }),
      after: (e) => {
        retireDeleteToasts(e.files.map((f) => f.path));
        props.onRestored();
      },
    },
  );
  const taken = () => entry()?.files.some((f) => f.taken) ?? false;
  return (
    <Show
      when={entry()}
      fallback={
        <Show when={trash.data() || trash.error()}>
          <ErrorState
            error={props.error}
            notFoundTitle="No such session"
            actions={
              <Button icon="sessions" to="/sessions">
                All sessions
              </Button>
            }
          />
        </Show>
      }
    >
      {(e) => (
        <div data-testid="session-in-trash">
          <Empty
            icon="trash"
            title="This session is in the trash"
            actions={
              <>
                <Button
                  variant="primary"
                  icon="corner-up-left"
                  loading={restore.busy()}
                  disabled={readOnly() || taken()}
                  reason={readOnly() ? READ_ONLY_REASON : 'Its path is taken again: move that file first'}
                  onClick={() => void restore.run()}
                >
                  Restore
                </Button>
                <Button icon="trash" to="/trash">
                  Open the trash
                </Button>
              </>
            }
          >
            <span class="mono">{e().path}</span> was moved to the trash <RelTime ms={e().deleted_unix_ms} /> ({formatDateTime(e().deleted_unix_ms)}). Restore
            puts it back with its flow and confirmation logs.
          </Empty>
          <Show when={restore.error()}>
            <Notice tone="danger" role="alert">
              {restore.error()}
            </Notice>
          </Show>
        </div>
      )}
    </Show>
  );
}
