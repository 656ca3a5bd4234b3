// Shapes of the account-wide view: registered integrations, the reports they send to
// `POST /api/integrations/reports`, the ingest answer, and the overview the rate-limits page
// shows. The BFF validates with them, the SPA reads with them.
import * as z from 'zod/mini';
import { BlockStateSchema } from './limit-state';
import { RATE_LIMIT_PERIODS } from './rate-limits';
import { collapseSpaces, hasUnsafeCharacters } from './safe-text';

const IsoTime = z.iso.datetime({ offset: true });

/**
 * Where every integration reports, whatever its connection: one address for the console, since
 * the key says which integration reports, hence to which connection.
 */
export const INGEST_PATH = '/api/integrations/reports';

/** Limits of one report batch; more entries than this is a 413. */
export const REPORT_LIMITS = {
  maxMinuteEntries: 500,
  maxThrottleEntries: 200,
  /** A timestamp further ahead than this is dropped (clock skew allowance). */
  maxFutureSkewMs: 5 * 60_000,
  /**
   * A timestamp older than this is dropped: the reporter resends a counter for 10 minutes at most,
   * and a key that could write into every minute of the retention at once could grow the store by
   * that much in one burst (docs/account-wide-view.md, "Storage and retention").
   */
  maxLateMs: 60 * 60_000,
  /**
   * Distinct 429 occurrences kept per integration and minute; more in that minute are aggregated
   * into one row that counts them. The platform has a handful of limits, and one blocking
   * occurrence repeats its event id, so a real integration meets far fewer in a minute.
   */
  maxThrottlesPerMinute: 10,
} as const;

/**
 * An integration's name: what people call it, shown on the rate-limits page and printed by the
 * command line. Letters and digits of any script (no control, format or bidi characters), runs of
 * spaces kept as one; a name that reads like an existing one is refused where it is registered
 * (`nameSkeleton` in safe-text.ts).
 */
export const IntegrationNameSchema = z
  .string()
  .check(
    z.overwrite(collapseSpaces),
    z.minLength(1, 'must not be empty'),
    z.maxLength(80, 'must be at most 80 characters'),
    z.regex(/^[\p{L}\p{N}][\p{L}\p{N} ._()-]*$/u, 'letters, digits, spaces and . _ ( ) - only'),
  );

/**
 * Who to contact about an integration (a team or a mailbox): free text, but nothing that could
 * change how it or what follows it is shown (terminal escapes, line breaks, bidi overrides).
 */
export const IntegrationOwnerSchema = z.string().check(
  z.refine(
    (owner) => !hasUnsafeCharacters(owner),
    'must not hold control characters, line breaks or bidi overrides',
  ),
  z.overwrite(collapseSpaces),
  z.maxLength(120, 'must be at most 120 characters'),
);

/** `POST /api/integrations`: register one. */
export const RegisterIntegrationSchema = z.object({
  name: IntegrationNameSchema,
  /** Who to contact about it; optional. */
  owner: z.optional(IntegrationOwnerSchema),
});
export type RegisterIntegration = z.infer<typeof RegisterIntegrationSchema>;

/** One registered integration, as admins see it (never its key, nor the key's hash). */
export const IntegrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.nullable(z.string()),
  /** The platform connection it reports to (its key's), chosen at registration. */
  connection: z.string(),
  status: z.enum(['active', 'revoked']),
  createdAt: IsoTime,
  /** When the current key was issued (registration or the latest rotation). */
  keyIssuedAt: z.nullable(IsoTime),
  /** The key's last four characters, to tell which key a deployment holds. */
  keyHint: z.nullable(z.string()),
  lastReportAt: z.nullable(IsoTime),
});
export type Integration = z.infer<typeof IntegrationSchema>;

export const IntegrationListSchema = z.object({ items: z.array(IntegrationSchema) });

/** A registration or rotation: the key, shown this once. */
export const IssuedKeySchema = z.object({
  integration: IntegrationSchema,
  key: z.string(),
});
export type IssuedKey = z.infer<typeof IssuedKeySchema>;

const Method = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const Count = z.int().check(z.minimum(0), z.maximum(10_000_000));
const HeaderValue = z.string().check(z.maxLength(100));

/** One minute of one operation: how many requests, how many drew a 429. Unknown keys dropped. */
export const MinuteEntrySchema = z.object({
  /** Any time inside the minute (the start, usually). */
  minute: IsoTime,
  method: Method,
  /** The operation's path template, or a concrete path (reduced to its template). */
  path: z.string().check(z.minLength(1), z.maxLength(500)),
  requests: Count,
  throttled: z.optional(Count),
});
export type MinuteEntry = z.infer<typeof MinuteEntrySchema>;

/** One 429 the integration received, with the platform's rate-limit headers as they came. */
export const ThrottleEntrySchema = z.object({
  at: IsoTime,
  method: Method,
  path: z.string().check(z.minLength(1), z.maxLength(500)),
  headers: z.object({
    'retry-after': z.optional(HeaderValue),
    'ot-ratelimit-event-id': z.optional(HeaderValue),
    'ot-requests-allowed': z.optional(HeaderValue),
    'ot-period': z.optional(HeaderValue),
    'ot-request-made': z.optional(HeaderValue),
  }),
});
export type ThrottleEntry = z.infer<typeof ThrottleEntrySchema>;

/** Why an entry of a report was dropped. */
export type DropReason =
  /** not a valid entry (missing or malformed fields) */
  | 'invalid'
  /** the path holds an identifier-like value (e-mail, phone number, name) */
  | 'identifier'
  /** the path carries a query string */
  | 'query-string'
  /** the entry carries a request or answer body */
  | 'body'
  /** the entry carries a token or credential */
  | 'token'
  /** the time is more than 5 minutes ahead of the console */
  | 'future-timestamp'
  /** the time is older than an hour (or the retention, when that is shorter) */
  | 'too-old';

/** `202` answer of `POST /api/integrations/reports`. */
export const IngestAnswerSchema = z.object({
  accepted: z.object({ minutes: z.int(), throttles: z.int() }),
  /** Accepted 429 entries beyond the per-minute number of distinct ones, kept only as a count. */
  aggregated: z.optional(z.object({ throttles: z.int() })),
  /**
   * Requests beyond the account's minute ceiling for this integration, across all its reports:
   * not stored, and the minutes they claimed are set aside in every view
   * (docs/account-wide-view.md, "What one key can do"). Present only when something was capped.
   */
  capped: z.optional(z.object({ minutes: z.int(), requests: z.int() })),
  dropped: z.object({
    total: z.int(),
    reasons: z.record(z.string(), z.int()),
  }),
});
export type IngestAnswer = z.infer<typeof IngestAnswerSchema>;

/** Who saw something: the console itself or a registered integration. */
const SourceSchema = z.object({
  /** `console`, or the integration's id. */
  id: z.string(),
  name: z.string(),
});

/** One limit, account-wide: each source's requests in its window, and what nobody reported. */
const AccountLimitSchema = z.object({
  ruleId: z.string(),
  period: z.enum(RATE_LIMIT_PERIODS),
  limit: z.int(),
  /** Requests of the console (its own governor's count). */
  console: z.int(),
  integrations: z.array(z.object({ id: z.string(), name: z.string(), used: z.int() })),
  /** Console plus every integration. */
  reported: z.int(),
  /**
   * What the platform itself last said was made in this window (a 429's ot-request-made) minus
   * what was reported; null when unknown, which is the usual case: unreported is not zero.
   */
  unreported: z.nullable(z.int()),
  /**
   * Integrations' requests in this window from minutes set aside (a source's minute that reached
   * the account's minute ceiling): counted in no figure above, shown so nothing is hidden.
   */
  setAside: z.optional(z.int()),
  /** The block that stops this limit now, as every page describes it (shared/limit-state.ts). */
  block: z.nullable(BlockStateSchema),
});
export type AccountLimit = z.infer<typeof AccountLimitSchema>;

/** One row of the per-integration table. */
const IntegrationActivitySchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.nullable(z.string()),
  status: z.enum(['active', 'revoked']),
  requestsLastMinute: z.int(),
  requestsLastHour: z.int(),
  throttledLastHour: z.int(),
  lastReportAt: z.nullable(IsoTime),
  /** Registered and active, but no report for longer than the stale threshold. */
  stale: z.boolean(),
  /** Its share of each limit right now (0–1 of the limit). */
  shares: z.array(
    z.object({ ruleId: z.string(), period: z.enum(RATE_LIMIT_PERIODS), share: z.number() }),
  ),
});
export type IntegrationActivity = z.infer<typeof IntegrationActivitySchema>;

/** One incident across every reporter. */
const AccountIncidentSchema = z.object({
  key: z.string(),
  eventId: z.nullable(z.string()),
  firstSeen: IsoTime,
  lastSeen: IsoTime,
  ruleId: z.nullable(z.string()),
  period: z.nullable(z.enum(RATE_LIMIT_PERIODS)),
  requestsAllowed: z.nullable(z.int()),
  requestsMade: z.nullable(z.int()),
  /** Everyone who received a 429 of this occurrence, with how many. */
  reporters: z.array(z.object({ id: z.string(), name: z.string(), hits: z.int() })),
  /** The integrations that sent most in the minute before it, most first. */
  topSenders: z.array(z.object({ id: z.string(), name: z.string(), requests: z.int() })),
});
export type AccountIncident = z.infer<typeof AccountIncidentSchema>;

/** `GET /api/integrations/overview`: the account-wide view of the rate-limits page. */
export const AccountOverviewSchema = z.object({
  now: IsoTime,
  staleAfterSeconds: z.int(),
  limits: z.array(AccountLimitSchema),
  integrations: z.array(IntegrationActivitySchema),
  timeline: z.object({
    bucketSeconds: z.int(),
    start: IsoTime,
    series: z.array(z.object({ id: z.string(), name: z.string(), requests: z.array(z.int()) })),
  }),
  incidents: z.array(AccountIncidentSchema),
  /** Demo mode: the simulated integrations that can be made to burst. */
  demoBursts: z.array(SourceSchema),
  /**
   * Minutes of the last hour in which an integration reported as many requests (429s included)
   * as the account's limits allow in a minute, or more: shown apart, counted in no limit,
   * timeline or forecast.
   */
  implausible: z.optional(
    z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        minute: IsoTime,
        /** Requests (429s included), as stored: at most the ceiling, the rest refused at intake. */
        reported: z.int(),
        /** The most the account's limits allow in a minute: what the figure is clamped to. */
        clampedTo: z.int(),
      }),
    ),
  ),
});
export type AccountOverview = z.infer<typeof AccountOverviewSchema>;
