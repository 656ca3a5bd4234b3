// Fetchers, query options and the lookup mutation of the data-subjects page; query keys are built
// here only. Lookups are mutations, never queries: an identifier must not become a cache key.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../../lib/api-client';
import { DataSubjectCatalogSchema } from '../../../shared/data-subject-operations';
import {
  LookupResponseSchema,
  type LookupRequest,
  type LookupResponse,
} from '../../../shared/data-subject-lookups';
import { useLookupPurpose } from '../purpose-context';

/** Query keys of this feature. */
const dataSubjectKeys = {
  all: ['data-subjects'] as const,
  operations: () => [...dataSubjectKeys.all, 'operations'] as const,
};

/** The operations catalog: it changes only when the console restarts. */
function operationsQueryOptions() {
  return queryOptions({
    queryKey: dataSubjectKeys.operations(),
    queryFn: getJson('/api/data-subjects/operations', DataSubjectCatalogSchema),
    staleTime: Infinity,
  });
}

export function useOperations() {
  return useQuery(operationsQueryOptions());
}

/** Runs one lookup; the identifier travels in the body. */
function runLookup(request: LookupRequest): Promise<LookupResponse> {
  return apiRequest('/api/data-subjects/lookups', LookupResponseSchema, {
    method: 'POST',
    body: request,
  });
}

/**
 * A lookup as a mutation, stating the purpose in force (purpose-context.ts). Its variables (the
 * identifier among them) live in memory only and are dropped with the rest of the cache on
 * sign-out.
 */
export function useLookup() {
  const purpose = useLookupPurpose();
  return useMutation({
    // A purpose the request names wins: the form states one it has just set, before this renders.
    mutationFn: (request: LookupRequest) =>
      runLookup(request.purpose || !purpose ? request : { ...request, purpose }),
    retry: false,
  });
}
