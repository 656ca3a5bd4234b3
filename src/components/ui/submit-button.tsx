// A form's primary submit button, which says what it is doing while the request runs.
import type { ReactNode } from 'react';

export interface SubmitButtonProps {
  /** True while the submitted request runs: the button is disabled and shows `busyLabel`. */
  busy: boolean;
  /** What the button says meanwhile, e.g. "Signing in…". */
  busyLabel: string;
  children: ReactNode;
}

/** `<button type="submit">` in the primary look. */
export function SubmitButton({ busy, busyLabel, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="button button-primary" disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
