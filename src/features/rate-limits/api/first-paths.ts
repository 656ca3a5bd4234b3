// The three GET paths the rate-limits page needs before it can place its sections, apart from
// their fetchers: the SPA's entry sends them early (app/first-requests.ts) without loading the
// page's schemas, and the fetchers take the answers over by these same paths.
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

/** All three for `connection`, in the order the page uses them. */
export function rateLimitsFirstPaths(connection: string): readonly string[] {
  return [rulesPath(connection), usagePath(connection), accountUsagePath(connection)];
}
