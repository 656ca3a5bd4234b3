// A secret the console shows once (an integration's key, a token for scripts): the warning, the
// value, a copy button, and the button that puts it away.
import { useState, type ReactNode } from 'react';

export interface OneTimeSecretProps {
  title: string;
  /** What to do with it, and that it is shown this once. */
  children: ReactNode;
  value: string;
  copyLabel: string;
  testId: string;
  onDone: () => void;
}

/** The panel, announced as an alert so a screen reader hears the warning at once. */
export function OneTimeSecret({
  title,
  children,
  value,
  copyLabel,
  testId,
  onDone,
}: OneTimeSecretProps) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="card one-time-secret" role="alert">
      <h2>{title}</h2>
      <p>{children}</p>
      <code className="one-time-secret-value" data-testid={testId}>
        {value}
      </code>
      <div className="one-time-secret-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : copyLabel}
        </button>
        <button type="button" className="button button-link" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
