// The built-in upstream of the BFF's demo mode: the standalone mock server on an internal loopback
// port, so the BFF's upstream client talks HTTP to it exactly as to the real service.
import type { DataSubjectOperation } from '../shared/data-subject-operations';
import type { AccountTier } from '../shared/rate-limits';
import { DEFAULT_EVENT_TYPE_COUNT } from './data/event-types';
import { MOCK_OPERATION_ROUTES } from './operations';
import { createMockDemoControls, type MockDemoControls } from './rate-limits/demo-controls';
import { createMockRateLimits } from './rate-limits/mock-rate-limits';
import { createMockState } from './state';
import { startMockUpstreamServer, type MockUpstreamServer } from './server';

/**
 * How many event types a demo connection's mock serves: the first as configured
 * (MOCK_EVENT_TYPES, else the generator's default); a later one a fifth of that, at least 60, so
 * its pages show at a glance that they are another platform's (a UAT account holds fewer).
 */
export function demoEventTypes(configured: number | undefined, index: number): number | undefined {
  if (index === 0) return configured;
  return Math.max(60, Math.round((configured ?? DEFAULT_EVENT_TYPE_COUNT) / 5));
}

/** Options of {@link startDemoUpstream}. */
export interface DemoUpstreamOptions {
  /** Client credentials the mock accepts: the demo credentials the BFF was configured with. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** How many event types to serve (`MOCK_EVENT_TYPES`); default the generator's default. */
  readonly eventTypes?: number;
  /** Which account limits of docs/rate-limit-model.md the mock enforces (the BFF's ACCOUNT_TIER). */
  readonly accountTier?: AccountTier;
  /** Requests per minute simulated other clients of the account make (`MOCK_BACKGROUND_RPM`). */
  readonly backgroundRpm?: number;
  /**
   * The console's data-subject catalog (DATA_SUBJECT_OPERATIONS_FILE applied): the mock serves
   * and rate-limits its operations where the console will send them.
   */
  readonly dataSubjectOperations?: readonly DataSubjectOperation[];
}

/** The running demo upstream, with the controls the BFF's demo panel drives in-process. */
export interface DemoUpstream extends MockUpstreamServer {
  readonly controls: MockDemoControls;
  /** The simulated other clients of the account, for the console's demo integrations. */
  readonly traffic: {
    readonly backgroundRpm: number;
    exhaustAccountMinute(): void;
    admit(): { status: number; headers: Record<string, string> };
    accountMinuteCount(): number;
  };
}

/**
 * Starts the mock upstream on 127.0.0.1 on a free port. The result's `url` is the base URL to
 * configure the upstream client with; its `state` lets demo controls inject faults directly.
 */
export async function startDemoUpstream(options: DemoUpstreamOptions = {}): Promise<DemoUpstream> {
  const rateLimits = createMockRateLimits({
    tier: options.accountTier ?? 'production',
    backgroundRpm: options.backgroundRpm ?? 0,
    routes: {
      ...MOCK_OPERATION_ROUTES,
      ...Object.fromEntries(
        (options.dataSubjectOperations ?? []).map((operation) => [
          operation.id,
          { method: operation.method, path: operation.path },
        ]),
      ),
    },
  });
  const state = createMockState({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    eventTypeCount: options.eventTypes,
    admission: rateLimits.admission,
    dataSubjectOperations: options.dataSubjectOperations,
  });
  const server = await startMockUpstreamServer({ host: '127.0.0.1', port: 0, state, rateLimits });
  const traffic = {
    backgroundRpm: options.backgroundRpm ?? 0,
    exhaustAccountMinute: () => rateLimits.exhaust('account-minute'),
    // One request of another client, counted by the account rules like any other.
    admit: () => {
      const hit = rateLimits.admission('event-types', Date.now());
      return { status: hit?.status ?? 200, headers: hit?.headers ?? {} };
    },
    accountMinuteCount: () =>
      rateLimits
        .snapshot()
        .windows.find((window) => window.ruleId === 'account-minute' && window.period === 'MINUTE')
        ?.count ?? 0,
  };
  return { ...server, controls: createMockDemoControls(state, rateLimits), traffic };
}
