// The built-in upstream of the BFF's demo mode: the standalone mock server on an internal loopback
// port, so the BFF's upstream client talks HTTP to it exactly as to the real service.
import { createMockState } from './state';
import { startMockUpstreamServer, type MockUpstreamServer } from './server';

/** Options of {@link startDemoUpstream}. */
export interface DemoUpstreamOptions {
  /** Client credentials the mock accepts: the demo credentials the BFF was configured with. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** How many event types to serve (`MOCK_EVENT_TYPES`); default the generator's default. */
  readonly eventTypes?: number;
}

/**
 * Starts the mock upstream on 127.0.0.1 on a free port. The result's `url` is the base URL to
 * configure the upstream client with; its `state` lets demo controls inject faults directly.
 */
export function startDemoUpstream(options: DemoUpstreamOptions = {}): Promise<MockUpstreamServer> {
  const state = createMockState({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    eventTypeCount: options.eventTypes,
  });
  return startMockUpstreamServer({ host: '127.0.0.1', port: 0, state });
}
