// The one way a region says its data could not be loaded: what failed, the problem's own detail,
// and a "Try again" that stays focusable while the retry is in flight.
import type { ReactNode } from 'react';
import { ActionButton } from './action-button';
import { StatusPanel } from './status-panel';

/** The part of a failed TanStack query the panel needs: its error, and a way to load again. */
export interface FailedLoad {
  error: Error | null;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface LoadErrorPanelProps {
  /** What could not be loaded, e.g. "The incidents could not be loaded". */
  title: ReactNode;
  /**
   * The failed query: its error message is the detail, "Try again" refetches it and ignores
   * clicks while the refetch is in flight.
   */
  query?: FailedLoad;
  /** A detail of its own instead of the query's error message. */
  detail?: ReactNode;
  /** Heading level of the title, so the panel fits the page outline. */
  headingLevel?: 2 | 3;
}

/** A danger-toned alert panel with the failure, its detail and a "Try again" button. */
export function LoadErrorPanel({ title, query, detail, headingLevel }: LoadErrorPanelProps) {
  const shown = detail ?? query?.error?.message;
  return (
    <StatusPanel
      role="alert"
      tone="danger"
      headingLevel={headingLevel}
      title={title}
      actions={
        query ? (
          <ActionButton
            className="button"
            onClick={() => void query.refetch()}
            unavailable={query.isFetching}
          >
            Try again
          </ActionButton>
        ) : undefined
      }
    >
      {shown ? <p>{shown}</p> : null}
    </StatusPanel>
  );
}
