// The Integrations page's API: the registered integrations, and registering, rotating,
// revoking and removing them (admins only). A key is in the answer of a registration or rotation only.
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, getJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
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
    queryFn: getJson('/api/integrations', IntegrationListSchema),
    refetchInterval: 15_000,
  });
}

/** A change to the integrations: the list is fetched again once it is over. */
function useRefreshing<T, V>(mutationFn: (value: V) => Promise<T>) {
  return useRefreshingMutation(mutationFn, integrationsKey);
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

/** Takes a revoked integration off the list (what it reported stays, named as removed). */
export function useRemoveIntegration() {
  return useRefreshing((id: string) =>
    apiRequest(`/api/integrations/${encodeURIComponent(id)}`, z.undefined(), { method: 'DELETE' }),
  );
}
