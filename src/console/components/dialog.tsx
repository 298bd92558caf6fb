import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface DialogProps {
  readonly title: string;
  /** Called on Escape and on the close button: the dialog is closed by its owner no longer showing it. */
  readonly onClose: () => void;
  readonly children: ComponentChildren;
}

/**
 * A modal dialog, shown while it is rendered: the browser's own `<dialog>` opened modal, which
 * keeps the keyboard inside it (the rest of the page is inert), and gives focus back to what had
 * it when the dialog closes.
 */
export function Dialog({ title, onClose, children }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.showModal();
    return () => {
      dialog.current?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
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
        <button type="button" autofocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
