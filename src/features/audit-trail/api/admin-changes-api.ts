// The administrative changes of the audit trail, one page at a time, for the page's changes view.
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { AdminChangePageSchema, type AdminChangePage } from '../../../shared/admin-changes';
import { changesQueryString, type ChangeFilters } from '../changes-url-state';
import { auditKeys } from './audit-trail-api';

/** The changes, newest first. */
export function adminChangesQueryOptions(filters: ChangeFilters) {
  return infiniteQueryOptions({
    queryKey: auditKeys.changes(filters),
    queryFn: ({ signal, pageParam }): Promise<AdminChangePage> =>
      apiRequest(
        `/api/audit-trail/changes${changesQueryString(filters, pageParam)}`,
        AdminChangePageSchema,
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}
