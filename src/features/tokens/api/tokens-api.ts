// The Tokens page's API: the tokens for scripts one may see, making one (the token is in that
// answer only) and revoking one.
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import {
  ApiTokenListSchema,
  ApiTokenSchema,
  CreatedApiTokenSchema,
  type CreateApiToken,
} from '../../../shared/api-tokens';

const tokensKey = ['tokens'] as const;

/** One's own tokens; an admin's list has everyone's. */
export function tokensQueryOptions() {
  return queryOptions({ queryKey: tokensKey, queryFn: getJson('/api/tokens', ApiTokenListSchema) });
}

export function useCreateToken() {
  return useRefreshingMutation(
    (body: CreateApiToken) =>
      apiRequest('/api/tokens', CreatedApiTokenSchema, { method: 'POST', body }),
    tokensKey,
  );
}

export function useRevokeToken() {
  return useRefreshingMutation(
    (id: string) =>
      apiRequest(`/api/tokens/${encodeURIComponent(id)}`, ApiTokenSchema, { method: 'DELETE' }),
    tokensKey,
  );
}
