// The one way a region says its data could not be loaded: what failed, the problem's own detail,
// and a "Try again" that stays focusable while the retry is in flight.
import type { ReactNode } from 'react';
import { ActionButton } from './action-button';
import { StatusPanel } from './status-panel';

export interface LoadErrorPanelProps {
  /** What could not be loaded, e.g. "The incidents could not be loaded". */
  title: ReactNode;
  /** The problem's detail as the console server or the browser gave it. */
  detail?: ReactNode;
  /** Loads again; leave it out where nothing can be retried from here. */
  onRetry?: () => void;
  /** True while a retry is in flight: the button says so and ignores clicks. */
  retrying?: boolean;
  /** Heading level of the title, so the panel fits the page outline. */
  headingLevel?: 2 | 3;
}

/** A danger-toned alert panel with the failure, its detail and a "Try again" button. */
export function LoadErrorPanel({
  title,
  detail,
  onRetry,
  retrying = false,
  headingLevel,
}: LoadErrorPanelProps) {
  return (
    <StatusPanel
      role="alert"
      tone="danger"
      headingLevel={headingLevel}
      title={title}
      actions={
        onRetry ? (
          <ActionButton className="button" onClick={onRetry} unavailable={retrying}>
            Try again
          </ActionButton>
        ) : undefined
      }
    >
      {detail ? <p>{detail}</p> : null}
    </StatusPanel>
  );
}
