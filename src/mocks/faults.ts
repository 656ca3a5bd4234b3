// Fault injection for the mock upstream: tests, demo controls and benchmarks queue "the next N
// requests fail like this" instead of waiting for a real outage or a real rate limit.
import * as z from 'zod';
import { MOCK_OPERATIONS, type MockOperation } from './operations';

// RFC 9110 field-name token, and a value without CR, LF or NUL (header injection).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex
const HEADER_VALUE = /^[^\r\n\u0000]*$/;

/**
 * What to inject, as accepted by `state.injectFault` and `POST /__mock/faults`.
 *
 * - `operation`: which requests it hits; `*` matches any.
 * - `status`: the status they get. A 2xx status is not an error: the request is answered normally,
 *   after `delayMs` (a slow but working upstream).
 * - `count`: how many matching requests it hits (default 1).
 * - `retryAfterSeconds`: sets `Retry-After` (a 429 always carries one; default 60, or 3600 when
 *   `ot-period` is HOUR).
 * - `delayMs`: how long the answer is held back.
 * - `headers`: extra or overriding response headers; an empty value removes a default header, to
 *   simulate a 429 with missing rate-limit headers.
 */
export const FaultSpecSchema = z.strictObject({
  operation: z.enum([...MOCK_OPERATIONS, '*']),
  status: z.int().min(200).max(599),
  count: z.int().min(1).max(1_000_000).default(1),
  retryAfterSeconds: z.int().min(0).max(86_400).optional(),
  delayMs: z.int().min(0).max(600_000).optional(),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, 'must be a valid header name'),
      z.string().max(1_000).regex(HEADER_VALUE, 'must not contain CR, LF or NUL'),
    )
    .optional(),
});

/** A fault as the caller writes it (`count` optional). */
export type FaultSpec = z.input<typeof FaultSpecSchema>;

/** A queued fault, as listed by the control routes. */
export interface PendingFault {
  readonly id: number;
  readonly operation: FaultSpec['operation'];
  readonly status: number;
  /** How many more matching requests it will hit. */
  readonly remaining: number;
  readonly delayMs: number;
  /** The `ot-ratelimit-event-id` its 429s carry; absent for other statuses. */
  readonly rateLimitEventId?: string;
}

/** What one request that a fault hit must get. */
export interface FaultHit {
  readonly status: number;
  readonly delayMs: number;
  /** Complete response headers to add (defaults merged with overrides, removals applied). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Production account limits of docs/rate-limit-model.md, used for a 429's default headers. */
const ACCOUNT_LIMITS = {
  MINUTE: { allowed: 20_000, retryAfterSeconds: 60 },
  HOUR: { allowed: 200_000, retryAfterSeconds: 3_600 },
} as const;

interface QueuedFault {
  readonly id: number;
  readonly spec: z.output<typeof FaultSpecSchema>;
  readonly rateLimitEventId: string | undefined;
  remaining: number;
  served: number;
}

/** A FIFO of injected faults. */
export interface FaultQueue {
  /** Validates and queues a fault (throws a ZodError on a bad spec). */
  inject(spec: FaultSpec): PendingFault;
  /** Consumes one hit of the oldest fault matching `operation`, if any. */
  take(operation: MockOperation): FaultHit | undefined;
  /** The faults still queued, oldest first. */
  pending(): PendingFault[];
  /** Drops every queued fault. */
  clear(): void;
}

/** Creates an empty fault queue. */
export function createFaultQueue(): FaultQueue {
  let queue: QueuedFault[] = [];
  let nextId = 1;

  function describe(fault: QueuedFault): PendingFault {
    return {
      id: fault.id,
      operation: fault.spec.operation,
      status: fault.spec.status,
      remaining: fault.remaining,
      delayMs: fault.spec.delayMs ?? 0,
      ...(fault.rateLimitEventId ? { rateLimitEventId: fault.rateLimitEventId } : {}),
    };
  }

  return {
    inject(input) {
      const spec = FaultSpecSchema.parse(input);
      // One event id per injected 429, shared by all its hits: the upstream names each
      // rate-limiting occurrence once, and the console counts repeated hits of one incident.
      const rateLimitEventId = spec.status === 429 ? crypto.randomUUID() : undefined;
      const fault: QueuedFault = {
        id: nextId++,
        spec,
        rateLimitEventId,
        remaining: spec.count,
        served: 0,
      };
      queue.push(fault);
      return describe(fault);
    },
    take(operation) {
      const fault = queue.find((f) => f.spec.operation === operation || f.spec.operation === '*');
      if (!fault) return undefined;
      fault.remaining -= 1;
      fault.served += 1;
      if (fault.remaining === 0) queue = queue.filter((f) => f !== fault);
      return {
        status: fault.spec.status,
        delayMs: fault.spec.delayMs ?? 0,
        headers: hitHeaders(fault),
      };
    },
    pending: () => queue.map(describe),
    clear() {
      queue = [];
    },
  };
}

function hitHeaders(fault: QueuedFault): Record<string, string> {
  const overrides = Object.fromEntries(
    Object.entries(fault.spec.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const headers: Record<string, string> = {};
  if (fault.spec.status === 429) {
    const period = overrides['ot-period']?.toUpperCase() === 'HOUR' ? 'HOUR' : 'MINUTE';
    const limit = ACCOUNT_LIMITS[period];
    headers['retry-after'] = String(fault.spec.retryAfterSeconds ?? limit.retryAfterSeconds);
    headers['ot-ratelimit-event-id'] = fault.rateLimitEventId ?? crypto.randomUUID();
    headers['ot-requests-allowed'] = String(limit.allowed);
    headers['ot-period'] = period;
    // docs/rate-limit-model.md §5 (the platform's example 429s): the count made exceeds the count allowed, and grows per hit.
    headers['ot-request-made'] = String(limit.allowed + fault.served);
  } else if (fault.spec.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(fault.spec.retryAfterSeconds);
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === '') delete headers[name];
    else headers[name] = value;
  }
  return headers;
}
