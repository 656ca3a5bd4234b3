// Fetchers, query options and hooks of one connection's rate-limit API; its query keys (each naming
// the connection, so one connection's cache never shows as another's) are built here only, so the
// live stream and the pages update the same cache entries.
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, fetchFile, getJson, type FetchedFile } from '../../../lib/api-client';
import {
  IncidentPageSchema,
  RulesResponseSchema,
  UsageSchema,
  type IncidentExportFormat,
  type IncidentPage,
} from '../../../shared/incident';
import { connectionApiPath } from '../../../shared/connections';
import type { IncidentFilters } from '../incident-url-state';
import { rulesPath, usagePath } from './first-paths';

/** Query keys of this feature. */
export const rateLimitKeys = {
  all: ['rate-limits'] as const,
  /** Everything of one connection ('connection' first: the console-wide keys sit beside). */
  of: (connection: string) => [...rateLimitKeys.all, 'connection', connection] as const,
  rules: (connection: string) => [...rateLimitKeys.of(connection), 'rules'] as const,
  usage: (connection: string) => [...rateLimitKeys.of(connection), 'usage'] as const,
  /** The account-wide view; its fetcher is in account-usage-api.ts, a chunk of the page's own. */
  accountUsage: (connection: string) => [...rateLimitKeys.of(connection), 'account-usage'] as const,
  incidents: (connection: string) => [...rateLimitKeys.of(connection), 'incidents'] as const,
  incidentList: (connection: string, filters: IncidentFilters) =>
    [...rateLimitKeys.incidents(connection), filters] as const,
};

/** The limits table for a connection's account tier. */
export function rulesQueryOptions(connection: string) {
  return queryOptions({
    queryKey: rateLimitKeys.rules(connection),
    queryFn: getJson(rulesPath(connection), RulesResponseSchema),
    staleTime: Infinity,
  });
}

/**
 * Usage per limit, active blocks and the request timeline. Cheap for the BFF (nothing goes
 * upstream), so it is refreshed every few seconds while shown.
 */
export function usageQueryOptions(connection: string, refetchInterval: number | false = 5_000) {
  return queryOptions({
    queryKey: rateLimitKeys.usage(connection),
    queryFn: getJson(usagePath(connection), UsageSchema),
    staleTime: 2_000,
    refetchInterval,
  });
}

/** `filters` as the query parameters of the history and of its export. */
function filterParams(filters: IncidentFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.since) params.set('since', filters.since);
  if (filters.until) params.set('until', filters.until);
  if (filters.period) params.set('period', filters.period);
  if (filters.rule) params.set('rule', filters.rule);
  return params;
}

/** The incident history query string for `filters` and a page cursor. */
function incidentsPath(connection: string, filters: IncidentFilters, cursor?: string): string {
  const params = filterParams(filters);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `${connectionApiPath(connection, '/api/rate-limits/incidents')}${query ? `?${query}` : ''}`;
}

/** Every incident `filters` match as a file made by the BFF (CSV or JSON), not yet saved. */
export function fetchIncidentExport(
  connection: string,
  filters: IncidentFilters,
  format: IncidentExportFormat,
): Promise<FetchedFile> {
  const params = filterParams(filters);
  params.set('format', format);
  return fetchFile(
    `${connectionApiPath(connection, '/api/rate-limits/incidents/export')}?${params}`,
    `incidents-${connection}.${format}`,
  );
}

/** The incident history, newest first, one page at a time. */
export function incidentsQueryOptions(connection: string, filters: IncidentFilters) {
  return infiniteQueryOptions({
    queryKey: rateLimitKeys.incidentList(connection, filters),
    queryFn: ({ signal, pageParam }): Promise<IncidentPage> =>
      apiRequest(incidentsPath(connection, filters, pageParam), IncidentPageSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // New incidents arrive through the stream; a refetch is only needed after it reconnects.
    staleTime: Infinity,
  });
}

/** Forgets the limits the platform reported (admins): the configured limits alone apply again. */
export function useForgetReportedLimits(connection: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(connectionApiPath(connection, '/api/rate-limits/reported-limits'), z.undefined(), {
        method: 'DELETE',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage(connection) }),
  });
}
