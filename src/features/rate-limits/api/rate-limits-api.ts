// Fetchers, query options and hooks of the rate-limit panel's API; its query keys are built here
// only, so the live stream and the pages update the same cache entries.
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
import type { IncidentFilters } from '../incident-url-state';
import { RULES_PATH, USAGE_PATH } from './first-paths';

/** Query keys of this feature. */
export const rateLimitKeys = {
  all: ['rate-limits'] as const,
  rules: () => [...rateLimitKeys.all, 'rules'] as const,
  usage: () => [...rateLimitKeys.all, 'usage'] as const,
  incidents: () => [...rateLimitKeys.all, 'incidents'] as const,
  incidentList: (filters: IncidentFilters) => [...rateLimitKeys.incidents(), filters] as const,
};

/** The limits table for this console's account tier. */
export function rulesQueryOptions() {
  return queryOptions({
    queryKey: rateLimitKeys.rules(),
    queryFn: getJson(RULES_PATH, RulesResponseSchema),
    staleTime: Infinity,
  });
}

/**
 * Usage per limit, active blocks and the request timeline. Cheap for the BFF (nothing goes
 * upstream), so it is refreshed every few seconds while shown.
 */
export function usageQueryOptions(refetchInterval: number | false = 5_000) {
  return queryOptions({
    queryKey: rateLimitKeys.usage(),
    queryFn: getJson(USAGE_PATH, UsageSchema),
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
function incidentsPath(filters: IncidentFilters, cursor?: string): string {
  const params = filterParams(filters);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/api/rate-limits/incidents${query ? `?${query}` : ''}`;
}

/** Every incident `filters` match as a file made by the BFF (CSV or JSON), not yet saved. */
export function fetchIncidentExport(
  filters: IncidentFilters,
  format: IncidentExportFormat,
): Promise<FetchedFile> {
  const params = filterParams(filters);
  params.set('format', format);
  return fetchFile(`/api/rate-limits/incidents/export?${params}`, `incidents.${format}`);
}

/** The incident history, newest first, one page at a time. */
export function incidentsQueryOptions(filters: IncidentFilters) {
  return infiniteQueryOptions({
    queryKey: rateLimitKeys.incidentList(filters),
    queryFn: ({ signal, pageParam }): Promise<IncidentPage> =>
      apiRequest(incidentsPath(filters, pageParam), IncidentPageSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // New incidents arrive through the stream; a refetch is only needed after it reconnects.
    staleTime: Infinity,
  });
}

/** Forgets the limits the platform reported (admins): the configured limits alone apply again. */
export function useForgetReportedLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest('/api/rate-limits/reported-limits', z.undefined(), { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.usage() }),
  });
}
