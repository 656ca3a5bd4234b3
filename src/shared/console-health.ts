// What the console tells signed-in browsers about its own health (GET /api/health), so every page
// can say when incidents are not being recorded or the replicas cannot share the limits. Never the
// internal error itself: that is for /readyz and the logs.
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
});
export type ConsoleHealth = z.infer<typeof ConsoleHealthSchema>;
