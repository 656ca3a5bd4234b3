// The BFF's clock as seen from this browser: block ends are server times, and a countdown must not
// be off by however far the user's clock is from the server's.
import { useQuery } from '@tanstack/react-query';
import { usageQueryOptions } from './api/rate-limits-api';

/**
 * Milliseconds to add to a server time to get the same moment on this browser's clock, from the
 * usage answer's `now` (0 until it has loaded).
 */
export function useServerClockOffset(): number {
  const { data, dataUpdatedAt } = useQuery({ ...usageQueryOptions(false), enabled: false });
  return data ? dataUpdatedAt - Date.parse(data.now) : 0;
}
