// Fetchers, query options and the lookup mutation of the data-subjects page, each of one platform
// connection (its API prefix); query keys are built here only and name the connection. Lookups are
// mutations, never queries: an identifier must not become a cache key.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../../lib/api-client';
import { usePageConnectionName } from '../../../lib/connections-query';
import { connectionApiPath } from '../../../shared/connections';
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
  operations: (connection: string) => [...dataSubjectKeys.all, connection, 'operations'] as const,
};

/** One connection's operations catalog: it changes only when the console restarts. */
function operationsQueryOptions(connection: string) {
  return queryOptions({
    queryKey: dataSubjectKeys.operations(connection),
    queryFn: getJson(
      connectionApiPath(connection, '/api/data-subjects/operations'),
      DataSubjectCatalogSchema,
    ),
    staleTime: Infinity,
  });
}

export function useOperations(connection: string) {
  return useQuery(operationsQueryOptions(connection));
}

/** Runs one lookup in `connection`; the identifier travels in the body. */
function runLookup(connection: string, request: LookupRequest): Promise<LookupResponse> {
  return apiRequest(
    connectionApiPath(connection, '/api/data-subjects/lookups'),
    LookupResponseSchema,
    { method: 'POST', body: request },
  );
}

/**
 * A lookup as a mutation in the connection the page's URL names, stating the purpose in force
 * (purpose-context.ts): the form's, a next page and the legacy comparison alike, so none can
 * reach another connection's platform. Its variables (the identifier among them) live in memory
 * only and are dropped with the rest of the cache on sign-out.
 */
export function useLookup() {
  const purpose = useLookupPurpose();
  const connection = usePageConnectionName();
  return useMutation({
    // A purpose the request names wins: the form states one it has just set, before this renders.
    mutationFn: (request: LookupRequest) =>
      runLookup(connection, request.purpose || !purpose ? request : { ...request, purpose }),
    retry: false,
  });
}
