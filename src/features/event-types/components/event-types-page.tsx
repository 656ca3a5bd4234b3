// Page `/c/{connection}/event-types`: which activity-log event types the privacy platform tracks, by module and
// object type; chooses between the loading, failure, empty and loaded states.
import { StatusPanel } from '../../../components/ui/status-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { usePageConnectionName } from '../../../lib/connections-query';
import { useEventTypes } from '../api/get-event-types';
import { EventTypesBrowser } from './event-types-browser';
import { EventTypesError } from './event-types-error';
import { StaleListNotice } from './stale-list-notice';
import './event-types.css';

/** The event-types page. */
export function EventTypesPage() {
  const query = useEventTypes(usePageConnectionName());
  const retry = () => void query.refetch();

  return (
    <section className="page event-types-page" aria-labelledby="event-types-title">
      <PageHeader titleId="event-types-title" title="Event types">
        The activity-log event types the privacy platform records, by module and object type.
      </PageHeader>

      {query.isError ? (
        // With data already shown, a failed refresh is reported above it rather than replacing it.
        <div className="event-types-error">
          <EventTypesError
            error={query.error}
            errorUpdatedAt={query.errorUpdatedAt}
            onRetry={retry}
            retrying={query.isFetching}
          />
        </div>
      ) : null}

      {query.data?.stale ? (
        <div className="event-types-error">
          <StaleListNotice
            key={query.dataUpdatedAt}
            stale={query.data.stale}
            fetchedAt={query.data.fetchedAt}
            receivedAt={query.dataUpdatedAt}
            onRefresh={retry}
            refreshing={query.isFetching}
          />
        </div>
      ) : null}

      {query.isPending ? <LoadingState /> : null}

      {query.data && query.data.items.length === 0 ? (
        <StatusPanel
          title="No event types yet"
          actions={
            <button type="button" className="button" onClick={retry} disabled={query.isFetching}>
              Refresh
            </button>
          }
        >
          <p>
            The privacy platform returned no event types for this account. They appear here as soon
            as the platform reports them.
          </p>
        </StatusPanel>
      ) : null}

      {query.data && query.data.items.length > 0 ? (
        <EventTypesBrowser
          response={query.data}
          // The notice above carries the one Refresh, unavailable with its reason while it waits.
          onRefresh={query.isError || query.data.stale ? undefined : retry}
          refreshing={query.isFetching}
        />
      ) : null}
    </section>
  );
}

function LoadingState() {
  return (
    <div className="event-types-loading">
      <StatusPanel role="status" busy title="Loading event types…">
        <p className="muted">Asking the privacy platform for its list of event types.</p>
      </StatusPanel>
      <div className="skeleton-table" aria-hidden="true">
        {Array.from({ length: 8 }, (_, index) => (
          <div key={index} className="skeleton-row" />
        ))}
      </div>
    </div>
  );
}
