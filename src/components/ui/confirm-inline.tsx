// A two-step action inside the page instead of the browser's confirm(): the first press asks the
// question beside the button and moves focus to "Yes"; Escape or "Keep" takes it back.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './confirm-inline.css';

export interface ConfirmInlineProps {
  /** The first button's label, e.g. "End". */
  label: ReactNode;
  /** Its accessible name when the label alone is ambiguous (one per table row). */
  labelFor?: string;
  /** The question, naming what is lost, e.g. "End this session?". */
  question: ReactNode;
  /** The confirming button's label, e.g. "End session". */
  confirmLabel: ReactNode;
  onConfirm: () => void;
  /** True while the action runs: both buttons are disabled. */
  busy: boolean;
  className?: string;
}

/** A button that asks before it acts, in place. */
export function ConfirmInline({
  label,
  labelFor,
  question,
  confirmLabel,
  onConfirm,
  busy,
  className = 'button button-small',
}: ConfirmInlineProps) {
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  const yes = useRef<HTMLButtonElement>(null);
  const start = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (wasAsking.current) start.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={start}
        type="button"
        className={className}
        disabled={busy}
        aria-label={labelFor}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm-inline"
      role="group"
      aria-labelledby={questionId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setAsking(false);
      }}
    >
      <span id={questionId} className="confirm-inline-question">
        {question}
      </span>
      <button
        ref={yes}
        type="button"
        className="button button-small button-danger"
        disabled={busy}
        onClick={onConfirm}
      >
        {confirmLabel}
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={busy}
        onClick={() => setAsking(false)}
      >
        Keep
      </button>
    </span>
  );
}
