// Asks before a filled form is left (issue 15): a link or Back to another page opens "Leave this form?"
// (Stay has the focus, so Enter keeps the work); closing or reloading the tab gets the browser's own question.
// Changes of the query on the same page (the form's own kind, say) are not leaving.
import { useBeforeLeave, useLocation, type BeforeLeaveEventArgs } from '@solidjs/router';
import { createSignal, onCleanup } from 'solid-js';
import { Dialog } from '../ui/Dialog.tsx';
import { Button } from '../ui/ui.tsx';

const pathOf = (to: string | number) => (typeof to === 'number' ? null : new URL(to, location.href).pathname);

export function LeaveGuard(props: { dirty: () => boolean; what?: string }) {
  const here = useLocation();
  const [pending, setPending] = createSignal<BeforeLeaveEventArgs | null>(null);
  useBeforeLeave((e) => {
    if (e.defaultPrevented || !props.dirty()) return;
    if (pathOf(e.to) === here.pathname) return;
    e.preventDefault();
    setPending(e);
  });
  const unload = (e: BeforeUnloadEvent) => {
    if (!props.dirty()) return;
    e.preventDefault();
    e.returnValue = '';
  };
  window.addEventListener('beforeunload', unload);
  onCleanup(() => window.removeEventListener('beforeunload', unload));
  const leave = () => {
    const e = pending();
    setPending(null);
    e?.retry(true);
  };
  return (
    <Dialog
      open={pending() !== null}
      title="Leave this form?"
      description={`What you filled in ${props.what ?? 'here'} is not saved, and goes when you leave.`}
      onClose={() => setPending(null)}
      testid="leave-dialog"
      footer={
        <>
          {/* Stay comes first: the dialog focuses the first primary or danger button. */}
          <Button variant="primary" onClick={() => setPending(null)} testid="leave-stay">
            Stay
          </Button>
          <Button variant="danger" onClick={leave} testid="leave-confirm">
            Leave and discard
          </Button>
        </>
      }
    />
  );
}
