// Fetcher, query options and hook for one connection's `GET /api/connections/{name}/event-types`;
// the query key (which names the connection) is built here only.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EventTypesResponseReader, type EventTypesResponse } from '../../../shared/event-types';
import { apiRequest } from '../../../lib/api-client';
import { connectionApiPath } from '../../../shared/connections';

/** Query keys of this feature, shared by components and any route loader. */
export const eventTypesQueryKeys = {
  all: ['event-types'] as const,
  /** One connection's whole, unfiltered list: the page filters client-side. */
  list: (connection: string) => [...eventTypesQueryKeys.all, connection, 'list'] as const,
};

/** Where one connection's event types are read. */
export function eventTypesPath(connection: string): string {
  return connectionApiPath(connection, '/api/event-types');
}

/** Fetches every event type `connection`'s platform knows, checked with the shared reader. */
function getEventTypes(
  connection: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<EventTypesResponse> {
  return apiRequest(eventTypesPath(connection), EventTypesResponseReader, { signal });
}

/** Query options for one connection's list (the page's hook, and the route's early start). */
export function eventTypesQueryOptions(connection: string) {
  return queryOptions({
    queryKey: eventTypesQueryKeys.list(connection),
    queryFn: ({ signal }) => getEventTypes(connection, { signal }),
    // The list changes rarely (the BFF caches it too); don't refetch on every page visit.
    staleTime: 5 * 60_000,
  });
}

/** One connection's event-type list as server state. */
export function useEventTypes(connection: string) {
  return useQuery(eventTypesQueryOptions(connection));
}
