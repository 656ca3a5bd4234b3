// The states a listed region goes through, always in the same order and look: a loading line, a
// failure with "Try again", an empty panel that says why nothing is listed, then the rows.
import type { ReactNode } from 'react';
import { LoadErrorPanel, type FailedLoad } from './load-error-panel';
import { StatusLine } from './status-line';
import { StatusPanel } from './status-panel';

export interface ListRegionProps {
  /** The list's query: pending shows `loading`, failed shows the error panel with a retry. */
  query: FailedLoad & { isPending: boolean; isError: boolean };
  /** The loading line, e.g. "Loading incidents…". */
  loading: string;
  /** What failed, e.g. "The incidents could not be loaded". */
  errorTitle: string;
  /** Shown instead of the rows when the loaded list is empty: a title and why. */
  empty?: { title: string; text: string; muted?: boolean };
  /** The rows (and their paging); rendered only when the list has some. */
  children: ReactNode;
}

/** Renders the region's current state; headings are level 3, inside the page's section. */
export function ListRegion({ query, loading, errorTitle, empty, children }: ListRegionProps) {
  if (query.isPending) return <StatusLine>{loading}</StatusLine>;
  if (query.isError) return <LoadErrorPanel headingLevel={3} title={errorTitle} query={query} />;
  if (empty) {
    return (
      <StatusPanel headingLevel={3} title={empty.title}>
        <p className={empty.muted ? 'muted' : undefined}>{empty.text}</p>
      </StatusPanel>
    );
  }
  return <>{children}</>;
}
