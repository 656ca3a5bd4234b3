// Shapes of the planning area (docs/planning.md): the what-if replay of the account's recorded
// traffic under another rate-limit policy, and the v4 migration readiness report. The BFF
// validates requests with them and the SPA reads answers with them.
import * as z from 'zod/mini';
import { CONNECTION_NAME_PATTERN } from './connections';
import { RATE_LIMIT_POLICIES } from './rate-limits';
import { RESHAPE_KINDS } from './reshaped-fields';

const IsoTime = z.iso.datetime({ offset: true });

/** The periods a replay or a readiness report covers, newest minute last. */
export const PLANNING_PERIODS = {
  hour: { label: 'Last hour', minutes: 60, bucketMinutes: 1 },
  day: { label: 'Last 24 hours', minutes: 1_440, bucketMinutes: 15 },
  week: { label: 'Last 7 days', minutes: 10_080, bucketMinutes: 60 },
} as const;
export type PlanningPeriod = keyof typeof PLANNING_PERIODS;
export const PlanningPeriodSchema = z.enum(['hour', 'day', 'week']);

/**
 * The bounds of a custom policy's limits. Zero or negative limits would refuse everything, and a
 * limit above these is no limit the platform has ever published (its largest is 200,000 an hour):
 * both are typing errors, refused with a message rather than replayed.
 */
export const CUSTOM_LIMIT_BOUNDS = {
  MINUTE: { min: 1, max: 1_000_000 },
  HOUR: { min: 1, max: 60_000_000 },
} as const;

/** One module rule of a custom policy: a published rule's id, with its limits replaced. */
export const CustomModuleRuleSchema = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(80)),
  /** The rule's minute limit; null keeps no minute limit for it. */
  minute: z.nullable(z.number()),
  /** The rule's hour limit; null keeps no hour limit for it. */
  hour: z.nullable(z.number()),
});
export type CustomModuleRule = z.infer<typeof CustomModuleRuleSchema>;

/**
 * A policy to replay against:
 * - `published`: one of the two published versions of the limits, with this account's tier and
 *   vendor-granted overrides;
 * - `custom`: numbers of one's own. Null leaves that limit out; the module rules listed replace
 *   the published ones (an empty list: none);
 * - `connection`: the policy in force of another connection of this console (its published
 *   version, tier, granted overrides and module rules), to replay this connection's traffic under
 *   that account's limits ("production's week under UAT's limits").
 */
export const PolicyChoiceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('published'), version: z.enum(RATE_LIMIT_POLICIES) }),
  z.strictObject({
    kind: z.literal('custom'),
    accountMinute: z.nullable(z.number()),
    accountHour: z.nullable(z.number()),
    endpointMinute: z.nullable(z.number()),
    moduleRules: z.array(CustomModuleRuleSchema).check(z.maxLength(50)),
  }),
  z.strictObject({
    kind: z.literal('connection'),
    connection: z.string().check(z.regex(CONNECTION_NAME_PATTERN)),
  }),
]);
export type PolicyChoice = z.infer<typeof PolicyChoiceSchema>;

/**
 * `POST /api/planning/what-if`. Strict, as every object of a choice above: an unknown field is
 * refused, not ignored (docs/security-model.md), so a misspelt limit is not replayed as absent.
 */
export const WhatIfRequestSchema = z.strictObject({
  policy: PolicyChoiceSchema,
  period: PlanningPeriodSchema,
});
export type WhatIfRequest = z.infer<typeof WhatIfRequestSchema>;

/** One limit of a policy as the page lists it. */
export const PolicyLimitSchema = z.object({
  ruleId: z.string(),
  /** The limit's one name ("Account minute limit"). */
  name: z.string(),
  scope: z.enum(['account', 'module', 'endpoint']),
  period: z.enum(['MINUTE', 'HOUR']),
  limit: z.number(),
  kind: z.enum(['hard', 'soft']),
  /** What a breach blocks, and for how long (seconds); 0 for a soft limit. */
  blocks: z.enum(['account', 'rule', 'none']),
  blockSeconds: z.number(),
});
export type PolicyLimit = z.infer<typeof PolicyLimitSchema>;

/** A policy as a replay used it. */
export const PolicySummarySchema = z.object({
  /** "Published: account and module limits (in force)", "Custom". */
  label: z.string(),
  choice: PolicyChoiceSchema,
  limits: z.array(PolicyLimitSchema),
});
export type PolicySummary = z.infer<typeof PolicySummarySchema>;

/** One window that would have gone over a limit. */
export const BreachSchema = z.object({
  /** The minute the window ends in (its requests are counted up to the end of it). */
  minute: IsoTime,
  ruleId: z.string(),
  name: z.string(),
  /** For a per-endpoint limit, the endpoint ("GET /…"); else null. */
  endpoint: z.nullable(z.string()),
  period: z.enum(['MINUTE', 'HOUR']),
  limit: z.number(),
  /** Requests the window would have held had nothing been refused. */
  requests: z.number(),
  /** Requests this breach refused in its own minute (0 for a soft limit: it slows, not refuses). */
  refused: z.number(),
  kind: z.enum(['hard', 'soft']),
});
export type Breach = z.infer<typeof BreachSchema>;

/** Who would have drawn the refusals: an integration, or the console itself. */
export const RefusedBySourceSchema = z.object({
  /** An integration's id, or `console`. */
  source: z.string(),
  name: z.string(),
  requests: z.number(),
  refused: z.number(),
});
export type RefusedBySource = z.infer<typeof RefusedBySourceSchema>;

/** A policy's figures over the period. */
export const ReplayOutcomeSchema = z.object({
  policy: PolicySummarySchema,
  refused: z.number(),
  /** Refusals of requests that came while a block ran (after the breach's own minute). */
  refusedWhileBlocked: z.number(),
  /** Minutes with at least one hard limit over. */
  minutesOver: z.number(),
  /** Minutes in which a soft limit would have been over (the platform slows, refuses nothing). */
  minutesSlowed: z.number(),
  firstBreach: z.nullable(BreachSchema),
  /** Breaches, first ones first, at most {@link MAX_BREACHES_LISTED}. */
  breaches: z.array(BreachSchema),
  breachesTotal: z.number(),
  bySource: z.array(RefusedBySourceSchema),
  /** The tightest limit at the busiest minute: what was left of it (negative: over). */
  headroom: z.nullable(
    z.object({
      ruleId: z.string(),
      name: z.string(),
      endpoint: z.nullable(z.string()),
      limit: z.number(),
      used: z.number(),
      left: z.number(),
    }),
  ),
});
export type ReplayOutcome = z.infer<typeof ReplayOutcomeSchema>;

/** Breaches listed per policy; the rest are counted in `breachesTotal`. */
export const MAX_BREACHES_LISTED = 200;

/** One bar of the chart: a bucket of minutes. */
export const ReplayBucketSchema = z.object({
  start: IsoTime,
  /** The busiest minute of the bucket: all requests, and the busiest endpoint's. */
  peakMinute: z.number(),
  peakEndpointMinute: z.number(),
  requests: z.number(),
  refusedInForce: z.number(),
  refusedChosen: z.number(),
});
export type ReplayBucket = z.infer<typeof ReplayBucketSchema>;

/** An integration's minute whose report no account limit allows: shown apart, never replayed. */
export const SetAsideSchema = z.object({
  source: z.string(),
  name: z.string(),
  minute: IsoTime,
  reported: z.number(),
});

/** The 429s the platform answered in the period, as the console and the integrations recorded them. */
export const Recorded429sSchema = z.object({
  total: z.number(),
  /** Per endpoint ("GET /…"), most first. */
  byEndpoint: z.array(z.object({ endpoint: z.string(), throttled: z.number() })),
});
export type Recorded429s = z.infer<typeof Recorded429sSchema>;

/** A platform connection as the planning answers name it. */
export const PlanningConnectionSchema = z.object({ name: z.string(), label: z.string() });
export type PlanningConnection = z.infer<typeof PlanningConnectionSchema>;

/** `POST /api/planning/what-if` answers this. */
export const WhatIfResultSchema = z.object({
  /** This run's id, stamped in its exports: a file is the result on screen, not a new replay. */
  runId: z.string(),
  /** The connection whose recorded traffic was replayed (the chosen policy may be another's). */
  connection: PlanningConnectionSchema,
  period: PlanningPeriodSchema,
  from: IsoTime,
  /** The end of the traffic read: the generation time, never later. */
  to: IsoTime,
  bucketMinutes: z.number(),
  /** Requests replayed, and the minutes that had any. */
  requests: z.number(),
  activeMinutes: z.number(),
  busiestMinute: z.object({ minute: IsoTime, requests: z.number() }),
  inForce: ReplayOutcomeSchema,
  chosen: ReplayOutcomeSchema,
  buckets: z.array(ReplayBucketSchema),
  /** Reported minutes left out as implausible (docs/account-wide-view.md). */
  setAside: z.array(SetAsideSchema),
  /** What the platform actually refused in the period, beside what the baseline replay refuses. */
  recorded429s: Recorded429sSchema,
  generatedAt: IsoTime,
});
export type WhatIfResult = z.infer<typeof WhatIfResultSchema>;

/** `GET /api/planning/policies`: what the what-if form starts from. */
export const PlanningPoliciesSchema = z.object({
  /** The connection whose traffic this page replays. */
  connection: PlanningConnectionSchema,
  inForce: PolicySummarySchema,
  other: PolicySummarySchema,
  /**
   * The policy in force of each other connection the person has a role in (none they have no
   * role in: another account's limits are that account's business), in switcher order.
   */
  connections: z.array(
    z.object({ ...PlanningConnectionSchema.shape, policy: PolicySummarySchema }),
  ),
  /** The published module rules a custom policy may keep, with their published limits. */
  moduleRules: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['hard', 'soft']),
      minute: z.nullable(z.number()),
      hour: z.nullable(z.number()),
    }),
  ),
  /** How many days of traffic are kept (INTEGRATION_RETENTION_DAYS); longer periods are refused. */
  retentionDays: z.number(),
  periods: z.array(PlanningPeriodSchema),
  bounds: z.object({
    minute: z.object({ min: z.number(), max: z.number() }),
    hour: z.object({ min: z.number(), max: z.number() }),
  }),
});
export type PlanningPolicies = z.infer<typeof PlanningPoliciesSchema>;

/** `GET /api/planning/migration?period=`. */
export const MigrationQuerySchema = z.object({ period: z.optional(PlanningPeriodSchema) });

/** A legacy data-subject operation the account called, and what replaces it. */
export const LegacyUseSchema = z.object({
  method: z.string(),
  template: z.string(),
  /** The catalog's id and title of the legacy operation ("v2 · List data subjects"). */
  operation: z.string(),
  title: z.string(),
  calls: z.number(),
  /** Who called it, most calls first. */
  callers: z.array(z.object({ source: z.string(), name: z.string(), calls: z.number() })),
  replacements: z.array(
    z.object({
      operation: z.string(),
      title: z.string(),
      method: z.string(),
      template: z.string(),
      /** What to expect, in the catalog's words. */
      note: z.string(),
      /** Fields of the documented answers only v4 has, and only the legacy answer has. */
      v4Adds: z.array(z.string()),
      v4LeavesOut: z.array(z.string()),
      /** Legacy fields v4 carries under another shape (see reshaped-fields.ts), and where. */
      v4Reshapes: z.array(
        z.object({
          path: z.string(),
          to: z.string(),
          how: z.enum(RESHAPE_KINDS),
          entry: z.optional(z.string()),
        }),
      ),
      complete: z.boolean(),
      /** The module rule that counts the call today, and the one that counts its replacement. */
      ruleBefore: z.nullable(z.object({ id: z.string(), name: z.string(), limits: z.string() })),
      ruleAfter: z.nullable(z.object({ id: z.string(), name: z.string(), limits: z.string() })),
    }),
  ),
  /** Why there is no replacement, when there is none. */
  noReplacement: z.nullable(z.string()),
});
export type LegacyUse = z.infer<typeof LegacyUseSchema>;

/** Share of data-subject calls already on v4: null when there were none. */
const Share = z.nullable(z.number());

export const MigrationReportSchema = z.object({
  /** The connection whose calls are counted. */
  connection: PlanningConnectionSchema,
  period: PlanningPeriodSchema,
  from: IsoTime,
  to: IsoTime,
  /** Data-subject calls in the period, and those on v4. */
  dataSubjectCalls: z.number(),
  v4Calls: z.number(),
  readiness: Share,
  bySource: z.array(
    z.object({
      source: z.string(),
      name: z.string(),
      calls: z.number(),
      v4Calls: z.number(),
      readiness: Share,
    }),
  ),
  /** One point per day (UTC) of the period. */
  trend: z.array(
    z.object({ day: z.string(), calls: z.number(), v4Calls: z.number(), readiness: Share }),
  ),
  legacy: z.array(LegacyUseSchema),
  /** v4 operations called, for the record. */
  v4: z.array(
    z.object({ operation: z.string(), title: z.string(), template: z.string(), calls: z.number() }),
  ),
  /** Reported minutes left out as implausible, as in the what-if (docs/account-wide-view.md). */
  setAside: z.array(SetAsideSchema),
  generatedAt: IsoTime,
});
export type MigrationReport = z.infer<typeof MigrationReportSchema>;

/** What the exports come as. */
export const PLANNING_EXPORT_FORMATS = ['csv', 'markdown'] as const;
export const ExportFormatSchema = z.enum(PLANNING_EXPORT_FORMATS);
