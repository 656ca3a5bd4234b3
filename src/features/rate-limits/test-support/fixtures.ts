// Test data and doubles for the rate-limit feature's tests: incidents, usage, a fake EventSource.
import type { Incident, RulesResponse, Usage } from '../../../shared/incident';
import type { AccountOverview } from '../../../shared/integrations';
import { blockOfLimit, describeBlock, type BlockState } from '../../../shared/limit-state';
import { rulesForTier } from '../../../shared/rate-limits';
import {
  INCIDENT_EVENT_ID,
  INCIDENT_T0,
  sampleIncident,
} from '../../../shared/test-support/incidents';

export const T0 = INCIDENT_T0;
export const EVENT_ID = INCIDENT_EVENT_ID;

/** The account-minute incident of the shared fixture, with `overrides`. */
export function incident(overrides: Partial<Incident> = {}): Incident {
  return sampleIncident(overrides);
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

/**
 * A usage answer at `now`; each limit's `block` and `blockedUntil` follow `overrides.blocks`, as the
 * server derives them from one description of the blocks.
 */
export function usage(now: number, overrides: Partial<Usage> = {}): Usage {
  const blocks = overrides.blocks ?? [];
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
        ...blockFields(blockOfLimit({ ruleId: rule.id }, blocks)),
        enforced: true,
      })),
    ),
    blocks,
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

function blockFields(block: BlockState | null) {
  return {
    blockedUntil: block?.until ?? null,
    blockedBy: block?.scope ?? null,
    incidentKey: block?.incidentKey ?? null,
    block,
  };
}

/**
 * A running block as the server describes it, from the incident that started it (and the call
 * that drew it, as method and path template, when the test wants it named).
 */
export function blockOf(incident: Incident, request?: string): BlockState {
  return describeBlock({
    scope: incident.scope,
    ruleId: incident.ruleId,
    period: incident.period,
    until: Date.parse(incident.blockedUntil),
    incidentKey: incident.key,
    stated: { requestsAllowed: incident.requestsAllowed, request },
  });
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

/**
 * The account-wide view at `now`: this console's 409 and the CRM connector's 173 requests in the
 * account minute limit, the platform having counted 20,002 at its last 429.
 */
export function accountOverview(now: number): AccountOverview {
  const at = new Date(now).toISOString();
  return {
    now: at,
    staleAfterSeconds: 120,
    limits: [
      {
        ruleId: 'account-minute',
        period: 'MINUTE',
        limit: 20_000,
        console: 409,
        integrations: [{ id: 'crm', name: 'CRM connector', used: 173 }],
        reported: 582,
        unreported: 19_420,
        block: null,
      },
      {
        ruleId: 'account-hour',
        period: 'HOUR',
        limit: 200_000,
        console: 409,
        integrations: [],
        reported: 409,
        unreported: null,
        block: null,
      },
    ],
    integrations: [],
    timeline: { bucketSeconds: 60, start: at, series: [] },
    incidents: [],
    demoBursts: [],
  };
}
