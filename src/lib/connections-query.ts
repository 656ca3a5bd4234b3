// The platform connections the person may switch between (`GET /api/connections`), and the one a
// page serves: the connection its URL names (`/c/{name}/...`), or the first for console-wide pages.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import {
  ConnectionListSchema,
  DEFAULT_CONNECTION,
  type ConnectionSummary,
} from '../shared/connections';
import { apiRequest } from './api-client';

/** Where the person's connections are listed. */
export const CONNECTIONS_PATH = '/api/connections';

/** The one query key of the connections list. */
export const connectionsQueryKey = ['connections'] as const;

/** Query options for the connections list: it changes only when the console restarts. */
export function connectionsQueryOptions() {
  return queryOptions({
    queryKey: connectionsQueryKey,
    queryFn: async ({ signal }): Promise<ConnectionSummary[]> =>
      (await apiRequest(CONNECTIONS_PATH, ConnectionListSchema, { signal })).connections,
    staleTime: Infinity,
  });
}

/** The person's connections, in the configured order. */
export function useConnections() {
  return useQuery(connectionsQueryOptions());
}

// Written once, in shared/, where the server's links and the bench build it too.
export { connectionPagePath } from '../shared/connections';

/** The connection a page's `pathname` names (as written, unchecked), or undefined. */
export function connectionOfPage(pathname: string): string | undefined {
  const match = /^\/c\/([^/]+)(?:\/|$)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** The connection-scoped page a `pathname` shows (`event-types`), without its connection. */
export function pageOfConnectionPath(pathname: string): string | undefined {
  return /^\/c\/[^/]+\/(.+?)\/?$/.exec(pathname)?.[1];
}

/**
 * The connection the current page serves: the URL's on a connection's page; on a console-wide
 * page the first listed, since those pages still reach the first connection's platform only.
 * `undefined` while the list loads on a console-wide page.
 */
export function usePageConnection(): ConnectionSummary | undefined {
  const named = connectionOfPage(useLocation().pathname);
  const connections = useConnections().data;
  if (!connections) return undefined;
  return named === undefined
    ? connections[0]
    : connections.find((connection) => connection.name === named);
}

/** The name of the connection the current page serves (see usePageConnection), for API paths. */
export function usePageConnectionName(): string {
  const named = connectionOfPage(useLocation().pathname);
  // A connection's page names its own: the list is not needed (nor asked for) to know it.
  const first = useQuery({ ...connectionsQueryOptions(), enabled: named === undefined }).data?.[0]
    ?.name;
  // Before the list arrives a console-wide page waits on `default`, the first of every console
  // configured the old way.
  return named ?? first ?? DEFAULT_CONNECTION;
}
