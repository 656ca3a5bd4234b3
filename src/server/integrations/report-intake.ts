// Turns one integration report (untrusted JSON) into what may be stored: each entry validated on
// its own with zod, its path reduced to an operation template, unknown fields dropped, and every
// entry that carries an identifier-like value, a query string, a body, a token, or a time outside
// [now - 1 h, now + 5 min] dropped and counted by reason. Nothing of a dropped entry is
// kept, not even in the answer.
import {
  MinuteEntrySchema,
  REPORT_LIMITS,
  ThrottleEntrySchema,
  type DropReason,
} from '../../shared/integrations';
import {
  OPERATION_TEMPLATES,
  OTHER_TEMPLATE,
  pathHasIdentifier,
  templateOfPath,
} from '../../shared/operation-templates';
import { MAX_BLOCK_SECONDS } from '../../shared/rate-limits';
import type { MinuteAggregate, ThrottleRecord } from './report-aggregates';

/** The report as a whole is unusable: 400 (shape) or 413 (too many entries). */
export class ReportRejectedError extends Error {
  override name = 'ReportRejectedError';
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** What may be stored, and what was dropped. */
export interface IntakeResult {
  readonly minutes: MinuteAggregate[];
  readonly throttles: ThrottleRecord[];
  readonly dropped: Partial<Record<DropReason, number>>;
}

// Keys that mean the sender tried to include what the console never accepts.
const BODY_KEYS = /^(body|requestbody|responsebody|payload|data|content)$/i;
const TOKEN_KEYS =
  /^(token|accesstoken|access_token|authorization|bearer|apikey|api_key|secret|cookie|password)$/i;
const QUERY_KEYS = /^(query|querystring|search|params|url)$/i;

/** Every documented method and template pair: another method on a known path is `(other)`. */
const KNOWN_PAIRS = new Set(
  OPERATION_TEMPLATES.map((entry) => `${entry.method} ${entry.template}`),
);

/**
 * The template an entry is counted under: its path's, when its method is the documented one;
 * otherwise `(other)`. This keeps the rows one key can create per minute to the documented pairs
 * plus one per method, which the storage bound counts on.
 */
function templateOf(method: string, path: string): string {
  const template = templateOfPath(path);
  return KNOWN_PAIRS.has(`${method} ${template}`) ? template : OTHER_TEMPLATE;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which forbidden content an entry carries, looking at its keys and its headers' keys. */
function forbiddenContent(entry: Record<string, unknown>): DropReason | undefined {
  const keys = Object.keys(entry);
  const headers = entry.headers;
  if (headers && typeof headers === 'object') keys.push(...Object.keys(headers));
  if (keys.some((key) => TOKEN_KEYS.test(key))) return 'token';
  if (keys.some((key) => BODY_KEYS.test(key))) return 'body';
  if (keys.some((key) => QUERY_KEYS.test(key))) return 'query-string';
  return undefined;
}

function wholeNumber(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Retry-After as seconds (delta-seconds or an HTTP date), capped like the console's own. */
function retryAfterSeconds(value: string | undefined, at: number): number | null {
  if (value === undefined) return null;
  const seconds = wholeNumber(value);
  if (seconds !== null) return Math.min(seconds, MAX_BLOCK_SECONDS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, Math.ceil((date - at) / 1_000)), MAX_BLOCK_SECONDS);
}

/** Options: the clock and how far back an entry may be. */
export interface IntakeOptions {
  readonly now: number;
  readonly retentionMs: number;
}

/**
 * Reads a report. Throws ReportRejectedError when the report itself is not one (400) or has more
 * entries than one batch may (413); otherwise drops bad entries one by one.
 */
export function readReport(raw: unknown, { now, retentionMs }: IntakeOptions): IntakeResult {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ReportRejectedError(
      400,
      'The report must be a JSON object with "minutes" and/or "throttles"',
    );
  }
  const { minutes = [], throttles = [] } = raw as { minutes?: unknown; throttles?: unknown };
  if (!Array.isArray(minutes) || !Array.isArray(throttles)) {
    throw new ReportRejectedError(400, '"minutes" and "throttles" must be arrays');
  }
  if (
    minutes.length > REPORT_LIMITS.maxMinuteEntries ||
    throttles.length > REPORT_LIMITS.maxThrottleEntries
  ) {
    throw new ReportRejectedError(
      413,
      `A report holds at most ${REPORT_LIMITS.maxMinuteEntries} minute entries and ${REPORT_LIMITS.maxThrottleEntries} 429 entries; send smaller batches`,
    );
  }
  const dropped: Partial<Record<DropReason, number>> = {};
  const drop = (reason: DropReason) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };

  /** The checks every entry passes: content, path, time. Resolves to the template or undefined. */
  const admit = (entry: unknown, schema: typeof MinuteEntrySchema | typeof ThrottleEntrySchema) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return drop('invalid');
    const forbidden = forbiddenContent(entry as Record<string, unknown>);
    if (forbidden) return drop(forbidden);
    const path = (entry as { path?: unknown }).path;
    if (typeof path === 'string' && (path.includes('?') || path.includes('#'))) {
      return drop('query-string');
    }
    if (typeof path === 'string' && pathHasIdentifier(path)) return drop('identifier');
    const parsed = schema.safeParse(entry);
    if (!parsed.success) return drop('invalid');
    const time = Date.parse('minute' in parsed.data ? parsed.data.minute : parsed.data.at);
    if (time > now + REPORT_LIMITS.maxFutureSkewMs) return drop('future-timestamp');
    if (time < now - Math.min(retentionMs, REPORT_LIMITS.maxLateMs)) return drop('too-old');
    return { data: parsed.data, time, template: templateOf(parsed.data.method, parsed.data.path) };
  };

  // Entries of the same minute and operation are summed: one row per key in the store.
  const sums = new Map<string, MinuteAggregate>();
  for (const entry of minutes) {
    const admitted = admit(entry, MinuteEntrySchema);
    if (!admitted) continue;
    const minute = Math.floor(admitted.time / 60_000) * 60_000;
    const data = admitted.data as { method: string; requests: number; throttled?: number };
    const key = `${minute}|${data.method}|${admitted.template}`;
    const previous = sums.get(key);
    sums.set(key, {
      minute,
      method: data.method,
      template: admitted.template,
      requests: (previous?.requests ?? 0) + data.requests,
      throttled: (previous?.throttled ?? 0) + Math.min(data.throttled ?? 0, data.requests),
    });
  }
  const accepted: ThrottleRecord[] = [];
  for (const entry of throttles) {
    const admitted = admit(entry, ThrottleEntrySchema);
    if (!admitted) continue;
    const headers = (admitted.data as { headers: Record<string, string | undefined> }).headers;
    const eventId = headers['ot-ratelimit-event-id']?.trim();
    const validId = eventId && UUID.test(eventId) ? eventId.toLowerCase() : null;
    const period = headers['ot-period']?.trim().toUpperCase();
    accepted.push({
      at: admitted.time,
      // Without a usable event id, one occurrence per operation and minute.
      incidentKey:
        validId ??
        `unidentified-${Math.floor(admitted.time / 60_000)}-${admitted.data.method}-${admitted.template}`,
      eventId: validId,
      method: admitted.data.method,
      template: admitted.template,
      period: period === 'MINUTE' || period === 'HOUR' ? period : null,
      requestsAllowed: wholeNumber(headers['ot-requests-allowed']),
      requestsMade: wholeNumber(headers['ot-request-made']),
      retryAfterSeconds: retryAfterSeconds(headers['retry-after'], admitted.time),
    });
  }
  return { minutes: [...sums.values()], throttles: accepted, dropped };
}
