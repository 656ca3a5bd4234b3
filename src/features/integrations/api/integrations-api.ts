// The Integrations page's API: the registered integrations, and registering, rotating and
// revoking them (admins only). A key is in the answer of a registration or rotation only.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import {
  IntegrationListSchema,
  IntegrationSchema,
  IssuedKeySchema,
  type RegisterIntegration,
} from '../../../shared/integrations';

const integrationsKey = ['integrations'] as const;

/** Every registered integration. */
export function integrationsQueryOptions() {
  return queryOptions({
    queryKey: integrationsKey,
    queryFn: ({ signal }) => apiRequest('/api/integrations', IntegrationListSchema, { signal }),
    refetchInterval: 15_000,
  });
}

function useRefreshing<T, V>(mutationFn: (value: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsKey }),
  });
}

export function useRegisterIntegration() {
  return useRefreshing((body: RegisterIntegration) =>
    apiRequest('/api/integrations', IssuedKeySchema, { method: 'POST', body }),
  );
}

export function useRotateKey() {
  return useRefreshing((id: string) =>
    apiRequest(`/api/integrations/${encodeURIComponent(id)}/rotate`, IssuedKeySchema, {
      method: 'POST',
    }),
  );
}

export function useRevokeIntegration() {
  return useRefreshing((id: string) =>
    apiRequest(`/api/integrations/${encodeURIComponent(id)}/revoke`, IntegrationSchema, {
      method: 'POST',
    }),
  );
}
