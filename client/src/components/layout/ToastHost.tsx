// The toast stack, bottom right: a polite live region; error toasts are alerts.
import { For } from 'solid-js';
import { dismiss, toasts } from '../../stores/toasts.ts';
import { Icon } from '../ui/Icon.tsx';

export function ToastHost() {
  return (
    <div class="toasts" aria-live="polite" aria-relevant="additions">
      <For each={toasts()}>
        {(t) => (
          <div class={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
            <Icon name={t.kind === 'error' ? 'circle-alert' : t.kind === 'success' ? 'circle-check' : 'info'} />
            <div class="toast-text">
              <strong>{t.title}</strong>
              {t.message ? <span>{t.message}</span> : null}
            </div>
            {t.action ? (
              <button
                type="button"
                class="btn btn-secondary btn-sm"
                data-testid="toast-action"
                ref={(b) => {
                  if (t.action?.focus) queueMicrotask(() => b.focus());
                }}
                onClick={() => {
                  dismiss(t.id);
                  t.action!.run();
                }}
              >
                {t.action.label}
              </button>
            ) : null}
            <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              <Icon name="x" />
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
