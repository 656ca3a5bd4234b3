// What each demo control does to the built-in mock: the BFF calls these in-process in demo mode
// (never through the mock's /__mock routes, which the browser must not reach).
import { MODULE_RULES } from '../../shared/rate-limits';
import type { DemoScenario } from '../../shared/demo-scenarios';
import type { MockState } from '../state';
import type { MockRateLimits } from './mock-rate-limits';

/** The operation the BFF probes with after arming a scenario: the one it always has. */
const PROBE_OPERATION = 'event-types';

/** How long the slow-upstream scenario holds the answer back. */
const SLOW_UPSTREAM_DELAY_MS = 3_000;

// The module quota the demo imitates. Its own operation is a data-subject lookup, which a demo
// control must not make up (every lookup of personal data is audited), so the 429 arrives on the
// probe call with the headers that quota would send.
const DEMO_QUOTA = MODULE_RULES.find((rule) => rule.id === 'v3-datasubjects-quota');

/** The demo controls over one mock upstream. */
export interface MockDemoControls {
  /** Arms `scenario` so the next upstream call meets it. */
  provoke(scenario: DemoScenario): void;
  /** Ends every block and drops queued faults: the mock behaves normally again. */
  reset(): void;
}

/** Creates the controls over `state` and its rate-limit model. */
export function createMockDemoControls(
  state: MockState,
  rateLimits: MockRateLimits,
): MockDemoControls {
  return {
    provoke(scenario) {
      switch (scenario) {
        case 'account-minute':
          rateLimits.exhaust('account-minute');
          return;
        case 'account-hour':
          rateLimits.exhaust('account-hour');
          return;
        case 'module-quota': {
          const limit = DEMO_QUOTA?.limits.find((l) => l.period === 'MINUTE')?.limit ?? 1_000;
          state.injectFault({
            operation: PROBE_OPERATION,
            status: 429,
            retryAfterSeconds: 60,
            headers: {
              'ot-period': 'MINUTE',
              'ot-requests-allowed': String(limit),
              'ot-request-made': String(limit + 1),
            },
          });
          return;
        }
        case 'missing-headers':
          // An empty value removes the fault's default header.
          state.injectFault({
            operation: PROBE_OPERATION,
            status: 429,
            headers: {
              'retry-after': '',
              'ot-ratelimit-event-id': '',
              'ot-requests-allowed': '',
              'ot-period': '',
              'ot-request-made': '',
            },
          });
          return;
        case 'server-error':
          state.injectFault({ operation: PROBE_OPERATION, status: 500 });
          return;
        case 'slow-upstream':
          state.injectFault({
            operation: PROBE_OPERATION,
            status: 200,
            delayMs: SLOW_UPSTREAM_DELAY_MS,
          });
          return;
      }
    },
    reset() {
      rateLimits.reset();
      state.clearFaults();
    },
  };
}
