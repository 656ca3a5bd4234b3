// The Integrations page's API, one connection's registry: its integrations, and registering,
// rotating, revoking and removing them (admins in it only). A key is in the answer of a
// registration or rotation only. Paths and query keys name the connection, so one connection's
// list is never shown as another's.
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, getJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { connectionApiPath } from '../../../shared/connections';
import {
  IntegrationListSchema,
  IntegrationSchema,
  IssuedKeySchema,
  type RegisterIntegration,
} from '../../../shared/integrations';

const integrationsKey = (connection: string) => ['integrations', connection] as const;

/** `connection`'s registry path, or one integration's below it. */
const registryPath = (connection: string, below = '') =>
  connectionApiPath(connection, `/api/integrations${below}`);
const integrationPath = (connection: string, id: string, action = '') =>
  registryPath(connection, `/${encodeURIComponent(id)}${action}`);

/** Every integration registered in `connection`. */
export function integrationsQueryOptions(connection: string) {
  return queryOptions({
    queryKey: integrationsKey(connection),
    queryFn: getJson(registryPath(connection), IntegrationListSchema),
    refetchInterval: 15_000,
  });
}

/** A change to `connection`'s integrations: its list is fetched again once it is over. */
function useRefreshing<T, V>(connection: string, mutationFn: (value: V) => Promise<T>) {
  return useRefreshingMutation(mutationFn, integrationsKey(connection));
}

export function useRegisterIntegration(connection: string) {
  return useRefreshing(connection, (body: RegisterIntegration) =>
    apiRequest(registryPath(connection), IssuedKeySchema, { method: 'POST', body }),
  );
}

export function useRotateKey(connection: string) {
  return useRefreshing(connection, (id: string) =>
    apiRequest(integrationPath(connection, id, '/rotate'), IssuedKeySchema, { method: 'POST' }),
  );
}

export function useRevokeIntegration(connection: string) {
  return useRefreshing(connection, (id: string) =>
    apiRequest(integrationPath(connection, id, '/revoke'), IntegrationSchema, { method: 'POST' }),
  );
}

/** Takes a revoked integration off the list (what it reported stays, named as removed). */
export function useRemoveIntegration(connection: string) {
  return useRefreshing(connection, (id: string) =>
    apiRequest(integrationPath(connection, id), z.undefined(), { method: 'DELETE' }),
  );
}
