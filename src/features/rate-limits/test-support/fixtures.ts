// Test data and doubles for the rate-limit feature's tests: incidents, usage, a fake EventSource.
import type { Incident, RulesResponse, Usage } from '../../../shared/incident';
import { rulesForTier } from '../../../shared/rate-limits';

export const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
export const EVENT_ID = '3f2b8c1e-9a4d-4e6b-8f7a-1c2d3e4f5a6b';

export function incident(overrides: Partial<Incident> = {}): Incident {
  return {
    key: EVENT_ID,
    eventId: EVENT_ID,
    seq: 1,
    firstSeen: new Date(T0).toISOString(),
    lastSeen: new Date(T0).toISOString(),
    hits: 1,
    period: 'MINUTE',
    requestsAllowed: 20_000,
    requestsMade: 20_001,
    retryAfterSeconds: 60,
    blockedUntil: new Date(T0 + 60_000).toISOString(),
    ruleId: 'account-minute',
    scope: 'account',
    operation: 'event-types',
    flags: [],
    headers: {
      'retry-after': '60',
      'ot-ratelimit-event-id': EVENT_ID,
      'ot-requests-allowed': '20000',
      'ot-period': 'MINUTE',
      'ot-request-made': '20001',
    },
    ...overrides,
  };
}

export const RULES: RulesResponse = {
  accountTier: 'production',
  policy: 'account-and-module',
  rules: rulesForTier('production').map((rule) => ({
    ...rule,
    limits: [...rule.limits],
    enforced: true,
  })),
};

export function usage(now: number, overrides: Partial<Usage> = {}): Usage {
  const buckets = 360;
  const start = Math.floor(now / 10_000) * 10_000 - (buckets - 1) * 10_000;
  return {
    now: new Date(now).toISOString(),
    accountTier: 'production',
    rules: RULES.rules.flatMap((rule) =>
      rule.limits.map((limit) => ({
        ruleId: rule.id,
        period: limit.period,
        limit: limit.limit,
        windowSeconds: limit.period === 'MINUTE' ? 60 : 3_600,
        used: 0,
        remaining: limit.limit,
        resetsAt: null,
        blockedUntil: null,
        blockedBy: null,
        incidentKey: null,
        enforced: true,
      })),
    ),
    blocks: [],
    reported: [],
    timeline: {
      bucketSeconds: 10,
      start: new Date(start).toISOString(),
      sent: Array.from({ length: buckets }, () => 0),
      refused: Array.from({ length: buckets }, () => 0),
      throttled: Array.from({ length: buckets }, () => 0),
    },
    ...overrides,
  };
}

/** An EventSource double: tests push events and errors into the instance the code opened. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  readonly #listeners = new Map<string, Array<(event: Event) => void>>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  /** The connection open now. */
  static current(): FakeEventSource {
    const open = FakeEventSource.instances.filter((source) => source.readyState !== 2);
    const last = open.at(-1);
    if (!last) throw new Error('no open EventSource');
    return last;
  }

  addEventListener(type: string, listener: (event: Event) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.readyState = 2;
  }

  emit(type: string, data: unknown, lastEventId = ''): void {
    this.readyState = 1;
    const event = new MessageEvent(type, { data: JSON.stringify(data), lastEventId });
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  fail(readyState: 0 | 2): void {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
}
