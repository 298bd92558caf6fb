import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';

export interface DialogProps {
  readonly title: string;
  /** Called on Escape and on the close button: the dialog is closed by its owner no longer showing it. */
  readonly onClose: () => void;
  readonly children: ComponentChildren;
}

/** What the keyboard can reach inside an element, in order. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab past the last control comes back to the first, and Shift+Tab before the first to the last:
 * a modal dialog makes the page behind it inert, but the browser would still let the focus leave
 * for its own toolbar, or nowhere.
 */
function keepFocusInside(event: KeyboardEvent): void {
  if (event.key !== 'Tab') return;
  const inside = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog, shown while it is rendered: the browser's own `<dialog>` opened modal, which
 * makes the rest of the page inert, with the keyboard kept inside it, and the focus given back to
 * what had it when the dialog closes.
 */
export function Dialog({ title, onClose, children }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // A layout effect: its cleanup gives the focus back in the same turn the dialog leaves the page,
  // where an effect's would leave it on nothing for a moment.
  useLayoutEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element?.showModal();
    // Not the autofocus attribute: the browser would act on it as soon as the dialog is in the
    // page, before showModal() notes what had the focus, and give it back to nothing on closing.
    element?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div class="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="quiet" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

export interface ConfirmProps {
  readonly title: string;
  /** What will happen, naming what it happens to. */
  readonly message: ComponentChildren;
  /** The button's words: the action itself ("Delete token"), never a bare "OK". */
  readonly confirmLabel: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** Asks before a destructive action; Cancel has the focus first, so that Enter alone destroys nothing. */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog title={title} onClose={onCancel}>
      <p>{message}</p>
      <div class="actions">
        <button type="button" data-autofocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** The end of a form in a dialog: its submit button, which says what it does, and Cancel. */
export function FormActions({
  submit,
  onCancel,
}: {
  readonly submit: ComponentChildren;
  readonly onCancel: () => void;
}) {
  return (
    <div class="actions">
      <button type="submit" class="primary">
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
