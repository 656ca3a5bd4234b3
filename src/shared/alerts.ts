// Shapes of early warning and alerting (docs/alerts.md): the forecast per limit, alert events,
// destinations as the browser may see them, and the delivery log. The BFF answers with them, the
// SPA validates with them.
import * as z from 'zod/mini';
import { BlockStateSchema } from './limit-state';
import { PROBLEM_TYPES } from './problem';
import { RATE_LIMIT_PERIODS } from './rate-limits';

/**
 * Every event an alert destination can subscribe to, with what it means. `reporter.silent` is
 * defined now and emitted once integrations report to the console (account-wide view).
 */
export const ALERT_EVENTS = {
  'incident.new': 'A new 429 incident',
  'block.started': 'A block started (the platform refuses requests)',
  'block.ended': 'A block ended',
  'limit.near': 'A limit passed its warning threshold',
  'limit.forecast': 'A limit will be exhausted within its window at the current rate',
  'reporter.silent': 'A reporting integration went silent',
  'governor.holding': 'The console held requests back for longer than the destination allows',
  'audit.checkpoint':
    'The audit trail signed a checkpoint of its chain (evidence to keep outside the console)',
  'audit.entry':
    'Every lookup and administrative change, as it is recorded (an OCSF event, for a SIEM)',
} as const;
export type AlertEventType = keyof typeof ALERT_EVENTS;
export const ALERT_EVENT_TYPES = Object.keys(ALERT_EVENTS) as AlertEventType[];
/** What a delivery carries: a subscribable event, or the one-click test. */
export const DELIVERY_EVENT_TYPES = [...ALERT_EVENT_TYPES, 'test'] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

/** The two payload formats. */
export const DESTINATION_KINDS = ['webhook', 'slack'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/**
 * How a generic webhook proves it came from the console (docs/alerts.md): the console's own
 * `Console-Signature` header in Stripe's scheme, or Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), which receivers verify with that specification's
 * libraries. Slack-compatible destinations are not signed: their URL is the credential.
 */
export const SIGNING_SCHEMES = {
  'console-signature': 'Console-Signature (Stripe scheme)',
  'standard-webhooks': 'Standard Webhooks',
} as const;
export type SigningScheme = keyof typeof SIGNING_SCHEMES;
export const SIGNING_SCHEME_NAMES = Object.keys(SIGNING_SCHEMES) as [
  SigningScheme,
  ...SigningScheme[],
];
/** A generic webhook created without a choice keeps the scheme every earlier one has. */
export const DEFAULT_SIGNING_SCHEME: SigningScheme = 'console-signature';

/** Bounds of what an admin may configure. */
export const ALERT_LIMITS = {
  nameMaxLength: 80,
  urlMaxLength: 2_000,
  holdBackSeconds: { min: 5, max: 3_600, default: 60 },
  thresholdPercent: { min: 1, max: 100, default: 80 },
  deliveryPageSize: 50,
} as const;

const IsoTime = z.iso.datetime({ offset: true });
const EventType = z.enum(ALERT_EVENT_TYPES as [AlertEventType, ...AlertEventType[]]);

/** A destination as any signed-in user may see it: never its secret, never its full URL. */
export const DestinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  /** How a generic webhook is signed; null for Slack-compatible destinations. */
  signing: z.nullable(z.enum(SIGNING_SCHEME_NAMES)),
  /** The URL's origin and the last characters of the rest: enough to recognise, not to use. */
  urlHint: z.string(),
  events: z.array(EventType),
  enabled: z.boolean(),
  holdBackSeconds: z.int(),
  createdAt: IsoTime,
});
export type Destination = z.infer<typeof DestinationSchema>;

/** `GET /api/alerts/destinations`. */
export const DestinationListSchema = z.object({ items: z.array(DestinationSchema) });

/** `POST /api/alerts/destinations` body (admins only). */
export const CreateDestinationSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(ALERT_LIMITS.nameMaxLength)),
  kind: z.enum(DESTINATION_KINDS),
  url: z.string().check(z.trim(), z.minLength(1), z.maxLength(ALERT_LIMITS.urlMaxLength)),
  events: z.array(EventType).check(z.maxLength(ALERT_EVENT_TYPES.length)),
  /** Generic webhooks only (default `console-signature`); fixed at creation with the secret. */
  signing: z.optional(z.enum(SIGNING_SCHEME_NAMES)),
  holdBackSeconds: z.optional(
    z.int().check(z.gte(ALERT_LIMITS.holdBackSeconds.min), z.lte(ALERT_LIMITS.holdBackSeconds.max)),
  ),
});
export type CreateDestination = z.infer<typeof CreateDestinationSchema>;

/** `PATCH /api/alerts/destinations/:id` body (admins only): what may change after creation. */
export const UpdateDestinationSchema = z.object({
  name: z.optional(CreateDestinationSchema.shape.name),
  events: z.optional(CreateDestinationSchema.shape.events),
  enabled: z.optional(z.boolean()),
  holdBackSeconds: CreateDestinationSchema.shape.holdBackSeconds,
});
export type UpdateDestination = z.infer<typeof UpdateDestinationSchema>;

/**
 * The answer to creating a destination: the only time its signing secret (generic webhooks)
 * leaves the server.
 */
export const CreatedDestinationSchema = z.object({
  destination: DestinationSchema,
  /**
   * `whsec_…` for a generic webhook (for Standard Webhooks, `whsec_` and the base64 key); null
   * for Slack, whose URL is its own secret.
   */
  secret: z.nullable(z.string()),
});
export type CreatedDestination = z.infer<typeof CreatedDestinationSchema>;

export const DELIVERY_STATUSES = [
  'pending',
  'delivering',
  'retrying',
  'delivered',
  'dead',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One alert to one destination, as the delivery log shows it. */
export const DeliverySchema = z.object({
  /** Also the alert's idempotency key in the payload. */
  id: z.string(),
  destinationId: z.string(),
  /** The platform connection the alert is about (`default` for console-wide alerts). */
  connection: z.string(),
  event: z.enum(DELIVERY_EVENT_TYPES),
  summary: z.string(),
  /** When the event happened (a block's end is queued when the block starts): the log's order. */
  occurredAt: IsoTime,
  /** The limit the alert is about (rule id and period), null for alerts about no one limit. */
  ruleId: z.nullable(z.string()),
  period: z.nullable(z.enum(RATE_LIMIT_PERIODS)),
  /** When the alert was queued. */
  createdAt: IsoTime,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.int(),
  /** When the next attempt is due (pending, retrying), else null. */
  nextAttemptAt: z.nullable(IsoTime),
  lastAttemptAt: z.nullable(IsoTime),
  deliveredAt: z.nullable(IsoTime),
  /** The receiver's HTTP status of the last attempt, null when none came back. */
  responseStatus: z.nullable(z.int()),
  /** Why the last attempt failed, in plain words (never the URL or a secret). */
  error: z.nullable(z.string()),
  /** How long the last attempt took, in milliseconds. */
  latencyMs: z.nullable(z.int()),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** `GET /api/alerts/destinations/:id/deliveries`: newest first. */
export const DeliveryListSchema = z.object({ items: z.array(DeliverySchema) });

/** The warning state of one limit. */
const FORECAST_LEVELS = ['ok', 'near', 'forecast', 'exhausted', 'blocked'] as const;
export type ForecastLevel = (typeof FORECAST_LEVELS)[number];

/** One limit's forecast. */
const LimitForecastSchema = z.object({
  /** `${ruleId}:${period}`: the key thresholds are configured under. */
  key: z.string(),
  ruleId: z.string(),
  period: z.enum(RATE_LIMIT_PERIODS),
  limit: z.int(),
  windowSeconds: z.int(),
  used: z.int(),
  /** Requests per minute at the current rate. */
  ratePerMinute: z.number(),
  /** Share of the limit used, 0–100 (may exceed 100 when counted elsewhere). */
  percentUsed: z.number(),
  thresholdPercent: z.int(),
  /** Seconds until the window is full at the current rate; null when it never fills at it. */
  secondsToExhaustion: z.nullable(z.number()),
  exhaustsAt: z.nullable(IsoTime),
  /** `blocked` whenever a running block stops the limit, whatever its numbers say. */
  level: z.enum(FORECAST_LEVELS),
  /** The block that stops the limit now (shared/limit-state.ts), or null. */
  block: z.nullable(BlockStateSchema),
  /** Whose requests the numbers count: this console only, or every reporting integration. */
  source: z.enum(['console', 'account']),
  /**
   * Integrations' requests of this window left out of `used` because their minute reached the
   * account's minute ceiling (docs/account-wide-view.md); absent when none was.
   */
  setAside: z.optional(z.int()),
});
export type LimitForecast = z.infer<typeof LimitForecastSchema>;

/** `GET /api/alerts/forecast`. */
export const ForecastResponseSchema = z.object({
  now: IsoTime,
  limits: z.array(LimitForecastSchema),
});
export type ForecastResponse = z.infer<typeof ForecastResponseSchema>;

/** `PUT /api/alerts/thresholds/:ruleId/:period` body (admins only). */
export const ThresholdSchema = z.object({
  percent: z
    .int()
    .check(z.gte(ALERT_LIMITS.thresholdPercent.min), z.lte(ALERT_LIMITS.thresholdPercent.max)),
});

/** Problem types of the alerts API (a view of PROBLEM_TYPES). */
export const ALERT_PROBLEM_TYPES = {
  destinationRefused: PROBLEM_TYPES.alertDestinationRefused,
} as const;
