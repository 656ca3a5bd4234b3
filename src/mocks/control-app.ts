// Mock-only control routes of the standalone mock upstream (never part of the real upstream API):
// e2e tests, benchmarks and demo controls use them to inject faults and read counters over HTTP.
import { Hono } from 'hono';
import { FaultSpecSchema } from './faults';
import type { MockState } from './state';

/** Path prefix of the control routes. */
export const CONTROL_PREFIX = '/__mock';

/**
 * The control routes over `state`:
 * - `POST /__mock/faults` with a FaultSpec JSON body: 201 with the queued fault, 400 when invalid
 * - `GET /__mock/faults`: the faults still queued
 * - `DELETE /__mock/faults`: drop them (204)
 * - `GET /__mock/stats`: the counters
 * - `POST /__mock/reset`: forget tokens, faults and counters (204)
 */
export function createControlApp(state: MockState): Hono {
  const app = new Hono().basePath(CONTROL_PREFIX);

  app.post('/faults', async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const parsed = FaultSpecSchema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      return c.json({ error: 'invalid_fault', issues }, 400);
    }
    return c.json(state.injectFault(parsed.data), 201);
  });
  app.get('/faults', (c) => c.json(state.pendingFaults()));
  app.delete('/faults', (c) => {
    state.clearFaults();
    return c.body(null, 204);
  });
  app.get('/stats', (c) => c.json(state.stats()));
  app.post('/reset', (c) => {
    state.reset();
    return c.body(null, 204);
  });
  app.notFound((c) => c.json({ error: 'not_found', message: 'No such control route' }, 404));
  return app;
}
