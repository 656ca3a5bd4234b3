// The three GET paths the rate-limits page needs before it can place its sections, apart from
// their fetchers: the SPA's entry sends them early (app/first-requests.ts) without loading the
// page's schemas, and the fetchers take the answers over by these same paths.

/** The limits table of the account's tier and policy. */
export const RULES_PATH = '/api/rate-limits/rules';
/** The governor's windows, blocks and timeline. */
export const USAGE_PATH = '/api/rate-limits/usage';
/** The account-wide view: every reporting client beside the console. */
export const ACCOUNT_USAGE_PATH = '/api/account-usage';

/** All three, in the order the page uses them. */
export const RATE_LIMITS_FIRST_PATHS = [RULES_PATH, USAGE_PATH, ACCOUNT_USAGE_PATH] as const;
