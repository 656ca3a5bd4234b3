// Mock-only control routes of the standalone mock upstream (never part of the real upstream API):
// e2e tests, benchmarks and demo controls use them to inject faults and read counters over HTTP.
import { Hono } from 'hono';
import * as z from 'zod';
import { FaultSpecSchema } from './faults';
import { UnknownRateLimitRuleError, type MockRateLimits } from './rate-limits/mock-rate-limits';
import type { MockState } from './state';

const ExhaustSchema = z.strictObject({
  rule: z.string().min(1).max(100),
  period: z.enum(['MINUTE', 'HOUR']).optional(),
});

/** Path prefix of the control routes. */
export const CONTROL_PREFIX = '/__mock';

/**
 * The control routes over `state`:
 * - `POST /__mock/faults` with a FaultSpec JSON body: 201 with the queued fault, 400 when invalid
 * - `GET /__mock/faults`: the faults still queued
 * - `DELETE /__mock/faults`: drop them (204)
 * - `GET /__mock/stats`: the counters
 * - `POST /__mock/reset`: forget tokens, faults and counters (204)
 * - `GET /__mock/rate-limits`: the rate-limit windows, blocks and counters (404 when limits are off)
 * - `POST /__mock/rate-limits/exhaust` with `{ "rule": id, "period"?: "MINUTE"|"HOUR" }`: use up
 *   that window as other clients would, so the next request exceeds it (204)
 * - `DELETE /__mock/rate-limits`: forget every window and block (204)
 * - `GET /__mock/data-subjects/received`: the data-subject requests received, oldest first
 */
export function createControlApp(state: MockState, rateLimits?: MockRateLimits): Hono {
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
  // Where each data-subject parameter arrived (path, query, the catalog's headers), so an
  // end-to-end test can check the wire at the upstream's end. Synthetic identifiers only.
  app.get('/data-subjects/received', (c) => c.json(state.dataSubjects.received()));
  app.post('/reset', (c) => {
    state.reset();
    rateLimits?.reset();
    return c.body(null, 204);
  });
  app.get('/rate-limits', (c) =>
    rateLimits
      ? c.json(rateLimits.snapshot())
      : c.json({ error: 'rate_limits_off', message: 'This mock runs without limits' }, 404),
  );
  app.post('/rate-limits/exhaust', async (c) => {
    if (!rateLimits) {
      return c.json({ error: 'rate_limits_off', message: 'This mock runs without limits' }, 404);
    }
    const parsed = ExhaustSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      return c.json({ error: 'invalid_request', message: 'Send { "rule": id, "period"? }' }, 400);
    }
    try {
      rateLimits.exhaust(parsed.data.rule, parsed.data.period);
    } catch (error) {
      if (!(error instanceof UnknownRateLimitRuleError)) throw error;
      return c.json({ error: 'unknown_rule', message: error.message }, 400);
    }
    return c.body(null, 204);
  });
  app.delete('/rate-limits', (c) => {
    rateLimits?.reset();
    return c.body(null, 204);
  });
  app.notFound((c) => c.json({ error: 'not_found', message: 'No such control route' }, 404));
  return app;
}
