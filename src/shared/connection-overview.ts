// The overview of every connection on the rate-limits page (`GET /api/rate-limit-overview`): each
// connection's headroom, running blocks, governor mode and last known platform state, side by side.
import * as z from 'zod/mini';
import { ConnectionColourSchema, CONNECTION_NAME_PATTERN } from './connections';
import { BlockStateSchema } from './limit-state';
import { ACCOUNT_TIERS, RATE_LIMIT_PERIODS } from './rate-limits';

const IsoTime = z.iso.datetime({ offset: true });

/** One limit of one connection as its governor counts it now. */
export const OverviewLimitSchema = z.object({
  ruleId: z.string(),
  period: z.enum(RATE_LIMIT_PERIODS),
  limit: z.int(),
  windowSeconds: z.int(),
  /** Requests the console sent in the last `windowSeconds` (a sliding window). */
  used: z.int(),
  remaining: z.int(),
  /** When the oldest counted request leaves the window; null when unused. */
  resetsAt: z.nullable(IsoTime),
  /** False for a soft limit the operator chose not to keep. */
  enforced: z.boolean(),
  /** For a per-endpoint rule: the endpoint this window counts ("GET /path"). */
  endpoint: z.optional(z.string()),
});
export type OverviewLimit = z.infer<typeof OverviewLimitSchema>;

/**
 * The platform as the connection last met it, from its last token request (never a new one):
 * `answering` while no failure is known, `unreachable` when the platform could not be reached or
 * failed to answer, `credential-refused` when it refused the connection's client credentials.
 */
export const PLATFORM_STATES = ['answering', 'unreachable', 'credential-refused'] as const;
export type PlatformState = (typeof PLATFORM_STATES)[number];

/** One connection's card. */
export const ConnectionOverviewSchema = z.object({
  name: z.string().check(z.regex(CONNECTION_NAME_PATTERN)),
  label: z.string(),
  colour: ConnectionColourSchema,
  tier: z.enum(ACCOUNT_TIERS),
  platform: z.object({
    state: z.enum(PLATFORM_STATES),
    /** The diagnosed failure's title, while the platform is not answering (no secret in it). */
    title: z.optional(z.string()),
  }),
  /**
   * How the connection's governor counts: `shared` across replicas (Redis), `fallback` on this
   * replica's share of every limit (Redis away), `single` as the only process.
   */
  governor: z.enum(['shared', 'fallback', 'single']),
  /** Every limit's headroom; null when the governor could not be read (then `problem` says why). */
  limits: z.nullable(z.array(OverviewLimitSchema)),
  /** The blocks running now, described as on every page; their `until` is when each ends. */
  blocks: z.array(BlockStateSchema),
  /** Why the limits could not be read, when they could not. */
  problem: z.optional(z.string()),
});
export type ConnectionOverview = z.infer<typeof ConnectionOverviewSchema>;

/** `GET /api/rate-limit-overview`: the person's connections, in the configured order. */
export const RateLimitOverviewSchema = z.object({
  /** The server's clock, for countdowns that do not depend on the browser's. */
  now: IsoTime,
  connections: z.array(ConnectionOverviewSchema),
});
export type RateLimitOverview = z.infer<typeof RateLimitOverviewSchema>;
