// Fetcher, query options and hook for `GET /api/event-types`; the query key is built here only.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EventTypesResponseReader, type EventTypesResponse } from '../../../shared/event-types';
import { apiRequest } from '../../../lib/api-client';

/** Query keys of this feature, shared by components and any route loader. */
export const eventTypesQueryKeys = {
  all: ['event-types'] as const,
  /** The whole, unfiltered list: the page filters client-side. */
  list: () => [...eventTypesQueryKeys.all, 'list'] as const,
};

/** Where the event types are read. */
export const EVENT_TYPES_PATH = '/api/event-types';

/** Fetches every event type the upstream knows, checked with the shared reader. */
function getEventTypes({ signal }: { signal?: AbortSignal } = {}): Promise<EventTypesResponse> {
  return apiRequest(EVENT_TYPES_PATH, EventTypesResponseReader, { signal });
}

/** Query options for the event-type list (the page's hook, and the route's early start). */
export function eventTypesQueryOptions() {
  return queryOptions({
    queryKey: eventTypesQueryKeys.list(),
    queryFn: ({ signal }) => getEventTypes({ signal }),
    // The list changes rarely (the BFF caches it too); don't refetch on every page visit.
    staleTime: 5 * 60_000,
  });
}

/** The event-type list as server state. */
export function useEventTypes() {
  return useQuery(eventTypesQueryOptions());
}
