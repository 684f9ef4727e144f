// Toasts: at most 4 (the oldest goes), the same kind+title+message replaces the older one, errors live 9 s,
// the others 4.5 s, copy confirmations 2.2 s; a toast with an action (Undo) lives as long as its caller says. The host renders them in a polite live region.
import { createSignal } from 'solid-js';

export type ToastKind = 'info' | 'success' | 'error';
/** A button in the toast (Undo): it runs once, and the toast goes. */
export interface ToastAction {
  label: string;
  run: () => void;
  /** Takes the focus as it shows, so the keyboard reaches it at once instead of through the whole page. */
  focus?: boolean;
}
export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  message?: string;
  action?: ToastAction;
}

const MAX = 4;
const [list, setList] = createSignal<Toast[]>([]);
export const toasts = list;
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function toast(t: { kind: ToastKind; title: string; message?: string; timeout?: number; action?: ToastAction }): number {
  const id = nextId++;
  const timeout = t.timeout ?? (t.kind === 'error' ? 9000 : 4500);
  setList((old) => {
    const kept = old.filter((o) => {
      const same = o.kind === t.kind && o.title === t.title && (o.message ?? '') === (t.message ?? '');
      if (same) clearTimeout(timers.get(o.id));
      return !same;
    });
    const next = [...kept, { id, kind: t.kind, title: t.title, message: t.message, ...(t.action ? { action: t.action } : {}) }];
    while (next.length > MAX) {
      const gone = next.shift();
      if (gone) clearTimeout(timers.get(gone.id));
    }
    return next;
  });
  if (timeout > 0) timers.set(id, setTimeout(() => dismiss(id), timeout));
  return id;
}

export function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  setList((old) => old.filter((t) => t.id !== id));
}
