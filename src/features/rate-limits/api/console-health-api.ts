// Fetcher and query options of GET /api/health: whether the console records incidents and how its
// governor counts, polled by the banner every page shows.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { ConsoleHealthSchema } from '../../../shared/console-health';
import { rateLimitKeys } from './rate-limits-api';

/** The console's own health, refreshed every `refetchInterval` ms. */
export function consoleHealthQueryOptions(refetchInterval: number | false = 15_000) {
  return queryOptions({
    queryKey: [...rateLimitKeys.all, 'health'] as const,
    queryFn: getJson('/api/health', ConsoleHealthSchema),
    staleTime: 5_000,
    refetchInterval,
    // A failing check is not worth retries: the next poll comes soon.
    retry: false,
  });
}
