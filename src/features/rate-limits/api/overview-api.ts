// The overview of every connection's limits (`GET /api/rate-limit-overview`): console-wide, so its
// query key sits beside the connections' keys, never under one of them.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { RateLimitOverviewSchema } from '../../../shared/connection-overview';
import { rateLimitKeys } from './rate-limits-api';

/** Where the overview is answered. */
export const RATE_LIMIT_OVERVIEW_PATH = '/api/rate-limit-overview';

/** The overview's one query key. */
export const overviewQueryKey = [...rateLimitKeys.all, 'overview'] as const;

/**
 * Every connection's headroom, blocks and platform state. Cheap for the BFF (nothing goes
 * upstream), so it is refreshed as often as the page's own usage.
 */
export function overviewQueryOptions() {
  return queryOptions({
    queryKey: overviewQueryKey,
    queryFn: getJson(RATE_LIMIT_OVERVIEW_PATH, RateLimitOverviewSchema),
    staleTime: 2_000,
    refetchInterval: 5_000,
  });
}
