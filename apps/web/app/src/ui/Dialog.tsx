import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from './Button';

/**
 * A modal on the native <dialog>: the browser traps focus, Esc closes it and the backdrop
 * is inert, so no focus-trap code of our own. `open` drives showModal()/close().
 */
export function Dialog({ open, title, onClose, closeLabel, children }: { open: boolean; title: string; onClose: () => void; closeLabel: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="ui-dialog" aria-label={title} onClose={onClose} onClick={(e) => e.target === ref.current && onClose()}>
      <header className="ui-dialog-head">
        <h2>{title}</h2>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label={closeLabel}>
          ✕
        </Button>
      </header>
      <div className="ui-dialog-body">{children}</div>
    </dialog>
  );
}
