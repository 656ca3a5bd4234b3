// The GET paths the rate-limits page needs before it can place its sections, apart from their
// fetchers: the SPA's entry sends them early (app/first-requests.ts) without loading the page's
// schemas, and the fetchers take the answers over by these same paths.
import { CONSOLE_META_PATH } from '../../../lib/console-meta-query';
import { connectionApiPath } from '../../../shared/connections';

/** The limits table of a connection's tier and policy. */
export const rulesPath = (connection: string) =>
  connectionApiPath(connection, '/api/rate-limits/rules');
/** A connection's governor: its windows, blocks and timeline. */
export const usagePath = (connection: string) =>
  connectionApiPath(connection, '/api/rate-limits/usage');
/** A connection's account-wide view: every client reporting to it, beside the console. */
export const accountUsagePath = (connection: string) =>
  connectionApiPath(connection, '/api/account-usage');

/**
 * All of them for `connection`, in the order the page uses them; the console's meta data says
 * whether the demo controls show above the rest, so the sections wait for it too.
 */
export function rateLimitsFirstPaths(connection: string): readonly string[] {
  return [
    rulesPath(connection),
    usagePath(connection),
    accountUsagePath(connection),
    CONSOLE_META_PATH,
  ];
}
