// The account-wide view's query (every integration's reports beside the console's own use) and
// the demo's burst control; refreshed every few seconds while the rate-limits page is shown.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, getJson } from '../../../lib/api-client';
import { AccountOverviewSchema } from '../../../shared/integrations';
import { ACCOUNT_USAGE_PATH } from './first-paths';
import { rateLimitKeys } from './rate-limits-api';

/** Query key of the account-wide view. */
const accountUsageKey = () => [...rateLimitKeys.all, 'account-usage'] as const;

/** The account-wide view: limits, integrations, timeline and incidents of every reporter. */
export function accountUsageQueryOptions(refetchInterval: number | false = 5_000) {
  return queryOptions({
    queryKey: accountUsageKey(),
    queryFn: getJson(ACCOUNT_USAGE_PATH, AccountOverviewSchema),
    staleTime: 2_000,
    refetchInterval,
  });
}

/** Demo mode: one simulated integration sends until the mock's account minute limit refuses it. */
export function useDemoBurst() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(
        `/api/integrations/${encodeURIComponent(id)}/demo-burst`,
        z.object({ status: z.nullable(z.int()) }),
        { method: 'POST' },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.all }),
  });
}
