// A native modal <dialog>: focus moves in on open (the first [autofocus] or field, else the primary button, or
// for a dialog with a destructive button the safe one beside it) and back on close; Escape and a press on the
// backdrop close it.
import { createEffect, type JSX, onCleanup, Show } from 'solid-js';
import { Icon } from './Icon.tsx';

export function Dialog(props: { open: boolean; title: string; description?: JSX.Element; onClose: () => void; children?: JSX.Element; footer?: JSX.Element; width?: number; testid?: string }) {
  let el: HTMLDialogElement | undefined;
  let returnTo: HTMLElement | null = null;
  createEffect(() => {
    if (!el) return;
    if (props.open && !el.open) {
      returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      el.showModal();
      // A dialog that can destroy something starts on its safe button, so Enter, Enter never destroys.
      const destructive = el.querySelector('.dialog-foot .btn-danger') !== null;
      const first = destructive
        ? el.querySelector<HTMLElement>('[autofocus], input, select, textarea, .dialog-foot .btn:not(.btn-danger)')
        : el.querySelector<HTMLElement>('[autofocus], input, select, textarea, .btn-primary');
      first?.focus();
    } else if (!props.open && el.open) {
      el.close();
      returnTo?.focus();
    }
  });
  onCleanup(() => {
    if (el?.open) el.close();
  });
  return (
    <dialog
      ref={el}
      class="dialog"
      aria-label={props.title}
      style={{ width: `min(${props.width ?? 520}px, calc(100vw - 32px))` }}
      data-testid={props.testid}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === el) props.onClose();
      }}
    >
      <Show when={props.open}>
        <div class="dialog-head">
          <div>
            <h2>{props.title}</h2>
            <Show when={props.description}>
              <div class="dialog-desc">{props.description}</div>
            </Show>
          </div>
          <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label="Close" title="Close" onClick={() => props.onClose()}>
            <Icon name="x" />
          </button>
        </div>
        <Show when={props.children}>
          <div class="dialog-body">{props.children}</div>
        </Show>
        <Show when={props.footer}>
          <div class="dialog-foot">{props.footer}</div>
        </Show>
      </Show>
    </dialog>
  );
}
