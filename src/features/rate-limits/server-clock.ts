// The BFF's clock as seen from this browser: block ends are server times, and a countdown must not
// be off by however far the user's clock is from the server's.
import type { Usage } from '../../shared/incident';

/**
 * Milliseconds to add to a server time to get the same moment on this browser's clock, from the
 * usage query's answer (its `now`) and when it arrived; 0 until it has loaded.
 */
export function serverClockOffset(usage: {
  data?: Pick<Usage, 'now'>;
  dataUpdatedAt: number;
}): number {
  return usage.data ? usage.dataUpdatedAt - Date.parse(usage.data.now) : 0;
}
