// Shapes of the rate-limit panel's API: 429 incidents, per-rule usage, the rules table and the live
// stream's payload. The BFF answers with them, the SPA validates with them.
import * as z from 'zod/mini';
import { BlockStateSchema, type BlockState } from './limit-state';
import { ACCOUNT_TIERS, RATE_LIMIT_PERIODS, RATE_LIMIT_POLICIES } from './rate-limits';

/**
 * Why an incident's headers could not be taken at face value. A flagged incident is still
 * recorded; the flag tells support which header to distrust.
 */
export const INCIDENT_FLAGS = {
  'missing-retry-after': 'No Retry-After header; the console waited its default for the rule',
  'malformed-retry-after': 'Retry-After was neither seconds nor an HTTP date',
  'retry-after-capped': 'Retry-After asked for more than an hour; the console waited one hour',
  'missing-event-id': 'No ot-ratelimit-event-id; the console generated a key',
  'malformed-event-id': 'ot-ratelimit-event-id was not a UUID; the console generated a key',
  'missing-period': 'No ot-period header',
  'unknown-period': 'ot-period was neither MINUTE nor HOUR',
  'missing-requests-allowed': 'No ot-requests-allowed header',
  'malformed-requests-allowed': 'ot-requests-allowed was not a whole number',
  'missing-requests-made': 'No ot-request-made header',
  'malformed-requests-made': 'ot-request-made was not a whole number',
  'unmatched-rule':
    'No limit that applies to this call has these figures; the console blocked the whole account',
} as const;
export type IncidentFlag = keyof typeof INCIDENT_FLAGS;

const IsoTime = z.iso.datetime({ offset: true });
const Period = z.enum(RATE_LIMIT_PERIODS);

/** One 429 incident: every 429 of the same blocking occurrence (`ot-ratelimit-event-id`). */
export const IncidentSchema = z.object({
  /** The event id when it is a valid UUID, otherwise a generated `unidentified-…` key. */
  key: z.string(),
  /** The upstream's `ot-ratelimit-event-id` as a valid UUID, or null. */
  eventId: z.nullable(z.string()),
  /** Version of this record; grows on every change, across all incidents (the stream's id). */
  seq: z.int(),
  firstSeen: IsoTime,
  lastSeen: IsoTime,
  /** How many 429s of this occurrence the console received. */
  hits: z.int(),
  period: z.nullable(Period),
  requestsAllowed: z.nullable(z.int()),
  requestsMade: z.nullable(z.int()),
  /** Retry-After of the latest 429 in seconds as the upstream meant it (a date is converted). */
  retryAfterSeconds: z.nullable(z.int()),
  /** Until when the console sends nothing for the blocked scope. */
  blockedUntil: IsoTime,
  /** The rule of `rulesForTier` the 429 matched, or null. */
  ruleId: z.nullable(z.string()),
  /** What the block stops: every operation (`account`) or the matched rule's operations. */
  scope: z.enum(['account', 'rule']),
  /** The console's operation id that drew the 429 (`token` for the token endpoint). */
  operation: z.string(),
  flags: z.array(z.string()),
  /** The rate-limit headers exactly as received (trimmed to a sane length), for support. */
  headers: z.record(z.string(), z.string()),
});
export type Incident = z.infer<typeof IncidentSchema>;

/** `GET /api/rate-limits/incidents`: one page, newest first. */
export const IncidentPageSchema = z.object({
  items: z.array(IncidentSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type IncidentPage = z.infer<typeof IncidentPageSchema>;

/** The filters of the incident history, as query parameters. */
export const INCIDENT_QUERY_LIMITS = { defaultPageSize: 50, maxPageSize: 200 } as const;

/** One limit of one rule as the console uses it right now. */
const RuleUsageSchema = z.object({
  ruleId: z.string(),
  period: Period,
  limit: z.int(),
  windowSeconds: z.int(),
  /** Requests this console sent in the last `windowSeconds` (a sliding window). */
  used: z.int(),
  remaining: z.int(),
  /** When the oldest counted request leaves the window and headroom grows; null when unused. */
  resetsAt: z.nullable(IsoTime),
  /** Until when an upstream 429 blocks this rule's requests (or the account), if it does. */
  blockedUntil: z.nullable(IsoTime),
  /** Whether that block stops the whole account or only this rule's requests. */
  blockedBy: z.nullable(z.enum(['account', 'rule'])),
  incidentKey: z.nullable(z.string()),
  /** False for a soft limit the operator chose not to keep (RATE_LIMIT_SOFT_LIMITS=ignore). */
  enforced: z.boolean(),
  /** For a per-endpoint rule: the endpoint this window counts ("GET /path"). */
  endpoint: z.optional(z.string()),
  /** The block that stops this limit now, described (shared/limit-state.ts), or null. */
  block: z.nullable(BlockStateSchema),
});
export type RuleUsage = z.infer<typeof RuleUsageSchema>;

/** A running block, described once for every page (shared/limit-state.ts). */
export type ActiveBlock = BlockState;

/** The console's request rate, in fixed buckets, oldest first. */
const TimelineSchema = z.object({
  bucketSeconds: z.int(),
  /** Start of the first bucket. */
  start: IsoTime,
  /** Requests sent upstream per bucket. */
  sent: z.array(z.int()),
  /** Requests the governor answered itself (429) per bucket. */
  refused: z.array(z.int()),
  /** Upstream 429s received per bucket. */
  throttled: z.array(z.int()),
});
export type Timeline = z.infer<typeof TimelineSchema>;

/**
 * A limit the platform stated in a 429 (`ot-requests-allowed` per `ot-period`) that no configured
 * limit of the call agrees with. The governor keeps the stricter of the two for the call's
 * endpoint until a restart or an admin's reset.
 */
const ReportedLimitSchema = z.object({
  /** "GET /path": the endpoint the 429 answered. */
  endpoint: z.string(),
  /** The console's operation id of the call. */
  operation: z.string(),
  period: Period,
  /** What the platform said is allowed. */
  reported: z.int(),
  /** The strictest configured limit of that period for the call; null when there is none. */
  configured: z.nullable(z.int()),
  /** What the governor keeps now: the smaller of the two. */
  kept: z.int(),
  firstReportedAt: IsoTime,
  lastReportedAt: IsoTime,
  incidentKey: z.string(),
  /** Requests counted against `kept` in its window. */
  used: z.int(),
});
export type ReportedLimit = z.infer<typeof ReportedLimitSchema>;

/** `GET /api/rate-limits/usage`. */
export const UsageSchema = z.object({
  now: IsoTime,
  accountTier: z.enum(ACCOUNT_TIERS),
  rules: z.array(RuleUsageSchema),
  blocks: z.array(BlockStateSchema),
  timeline: TimelineSchema,
  /** Limits the platform reported that disagree with the configured ones. */
  reported: z.array(ReportedLimitSchema),
});
export type Usage = z.infer<typeof UsageSchema>;

const RateLimitWindowSchema = z.object({
  period: Period,
  limit: z.int(),
  blockSeconds: z.int(),
  blockDocumented: z.boolean(),
  overridden: z.optional(z.boolean()),
});

/** One rule of the limits table as `GET /api/rate-limits/rules` sends it. */
const RuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  area: z.string(),
  scope: z.enum(['account', 'module', 'endpoint']),
  method: z.enum(['GET', 'POST', '*']),
  path: z.nullable(z.string()),
  kind: z.enum(['hard', 'soft']),
  limits: z.array(RateLimitWindowSchema),
  blocks: z.enum(['account', 'rule', 'none']),
  violation: z.string(),
  enforced: z.boolean(),
});
export type Rule = z.infer<typeof RuleSchema>;

/** `GET /api/rate-limits/rules`. */
export const RulesResponseSchema = z.object({
  accountTier: z.enum(ACCOUNT_TIERS),
  /** Which published version of the platform's rate-limit page the rules follow. */
  policy: z.enum(RATE_LIMIT_POLICIES),
  rules: z.array(RuleSchema),
});
export type RulesResponse = z.infer<typeof RulesResponseSchema>;

/** Name of the SSE event carrying an {@link Incident}. */
export const INCIDENT_EVENT = 'incident';

/**
 * Name of the SSE event saying that blocks ended before their time (an operator ended them, in
 * demo mode): open pages drop their banners and countdowns at once.
 */
export const BLOCKS_ENDED_EVENT = 'blocks-ended';

/** The payload of a {@link BLOCKS_ENDED_EVENT}. */
export const BlocksEndedSchema = z.object({
  at: IsoTime,
  /** The blocks of these incidents ended; empty when every block ended. */
  incidentKeys: z.array(z.string()),
});
export type BlocksEnded = z.infer<typeof BlocksEndedSchema>;

/** The formats of the incident export. */
export const INCIDENT_EXPORT_FORMATS = ['csv', 'json'] as const;
export type IncidentExportFormat = (typeof INCIDENT_EXPORT_FORMATS)[number];

/** One incident in the export: the list's columns, none of the headers as received. */
const ExportedIncidentSchema = z.object({
  /** The upstream's `ot-ratelimit-event-id`, or null when none usable came. */
  eventId: z.nullable(z.string()),
  /** The console's key of the incident (the event id, or a generated `unidentified-…` key). */
  key: z.string(),
  ruleId: z.nullable(z.string()),
  /** The limit's one name, as the page shows it. */
  limit: z.string(),
  period: z.nullable(Period),
  firstSeen: IsoTime,
  lastSeen: IsoTime,
  blockedUntil: IsoTime,
  hits: z.int(),
  requestsAllowed: z.nullable(z.int()),
  requestsMade: z.nullable(z.int()),
  retryAfterSeconds: z.nullable(z.int()),
  scope: z.enum(['account', 'rule']),
  operation: z.string(),
  flags: z.array(z.string()),
});

/** `GET /api/rate-limits/incidents/export?format=json`: the filtered list as a file. */
export const IncidentExportSchema = z.object({
  /** When the file was made (UTC). */
  generatedAt: IsoTime,
  /** The list's filters the file was made with (times in UTC). */
  filters: z.object({
    since: z.nullable(IsoTime),
    until: z.nullable(IsoTime),
    period: z.nullable(Period),
    rule: z.nullable(z.string()),
  }),
  /** False when more incidents matched than one file holds: the newest are in it. */
  complete: z.boolean(),
  incidents: z.array(ExportedIncidentSchema),
});
export type IncidentExport = z.infer<typeof IncidentExportSchema>;
