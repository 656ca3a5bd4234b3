// The mock upstream inside a test process: MSW intercepts the process's own outgoing requests, for
// the mock's own handler tests. (Demo mode does not use it: it serves the same handlers on a
// loopback socket, `demo-upstream.ts`, so the BFF's real HTTP client is exercised.)
import type { HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { createHandlers } from './handlers/create-handlers';
import { createMockState, type MockState, type MockStateOptions } from './state';

/** Options of {@link createMockUpstream}: state options, or a ready state to share. */
export interface MockUpstreamOptions extends MockStateOptions {
  /** Use this state instead of creating one from the other options. */
  readonly state?: MockState;
  /** What `listen()` does with a request no handler matches (default `'error'`). */
  readonly onUnhandledRequest?: 'error' | 'warn' | 'bypass';
}

/** An in-process mock upstream. */
export interface MockUpstream {
  readonly state: MockState;
  readonly handlers: HttpHandler[];
  /** The MSW server; call `listen()` below, or `server.listen()` with options of your own. */
  readonly server: SetupServer;
  /** Starts intercepting; unmatched requests fail the test by default. */
  listen(): void;
  /** Stops intercepting. */
  close(): void;
}

/**
 * Creates handlers over a (new or given) state and an MSW `setupServer` for them. Nothing is
 * intercepted until `listen()`.
 */
export function createMockUpstream(options: MockUpstreamOptions = {}): MockUpstream {
  const state = options.state ?? createMockState(options);
  const handlers = createHandlers(state);
  const server = setupServer(...handlers);
  const onUnhandledRequest = options.onUnhandledRequest ?? 'error';
  return {
    state,
    handlers,
    server,
    listen: () => server.listen({ onUnhandledRequest }),
    close: () => server.close(),
  };
}
