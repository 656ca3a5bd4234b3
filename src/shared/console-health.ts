// What the console tells signed-in browsers about its own health (GET /api/health), so every page
// can say when incidents are not being recorded, the replicas cannot share the limits, or the
// console cannot sign in to the platform. Never an internal error or stack: those are for /readyz
// and the logs; the sign-in diagnosis is written to be shown.
import * as z from 'zod/mini';

/** The answer of GET /api/health. */
export const ConsoleHealthSchema = z.object({
  /** `unavailable`: the incident and audit store does not answer, or its last write failed. */
  store: z.enum(['ok', 'unavailable']),
  /** `failing`: the audit trail cannot take records, so data-subject lookups are refused. */
  audit: z.optional(z.enum(['ok', 'failing'])),
  /**
   * How the rate-limit governor counts: `shared` across replicas (Redis), `fallback` on this
   * replica's share of every limit, `single` as the only process.
   */
  governor: z.enum(['shared', 'fallback', 'single']),
  /**
   * Present while the console cannot get an access token from the platform: the diagnosed
   * `cause` and the same title and detail an administrator gets in the problem and /readyz
   * (never the secret). Absent once a token has been had.
   */
  platformSignIn: z.optional(
    z.object({ cause: z.string(), title: z.string(), detail: z.string() }),
  ),
});
export type ConsoleHealth = z.infer<typeof ConsoleHealthSchema>;
