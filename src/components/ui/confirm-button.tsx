// A button for an action that cannot be undone: it asks in the page first (the question beside
// it, focus on the confirming button, Escape or "Keep" to step back), never with the browser's
// confirm(), which screen readers announce poorly and some browsers suppress.
import type { ReactNode } from 'react';
import { ConfirmInline } from './confirm-inline';

export interface ConfirmButtonProps {
  /** The yes/no question asked in the page, naming what is lost. */
  question: string;
  /** Runs only when the user answers yes. */
  onConfirm: () => void;
  /** True while the action runs: the button is disabled. */
  busy: boolean;
  className: string;
  /** The button's label, also the confirming button's. */
  children: ReactNode;
}

/** A button that runs `onConfirm` once the user confirmed `question` in the page. */
export function ConfirmButton({
  question,
  onConfirm,
  busy,
  className,
  children,
}: ConfirmButtonProps) {
  return (
    <ConfirmInline
      label={children}
      question={question}
      confirmLabel={children}
      onConfirm={onConfirm}
      busy={busy}
      className={className}
    />
  );
}
