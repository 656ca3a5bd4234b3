// Below a list of the audit page: "Load older" while older pages exist, how many rows are shown,
// and "Refresh"; the lookups and the administrative changes page the same way.
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { ActionButton } from '../../../components/ui/action-button';

export interface ListFooterProps {
  readonly query: Pick<
    UseInfiniteQueryResult,
    'hasNextPage' | 'isFetchingNextPage' | 'isFetching' | 'fetchNextPage' | 'refetch'
  >;
  readonly shown: number;
  /** The rows' noun, singular and plural: ['lookup', 'lookups']. */
  readonly noun: readonly [string, string];
}

export function ListFooter({ query, shown, noun }: ListFooterProps) {
  return (
    <div className="audit-more cluster">
      {query.hasNextPage ? (
        <ActionButton
          className="button"
          onClick={() => void query.fetchNextPage()}
          unavailable={query.isFetchingNextPage}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load older'}
        </ActionButton>
      ) : null}
      <span className="muted">
        {shown} {shown === 1 ? noun[0] : noun[1]} shown
        {query.hasNextPage ? '' : ', the oldest included'}.
      </span>
      <ActionButton
        className="button button-small"
        onClick={() => void query.refetch()}
        unavailable={query.isFetching}
      >
        Refresh
      </ActionButton>
    </div>
  );
}
