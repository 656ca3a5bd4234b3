// Fetchers, query options and the search mutation of the audit page; query keys are built here
// only. Searching by identifier is a mutation: the identifier must not become a cache key.
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { AuditPageSchema, type AuditPage } from '../../../shared/audit-trail';
import { auditQueryString, type AuditFilters } from '../audit-url-state';

/** Query keys of this feature. */
export const auditKeys = {
  all: ['audit-trail'] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, 'list', filters] as const,
};

/** The trail, newest first, one page at a time. */
export function auditTrailQueryOptions(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal, pageParam }): Promise<AuditPage> =>
      apiRequest(`/api/audit-trail${auditQueryString(filters, pageParam)}`, AuditPageSchema, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Lookups made in another tab show up when the page is revisited or refreshed.
    staleTime: 0,
  });
}

/** Finds the lookups of one identifier; it travels in the body. */
export function searchAuditTrail(identifier: string, cursor?: string): Promise<AuditPage> {
  return apiRequest('/api/audit-trail/search', AuditPageSchema, {
    method: 'POST',
    body: { identifier, ...(cursor ? { cursor } : {}) },
  });
}

export function useAuditSearch() {
  return useMutation({
    mutationFn: ({ identifier, cursor }: { identifier: string; cursor?: string }) =>
      searchAuditTrail(identifier, cursor),
    retry: false,
  });
}
