// A button for an action that cannot be undone: it asks the browser's confirm dialog first.
import type { ReactNode } from 'react';

export interface ConfirmButtonProps {
  /** The yes/no question the dialog asks, naming what is lost. */
  question: string;
  /** Runs only when the user answers yes. */
  onConfirm: () => void;
  /** True while the action runs: the button is disabled. */
  busy: boolean;
  className: string;
  children: ReactNode;
}

/** `<button type="button">` that runs `onConfirm` once the user confirmed `question`. */
export function ConfirmButton({
  question,
  onConfirm,
  busy,
  className,
  children,
}: ConfirmButtonProps) {
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      onClick={() => {
        if (window.confirm(question)) onConfirm();
      }}
    >
      {children}
    </button>
  );
}
