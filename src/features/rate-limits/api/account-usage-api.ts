// One connection's account-wide view query (the reports of every integration reporting to it
// beside the console's own use) and the demo's burst control; refreshed every few seconds while
// the rate-limits page is shown.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest, getJson } from '../../../lib/api-client';
import { connectionApiPath } from '../../../shared/connections';
import { AccountOverviewSchema } from '../../../shared/integrations';
import { accountUsagePath } from './first-paths';
import { rateLimitKeys } from './rate-limits-api';

/**
 * A connection's account-wide view: limits, integrations, timeline and incidents of every
 * reporter.
 */
export function accountUsageQueryOptions(
  connection: string,
  refetchInterval: number | false = 5_000,
) {
  return queryOptions({
    queryKey: rateLimitKeys.accountUsage(connection),
    queryFn: getJson(accountUsagePath(connection), AccountOverviewSchema),
    staleTime: 2_000,
    refetchInterval,
  });
}

/** Demo mode: one simulated integration sends until the mock's account minute limit refuses it. */
export function useDemoBurst(connection: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(
        connectionApiPath(connection, `/api/integrations/${encodeURIComponent(id)}/demo-burst`),
        z.object({ status: z.nullable(z.int()) }),
        { method: 'POST' },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rateLimitKeys.of(connection) }),
  });
}
